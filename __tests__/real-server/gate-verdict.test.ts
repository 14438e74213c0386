/**
 * The verdict on real analyses: a Java project built with JaCoCo and analysed twice by the Maven
 * plugin, whose gate (made by the test) fails on its new code, and a Python project analysed
 * twice by the scanner CLI, whose gate passes. The built action and the built command read the
 * same analyses as the scanner's own `sonar.qualitygate.wait`, and must come to its verdict.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { annotations } from '../support/action-runs.js'
import {
  linksTo,
  projectStatus,
  runActionOn,
  runCommandOn,
  statusesOf,
  taskEnd,
  type ProjectStatus
} from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { scanWithCli, scanWithMaven, type Scan } from './support/scanners.js'
import { realServers } from './support/servers.js'
import {
  administrator,
  createGate,
  createProject,
  generateToken,
  type WebApi,
  unique
} from './support/web-api.js'
import { afterAll } from 'vitest'

describe.each(realServers())('SonarQube $version decides', (server) => {
  let admin: WebApi
  let token: string
  beforeAll(async () => {
    admin = await administrator(server.url)
    token = await generateToken(admin, 'verdict', 'GLOBAL_ANALYSIS_TOKEN')
  })

  describe('a failing gate on new code: Java, JaCoCo, the Maven plugin', () => {
    const projectKey = unique('verdict-java')
    let repository: SampleRepository
    let peer: Scan
    let gate: ProjectStatus
    let analysisId: string
    beforeAll(async () => {
      await createProject(admin, projectKey)
      await createGate(
        admin,
        'Fails on new code',
        [
          { metric: 'new_coverage', op: 'LT', error: '80' },
          { metric: 'new_violations', op: 'GT', error: '0' },
          { metric: 'new_duplicated_lines_density', op: 'GT', error: '50' }
        ],
        projectKey
      )
      repository = sampleRepository('java-maven')
      const first = await scanWithMaven({
        cwd: repository.root,
        serverUrl: server.url,
        token,
        projectKey
      })
      await taskEnd(admin, first.report['ceTaskId'] ?? '')
      repository.commitSecond()
      peer = await scanWithMaven({
        cwd: repository.root,
        serverUrl: server.url,
        token,
        projectKey,
        properties: { 'sonar.qualitygate.wait': 'true', 'sonar.qualitygate.timeout': '300' },
        mustSucceed: false
      })
      const { task } = await taskEnd(admin, peer.report['ceTaskId'] ?? '')
      analysisId = task.analysisId ?? ''
      gate = await projectStatus(admin, analysisId)
    })
    afterAll(() => repository?.remove())

    it('the server fails the gate on new coverage and new issues, as the scanner says', () => {
      expect(gate.status).toBe('ERROR')
      // The server lists the conditions in its own order, not the order they were made in.
      expect(
        Object.fromEntries(
          gate.conditions.map((condition) => [condition.metricKey, condition.status])
        )
      ).toEqual({
        new_coverage: 'ERROR',
        new_violations: 'ERROR',
        new_duplicated_lines_density: 'OK'
      })
      expect(peer.exitCode).not.toBe(0)
      expect(peer.output).toContain('QUALITY GATE STATUS: FAILED')
    })

    it('the action exits 1, naming the failing conditions with the server values', async () => {
      const run = await runActionOn(repository.root, {
        sonarToken: token,
        scanMetadataReportFile: 'target/sonar/report-task.txt',
        initialDelayMs: '0'
      })

      expect(run.exitCode, run.stdout + run.stderr).toBe(1)
      const coverage = actual(gate, 'new_coverage')
      const issues = actual(gate, 'new_violations')
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toMatch(
        new RegExp(`^Quality Gate Failure for ${projectKey}: 2 of 3 conditions failed\\.`)
      )
      expect(error).toContain(
        `- Coverage on New Code is ${Number(coverage)}% (fails when less than 80%)`
      )
      expect(error).toContain(`- Issues on New Code is ${issues} (fails when greater than 0)`)
      expect(run.outputs['status']).toBe('ERROR')
      expect(run.outputs['quality-gate-status']).toBe('FAILED')
      expect(run.outputs['analysisId']).toBe(analysisId)
      expect(run.outputs['taskId']).toBe(peer.report['ceTaskId'])
      expect(run.outputs['dashboardUrl']).toBe(`${server.url}/dashboard?id=${projectKey}`)
      expect(run.outputs['failedOn']).toBe('ERROR')
      expect(JSON.parse(run.outputs['conditions'] ?? '')).toEqual(gate.conditions)

      const links = linksTo(server.url, [run.summary, ...Object.values(run.outputs), run.stdout])
      expect(links.length).toBeGreaterThan(0)
      const statuses = await statusesOf(admin, links)
      expect(statuses).toEqual(Object.fromEntries(links.map((link) => [link, 200])))
    })

    it('the command exits 1 with the same conditions', async () => {
      const run = await runCommandOn(repository.root, ['--initial-delay', '0', '--json', '-'], {
        SONAR_TOKEN: token
      })

      expect(run.exitCode, run.stdout + run.stderr).toBe(1)
      const [result] = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as {
        status: string
        conditions: unknown
      }[]
      expect(result?.status).toBe('ERROR')
      expect(result?.conditions).toEqual(gate.conditions)
      expect(run.stderr + run.stdout).toContain('Coverage on New Code')
    })

    it('new issues, hotspots and what changed, as the server counts them', async () => {
      const run = await runActionOn(repository.root, { sonarToken: token, initialDelayMs: '0' })
      const [result] = JSON.parse(run.outputs['results'] ?? '[]') as {
        newIssues: number
        whatChanged?: {
          newCode?: { coverage?: number; duplicatedLines?: number }
          hotspotsToReview?: number
        }
      }[]
      const inNewCode: Record<string, string> = server.version.startsWith('9.')
        ? { sinceLeakPeriod: 'true' }
        : { inNewCodePeriod: 'true' }
      const issues = await admin.get<{ total?: number; paging?: { total: number } }>(
        'api/issues/search',
        {
          componentKeys: projectKey,
          resolved: 'false',
          ps: '1',
          ...inNewCode
        }
      )
      const hotspots = await admin.get<{ paging: { total: number } }>('api/hotspots/search', {
        projectKey,
        status: 'TO_REVIEW',
        ps: '1',
        ...inNewCode
      })

      console.info(
        `SonarQube ${server.version}, new code: the action says ${JSON.stringify(result)}; the server counts ${JSON.stringify(issues.paging ?? issues.total)} new issues, ${hotspots.paging.total} new hotspots to review`
      )
      expect(run.outputs['newIssues']).toBe(String(issues.paging?.total ?? issues.total))
      expect(result?.whatChanged?.hotspotsToReview).toBe(hotspots.paging.total)
      expect(hotspots.paging.total).toBeGreaterThan(0)
      expect(result?.whatChanged?.newCode?.coverage).toBe(Number(actual(gate, 'new_coverage')))
    })

    it('real servers send OK or ERROR, never WARN: failOn WARN changes nothing', async () => {
      expect(['OK', 'ERROR']).toContain(gate.status)
      for (const condition of gate.conditions) expect(['OK', 'ERROR']).toContain(condition.status)
      const run = await runCommandOn(
        repository.root,
        ['--initial-delay', '0', '--fail-on', 'ERROR,WARN,NONE'],
        { SONAR_TOKEN: token }
      )
      expect(run.exitCode, run.stdout + run.stderr).toBe(1)
    })
  })

  describe('a passing gate: Python, the scanner CLI', () => {
    const projectKey = unique('verdict-python')
    let repository: SampleRepository
    let peer: Scan
    let analysisId: string
    beforeAll(async () => {
      await createProject(admin, projectKey)
      await createGate(
        admin,
        'Passes',
        [{ metric: 'new_violations', op: 'GT', error: '100' }],
        projectKey
      )
      repository = sampleRepository('cli-python')
      const first = await scanWithCli({
        cwd: repository.root,
        serverUrl: server.url,
        token,
        projectKey
      })
      await taskEnd(admin, first.report['ceTaskId'] ?? '')
      repository.commitSecond()
      peer = await scanWithCli({
        cwd: repository.root,
        serverUrl: server.url,
        token,
        projectKey,
        properties: { 'sonar.qualitygate.wait': 'true', 'sonar.qualitygate.timeout': '300' }
      })
      analysisId = (await taskEnd(admin, peer.report['ceTaskId'] ?? '')).task.analysisId ?? ''
    })
    afterAll(() => repository?.remove())

    it('the scanner passes it', () => {
      expect(peer.exitCode).toBe(0)
      expect(peer.output).toContain('QUALITY GATE STATUS: PASSED')
    })

    it('the action exits 0 with status OK and every link answered 200', async () => {
      const run = await runActionOn(repository.root, { sonarToken: token, initialDelayMs: '0' })

      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
      expect(annotations(run.stdout, 'error')).toEqual([])
      expect(run.outputs['status']).toBe('OK')
      expect(run.outputs['quality-gate-status']).toBe('PASSED')
      expect(run.outputs['analysisId']).toBe(analysisId)
      expect(run.summary).toContain('Quality Gate passed')
      const links = linksTo(server.url, [run.summary, ...Object.values(run.outputs), run.stdout])
      const statuses = await statusesOf(admin, links)
      expect(statuses).toEqual(Object.fromEntries(links.map((link) => [link, 200])))
    })

    it('the command exits 0', async () => {
      const run = await runCommandOn(repository.root, ['--initial-delay', '0'], {
        SONAR_TOKEN: token
      })

      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
      expect(run.stdout + run.stderr).toContain('Quality Gate status: OK')
    })
  })
})

/** The value the server measured for the condition on `metric`. */
function actual(gate: ProjectStatus, metric: string): string {
  return gate.conditions.find((condition) => condition.metricKey === metric)?.actualValue ?? ''
}
