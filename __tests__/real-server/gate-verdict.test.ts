/**
 * The verdict on real analyses: a Java project built with JaCoCo and analysed twice by the Maven
 * plugin, whose gate (made by the test) fails on its new code. The built action and the built
 * command read the same analysis as the scanner's own `sonar.qualitygate.wait`, and must come to
 * its verdict. (A passing gate: python-project.test.ts.)
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
import { scanWithMaven, type Scan } from './support/scanners.js'
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
      // The baseline: compiled and analysed, not tested (its coverage is not new code's).
      const first = await scanWithMaven({
        phase: 'compile',
        cwd: repository.root,
        serverUrl: server.url,
        version: server.version,
        token,
        projectKey
      })
      await taskEnd(admin, first.report['ceTaskId'] ?? '')
      repository.commitSecond()
      peer = await scanWithMaven({
        cwd: repository.root,
        serverUrl: server.url,
        version: server.version,
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
      // 9.9 and 10.7 refuse an analysis token the measures and hotspots (403), 26.9 the hotspots
      // only; the results say why.
      const [result] = JSON.parse(run.outputs['results'] ?? '[]') as {
        whatChanged?: { hotspotsError?: string; newCode?: { error?: string; coverage?: number } }
      }[]
      expect(result?.whatChanged?.hotspotsError).toContain(
        'it is a global analysis token (sqa_…), and SonarQube refuses analysis tokens what needs Browse'
      )
      if (major(server.version) < 25) {
        expect(result?.whatChanged?.newCode?.error).toContain(
          'it is a global analysis token (sqa_…)'
        )
      } else {
        expect(result?.whatChanged?.newCode?.coverage).toBe(Number(coverage))
      }

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

    it('new issues, hotspots and what changed, as the server counts them, for a user token', async () => {
      const userToken = await generateToken(admin, 'what-changed', 'USER_TOKEN')
      const run = await runActionOn(repository.root, { sonarToken: userToken, initialDelayMs: '0' })
      const [result] = JSON.parse(run.outputs['results'] ?? '[]') as {
        newIssues: number
        whatChanged?: {
          newCode?: { coverage?: number; duplicatedLines?: number }
          hotspotsToReview?: number
        }
      }[]
      // From 9.5 on, new code is `inNewCodePeriod`: 9.9 ignores hotspots' older
      // `sinceLeakPeriod` and counts every hotspot (2 where 1 is new: recorded).
      const inNewCode = { inNewCodePeriod: 'true' }
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
      // 26.9 reports the sample's pseudorandom generators as vulnerabilities ("former-hotspot"),
      // no longer as hotspots: only the older servers have hotspots to count.
      if (major(server.version) < 25) expect(hotspots.paging.total).toBeGreaterThan(0)
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
})

/** The server's major version: 9, 10, 26. */
const major = (version: string) => Number(version.split('.')[0])

/** The value the server measured for the condition on `metric`. */
function actual(gate: ProjectStatus, metric: string): string {
  return gate.conditions.find((condition) => condition.metricKey === metric)?.actualValue ?? ''
}
