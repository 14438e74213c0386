/**
 * What the decoration's e2e tests share: a token-protected simulator for the file, the analysis
 * and its sample files in a fresh checkout, and the platform fakes started by a test, stopped
 * after it.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { Workspace } from '../../__fixtures__/built-action.js'
import {
  Simulator,
  writeSampleFiles,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { TOKEN, workspace } from './action-runs.js'

/** Quick polls, so the suites stay fast. */
export const QUICK = ['--initial-delay', '0', '--interval', '100']

/**
 * The file's simulator, started before its tests and stopped after them, and `checkout`: one
 * analysis on it, its report file and the sample files in a fresh workspace (`checkoutIn`: in
 * the workspace given).
 */
export function decorationServer() {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())
  return {
    get simulator(): Simulator {
      return simulator
    },
    async checkout(analysisScript: AnalysisScript): Promise<Workspace> {
      return checkoutIn(await workspace(), analysisScript)
    },
    /**
     * The same in a workspace the caller removes: a concurrent test's, since which test a hook
     * belongs to is unknown while several run.
     */
    checkoutIn
  }

  async function checkoutIn(ws: Workspace, analysisScript: AnalysisScript): Promise<Workspace> {
    await writeSampleFiles(ws.cwd)
    await simulator.writeReportFile(
      simulator.addAnalysis(analysisScript),
      ws.file('.scannerwork/report-task.txt')
    )
    return ws
  }
}

/** A starter of a platform's fake whose fakes are stopped after each test. */
export function stoppedAfterEach<O, F extends { stop(): Promise<void> }>(
  start: (options: O) => Promise<F>
): (options: O) => Promise<F> {
  const running: F[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((fake) => fake.stop()))
  })
  return async (options) => {
    const fake = await start(options)
    running.push(fake)
    return fake
  }
}
