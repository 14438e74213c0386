import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Simulator, type AnalysisScript } from '../../__fixtures__/simulator/sonar-simulator.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  script,
  TOKEN,
  workspace
} from '../support/action-runs.js'

describe.each(RUNTIMES)('the job summary is best-effort, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  async function checkWithUnwritableSummary(analysisScript: AnalysisScript) {
    const analysis = simulator.addAnalysis(analysisScript)
    const ws = await workspace()
    await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
    // A directory: the runner's summary file cannot be written.
    return runAction(ws, { node, inputs: { sonarToken: TOKEN }, summaryFile: ws.cwd })
  }

  describe('a summary that cannot be written changes no verdict', () => {
    it('still passes a passing gate, saying the summary was not written', async () => {
      const run = await checkWithUnwritableSummary(await script('done'))

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('OK')
      expect(run.stdout).toMatch(/^Could not write the job summary: /m)
    })

    it('still fails an ERROR gate with the Quality Gate Failure', async () => {
      const run = await checkWithUnwritableSummary(await script('gate-error', { finishAfterMs: 0 }))

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(/^Quality Gate Failure/)
      ])
    })
  })
})
