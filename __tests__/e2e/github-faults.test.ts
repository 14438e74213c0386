/**
 * The action's GitHub features (the lines a pull request changes, the issues check run, the
 * pull-request comment) never change the verdict or the step's failure state, whatever GitHub's
 * API does: the bundle dist/index.js on a pull_request event, with the comment and the check run
 * asked for, GITHUB_API_URL pointing at a loopback GitHub behind a front that plays a fault on
 * every request (a refused connection, 503, 429 asking for a day, a page that is not JSON, JSON
 * without the fields read, a connection reset mid-body, 401, 403, 404). Each run ends with the
 * gate's exit code, its verdict, its outputs, and no token shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkspace, type Workspace } from '../../__fixtures__/built-action.js'
import { DECORATION_ALLOWANCE_MS } from '../../src/deadline.js'
import { scenario, type AnalysisScript } from '../../__fixtures__/simulator/sonar-simulator.js'
import { FRONT_FAULTS, startFaultyFront, type FaultyFront } from '../fault-kit/faulty-front.js'
import { closedPort } from '../fault-kit/http-server.js'
import { annotations, RUNTIMES, runAction, simulatedServer, TOKEN } from '../support/action-runs.js'
import { FakeGitHub, writePullRequestEvent } from '../../__fixtures__/github/fake-github.js'

const GITHUB_TOKEN = 'ghs_e2eFaultToken0123456789abcdefABCDEF01'
// The system's Node only: the bundle is the same on each.
const { node } = RUNTIMES[0]!

/** A hang waits out the decoration's allowance (30 s): a case of its own below. */
const FAULTS = ['refused', ...FRONT_FAULTS.filter((fault) => fault !== 'hang')] as const

const GATES = [
  { gate: 'passing', exitCode: 0, status: 'OK' },
  { gate: 'failing', exitCode: 1, status: 'ERROR' }
] as const

describe.concurrent('the GitHub features never change the verdict or the failure state', () => {
  const server = simulatedServer(node)
  const github = new FakeGitHub()
  beforeAll(() => github.start())
  afterAll(() => github.stop())
  let cases = 0

  async function analysisOf(gate: 'passing' | 'failing'): Promise<AnalysisScript> {
    // A project of the case's own: the simulator answers a project's issues from its newest
    // analysis, and the cases run side by side.
    const projectKey = `shop-${++cases}`
    return gate === 'passing'
      ? { ...(await scenario('done')), projectKey }
      : { ...(await scenario('gate-error')), finishAfterMs: 0, projectKey }
  }

  /**
   * The bundle on a pull_request event, the comment and the check run asked for, GitHub's API at
   * `apiUrl`.
   */
  async function onPullRequest(
    ws: Workspace,
    apiUrl: string,
    { killAfterMs, inputs = {} }: { killAfterMs: number; inputs?: Record<string, string> }
  ) {
    const eventFile = await writePullRequestEvent(ws)
    return runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        pullRequestComment: 'true',
        issuesCheckRun: 'true',
        githubToken: GITHUB_TOKEN,
        ...inputs
      },
      env: {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventFile,
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_API_URL: apiUrl
      },
      killAfterMs
    })
  }

  for (const fault of FAULTS) {
    for (const gate of GATES) {
      it(
        `${String(fault)} on every request of GitHub's API, a ${gate.gate} gate: exit ${gate.exitCode}, the verdict`,
        { timeout: 120_000 },
        async () => {
          let front: FaultyFront | undefined
          const ws = await createWorkspace('gate-e2e-')
          try {
            const apiUrl =
              fault === 'refused'
                ? `http://127.0.0.1:${await closedPort()}`
                : (front = await startFaultyFront(github.url, fault)).url
            const analysis = server.simulator.addAnalysis(await analysisOf(gate.gate))
            await server.simulator.writeReportFile(
              analysis,
              ws.file('.scannerwork/report-task.txt')
            )
            // Side by side on a busy machine, a run takes longer than alone.
            const run = await onPullRequest(ws, apiUrl, { killAfterMs: 90_000 })
            const context = `exit ${run.exitCode}:\n${run.stdout}\n${run.stderr}`
            expect(run.exitCode, context).toBe(gate.exitCode)
            expect(run.outputs['status'], context).toBe(gate.status)
            const errors = annotations(run.stdout, 'error')
            if (gate.exitCode === 0) expect(errors, context).toEqual([])
            else expect(errors.join('\n'), context).toContain('Quality Gate Failure')
            const shown = `${run.stdout}\n${run.stderr}`.split('\n')
            expect(
              shown.filter(
                (line) => !line.startsWith('::add-mask::') && line.includes(GITHUB_TOKEN)
              )
            ).toEqual([])
            if (front) expect(front.faulted).toBeGreaterThan(0)
          } finally {
            await front?.close()
            await ws.remove()
          }
        }
      )
    }
  }

  it(
    "a GitHub API that never answers cannot keep the step past pollingTimeoutSec plus the decoration's allowance",
    { timeout: 120_000 },
    async () => {
      const front = await startFaultyFront(github.url, 'hang')
      const ws = await createWorkspace('gate-e2e-')
      try {
        const analysis = server.simulator.addAnalysis(await analysisOf('passing'))
        await server.simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
        const timeoutSec = 5
        const run = await onPullRequest(ws, front.url, {
          killAfterMs: 110_000,
          inputs: { pollingTimeoutSec: String(timeoutSec) }
        })
        const context = `exit ${run.exitCode} after ${run.ms} ms:\n${run.stdout}\n${run.stderr}`
        expect(run.exitCode, context).toBe(0)
        expect(run.outputs['status'], context).toBe('OK')
        expect(front.faulted, context).toBeGreaterThan(0)
        // The process's start to its exit, Node's start-up included, and a few seconds of a busy
        // machine's slack; before the one deadline, each feature waited 60 s or 120 s.
        expect(run.ms, context).toBeLessThan(timeoutSec * 1000 + DECORATION_ALLOWANCE_MS + 5000)
      } finally {
        await front.close()
        await ws.remove()
      }
    }
  )
})
