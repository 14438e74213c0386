import { describe, expect, it } from 'vitest'
import { annotations, RUNTIMES, script, simulatedServer } from './run-action.js'
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
          analysisId: analysis.analysisId,
          taskId: analysis.taskId,
          dashboardUrl: `${server.simulator.url}/dashboard?id=demo-project`,
          newIssues: 0,
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
        'Quality Gate passed with warnings (WARN): see the conditions in the job summary.'
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
