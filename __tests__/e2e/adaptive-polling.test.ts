/**
 * The built action polls closer together around the end the project's previous analysis
 * predicts, when pollingIntervalMs is left empty; a pollingIntervalMs given is honoured exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenario, Simulator } from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

describe.each(RUNTIMES)('polls around the predicted end, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  /** A task that ends 2.5 s after it is added, processing for its last 1.25 s, as the previous one did. */
  async function check(pollingIntervalMs: string) {
    const analysis = simulator.addAnalysis({
      ...(await scenario('done')),
      finishAfterMs: 2500,
      previousProcessingMs: 1250
    })
    const ws = await workspace()
    await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
    const first = simulator.requests.length
    const run = await runAction(ws, {
      node,
      inputs: { sonarToken: TOKEN, initialDelayMs: '0', pollingIntervalMs }
    })
    const requests = simulator.requests.slice(first)
    return {
      run,
      requests,
      polls: requests.filter((request) => request.url.startsWith('/api/ce/task')).length
    }
  }

  // How soon after the end the verdict comes, against the fixed cadence, is bench:latency's measure.
  it('pollingIntervalMs empty: one read of the previous analysis, then polls closer together around the end it predicts', async () => {
    const { run, requests } = await check('')
    expect(run.exitCode).toBe(0)
    expect(
      requests.filter((request) => request.url === '/api/ce/component?component=demo-project')
    ).toHaveLength(1)
    expect(run.stdout).toMatch(
      /^The project's previous analysis predicts the end at about 2\.\d s: polling closer together from/m
    )
  })

  it('pollingIntervalMs given: exactly that cadence, nothing else asked', async () => {
    const { run, requests, polls } = await check('1000')
    expect(run.exitCode).toBe(0)
    expect(requests.some((request) => request.url.startsWith('/api/ce/component'))).toBe(false)
    expect(polls).toBe(4) // at 0, 1, 2 and 3 s
  })
})
