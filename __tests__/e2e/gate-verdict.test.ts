import { describe, expect, it } from 'vitest'
import {
  annotations,
  runAction,
  RUNTIMES,
  script,
  simulatedServer,
  workspace
} from '../support/action-runs.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

describe.each(RUNTIMES)('the gate decides the verdict, on $runtime', ({ node, version }) => {
  const server = simulatedServer(node)
  const check = server.check

  describe('a passing gate (OK) passes the job', () => {
    it('exits 0 and sets every output from the analysis', async () => {
      const { analysis, run } = await check(await script('done'))

      expect(run.exitCode).toBe(0)
      expect(annotations(run.stdout, 'error')).toEqual([])
      expect(run.outputs).toEqual({
        status: 'OK',
        'quality-gate-status': 'PASSED',
        analysisId: analysis.analysisId,
        taskId: analysis.taskId,
        dashboardUrl: `${server.simulator.url}/dashboard?id=demo-project`,
        conditions: expect.any(String),
        branch: '',
        pullRequest: '',
        newIssues: '0',
        failedOn: '',
        results: expect.any(String)
      })
      expect(JSON.parse(run.outputs['conditions'] ?? '')).toEqual(
        analysis.script.projectStatus['conditions']
      )
      expect(JSON.parse(run.outputs['results'] ?? '')).toEqual([
        {
          projectKey: 'demo-project',
          source: '.scannerwork/report-task.txt',
          status: 'OK',
          qualityGateStatus: 'PASSED',
          gateFailed: false,
          analysisId: analysis.analysisId,
          taskId: analysis.taskId,
          dashboardUrl: `${server.simulator.url}/dashboard?id=demo-project`,
          newIssues: 0,
          // The simulator's figures of a 10.x branch: no target, no hotspots, one accepted issue.
          whatChanged: {
            newCode: { coverage: 91.3, duplicatedLines: 0.4 },
            hotspotsToReview: 0,
            hotspots: [],
            acceptedIssues: 1
          },
          conditions: analysis.script.projectStatus['conditions']
        }
      ])
    })

    it('writes the verdict and one table row per condition to the job summary', async () => {
      const { analysis, run } = await check(await script('done'))

      const summary = renderAsGitHub(run.summary)
      expect(summary.of('h2').map((heading) => heading.text)).toEqual(['✅ Quality Gate passed'])
      const rows = summary.of('tr').map((row) => row.cells)
      expect(rows[0]).toEqual(['Metric', 'Status', 'Actual', 'Threshold'])
      expect(rows).toContainEqual([
        'Coverage on New Code',
        '✅ OK',
        '91.3%',
        'fails when less than 80%'
      ])
      expect(rows.filter((row) => row[1] === '✅ OK')).toHaveLength(4)
      expect(summary.text).toContain(`analysis ${analysis.analysisId}`)
    })

    it(`runs on the runtime it is started with`, async () => {
      const { analysis } = await check(await script('done'))

      const agents = server.simulator.requests
        .filter((request) => request.url.includes(analysis.taskId))
        .map((request) => /\(node (v[\d.]+)\)/.exec(request.userAgent ?? '')?.[1])
      expect(agents.length).toBeGreaterThan(0)
      for (const agent of agents) expect(agent).toBe(version)
    })
  })

  describe('an ERROR gate fails the job', () => {
    it('exits 1 with a Quality Gate Failure naming each failing condition', async () => {
      const { run } = await check(await script('gate-error', { finishAfterMs: 200 }))

      expect(run.exitCode).toBe(1)
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toMatch(/^Quality Gate Failure for demo-project: 4 of 7 conditions failed\./)
      expect(error).toContain('- Coverage on New Code is 82.51% (fails when less than 85%)')
      expect(error).toContain('- Open Issues is 17 (ERROR by the server, which sent no threshold)')
    })

    it('sets status ERROR and quality-gate-status FAILED', async () => {
      const { analysis, run } = await check(await script('gate-error', { finishAfterMs: 0 }))

      expect(run.outputs['status']).toBe('ERROR')
      expect(run.outputs['quality-gate-status']).toBe('FAILED')
      expect(JSON.parse(run.outputs['conditions'] ?? '')).toEqual(
        analysis.script.projectStatus['conditions']
      )
    })

    it('lists the conditions in the job summary, those without a threshold included', async () => {
      const { run } = await check(await script('gate-error', { finishAfterMs: 0 }))

      const summary = renderAsGitHub(run.summary)
      expect(summary.of('h2').map((heading) => heading.text)).toEqual(['❌ Quality Gate failed'])
      const rows = summary.of('tr').map((row) => row.cells)
      expect(rows).toContainEqual([
        'Coverage on New Code',
        '❌ ERROR',
        '82.51%',
        'fails when less than 85%'
      ])
      expect(rows).toContainEqual(['Open Issues', '❌ ERROR', '17', 'no threshold sent'])
      expect(rows.filter((row) => /^(✅ OK|❌ ERROR)$/.test(row[1] ?? ''))).toHaveLength(7)
    })

    it("turns the analysis task's warnings into warning annotations, without HTML", async () => {
      const { run } = await check(await script('gate-error', { finishAfterMs: 0 }))

      expect(annotations(run.stdout, 'warning')).toEqual([
        expect.stringMatching(/^Analysis warning: The properties 'sonar.login' and/),
        expect.stringContaining(
          'refer to the documentation (https://docs.sonarqube.org/latest/analyzing-source-code/scm-integration/).'
        )
      ])
    })
  })

  describe('with failOnError false, an ERROR gate is reported without failing the job', () => {
    it('exits 0, says ERROR and FAILED in the outputs and warns', async () => {
      const { run } = await check(await script('gate-error', { finishAfterMs: 0 }), {
        failOnError: 'false'
      })

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('ERROR')
      expect(run.outputs['quality-gate-status']).toBe('FAILED')
      expect(annotations(run.stdout, 'error')).toEqual([])
      expect(annotations(run.stdout, 'warning')).toContainEqual(
        expect.stringMatching(/^Quality Gate Failure[^]*failOnError is false: the job goes on\.$/)
      )
    })
  })

  describe('WARN and NONE gates pass with a warning', () => {
    it('passes a WARN gate and says it passed with warnings', async () => {
      const { run } = await check(await script('gate-warn'))

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('WARN')
      expect(run.outputs['quality-gate-status']).toBe('WARN')
      expect(annotations(run.stdout, 'warning')).toEqual([
        'Quality Gate passed with warnings (WARN): none of its 4 conditions is WARN on the server.'
      ])
    })

    it('passes when the project has no gate (NONE) and says so', async () => {
      const { run } = await check(await script('no-gate'))

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('NONE')
      expect(run.outputs['quality-gate-status']).toBe('NONE')
      expect(run.outputs['conditions']).toBe('[]')
      expect(annotations(run.stdout, 'warning')).toEqual([
        expect.stringMatching(/^No Quality Gate is set for this project \(NONE\)/)
      ])
      expect(run.summary).toContain('The server returned no conditions for this analysis.')
    })
  })
})

/** A gate of each status the server may send, and one it never sends for a gate. */
const STATUSES = [
  { status: 'OK', scenario: () => script('done') },
  { status: 'WARN', scenario: () => script('gate-warn') },
  { status: 'ERROR', scenario: () => script('gate-error') },
  { status: 'NONE', scenario: () => script('no-gate') },
  {
    status: 'FAILED',
    scenario: async () => ({
      ...(await script('no-gate')),
      projectStatus: { status: 'FAILED', conditions: [] }
    })
  }
] as const

/** Each policy, and the statuses it fails on (FAILED, which no server sends, counts as NONE). */
const POLICIES = [
  { failOn: '', fails: ['ERROR'] },
  { failOn: 'ERROR,WARN', fails: ['ERROR', 'WARN'] },
  { failOn: 'error, warn\nnone', fails: ['ERROR', 'WARN', 'NONE', 'FAILED'] }
] as const

describe('failOn: the statuses that fail the job, every status under every policy', () => {
  // On the runtime GitHub runs the action with: the verdict does not depend on it.
  const server = simulatedServer(RUNTIMES.at(-1)!.node)

  describe.each(POLICIES)('failOn "$failOn"', ({ failOn, fails }) => {
    it.each(STATUSES)('a $status gate', async ({ status, scenario }) => {
      const { run } = await server.check(await scenario(), { failOn })
      const failed = (fails as readonly string[]).includes(status)
      const kind = status === 'FAILED' ? 'NONE' : status

      expect(run.exitCode).toBe(failed ? 1 : 0)
      expect(run.outputs['status']).toBe(status)
      expect(run.outputs['failedOn']).toBe(failed ? kind : '')
      const [result] = JSON.parse(run.outputs['results'] ?? '') as { gateFailed: boolean }[]
      expect(result?.gateFailed).toBe(failed)
      const errors = annotations(run.stdout, 'error')
      const heading = renderAsGitHub(run.summary).of('h2')[0]?.text
      if (failed) {
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(/^Quality Gate Failure for demo-project: /)
        expect(heading).toMatch(/^❌ /)
      } else {
        expect(errors).toEqual([])
        expect(heading).not.toMatch(/^❌ /)
      }
      if (failed && status !== 'ERROR') {
        expect(errors[0]).toContain('failOn names')
        expect(heading).toContain('which failOn names (')
      }
    })
  })

  it('failOnError false wins: a WARN gate that failOn names is reported, and the job goes on', async () => {
    const { run } = await server.check(await script('gate-warn'), {
      failOn: 'ERROR,WARN',
      failOnError: 'false'
    })

    expect(run.exitCode).toBe(0)
    expect(run.outputs['failedOn']).toBe('WARN')
    expect(annotations(run.stdout, 'error')).toEqual([])
    expect(annotations(run.stdout, 'warning')).toContainEqual(
      expect.stringMatching(
        /^Quality Gate Failure for demo-project: the gate is WARN, which failOn names[^]*failOnError is false: the job goes on\.$/
      )
    )
  })

  it.each([
    ['WARN', /it must include ERROR, or a failed gate would pass[^]*see failOnError/],
    ['ERROR,FAIL', /^Input failOn has "FAIL": give the gate statuses that fail the step/]
  ])('"%s" is refused before anything is sent, naming the input', async (failOn, message) => {
    const analysis = server.simulator.addAnalysis(await script('done'))
    const ws = await workspace()
    await server.simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
    const run = await runAction(ws, { node: RUNTIMES.at(-1)!.node, inputs: { failOn } })

    expect(run.exitCode).toBe(1)
    expect(annotations(run.stdout, 'error')).toEqual([expect.stringMatching(message)])
    expect(server.simulator.requests.filter(({ url }) => url.includes(analysis.taskId))).toEqual([])
  })
})
