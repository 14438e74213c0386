import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Simulator } from '../../__fixtures__/simulator/sonar-simulator.js'
import { closedPort } from '../fault-kit/http-server.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  script,
  TOKEN,
  workspace
} from '../support/action-runs.js'

describe.each(RUNTIMES)('trying the server again, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  describe('a server that answers 503 at first is tried again', () => {
    it('passes after two 503 replies, saying each time that it tries again', async () => {
      const analysis = simulator.addAnalysis(await script('flaky'))
      const ws = await workspace()
      await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))

      const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('OK')
      expect(
        run.stdout.match(/^HTTP 503 for task AYTask\d+; trying again in \d+ ms/gm)
      ).toHaveLength(2)
      const taskRequests = simulator.requests.filter(
        (request) => request.url === `/api/ce/task?id=${analysis.taskId}`
      )
      expect(taskRequests).toHaveLength(3)
    })
  })

  describe('a server that cannot be reached fails the job in about a second, not at the time-out', () => {
    it('says the connection was refused and how many tries were made', async () => {
      const port = await closedPort()
      const ws = await workspace()

      const run = await runAction(ws, {
        node,
        inputs: {
          sonarToken: TOKEN,
          taskId: 'AYTask0000',
          sonarHostUrl: `http://127.0.0.1:${port}`,
          pollingTimeoutSec: '60'
        }
      })

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          `^Could not reach the server for task AYTask0000 at http://127\\.0\\.0\\.1:${port}/api/ce/task\\?id=AYTask0000: connection refused \\(ECONNREFUSED\\)\\. .* Gave up after 3 tries\\.$`
        )
      ])
      // Two retries, then the verdict: not retried until the 60 s time-out runs out.
      expect(
        run.stdout.match(/^connection refused for task AYTask0000; trying again in .*$/gm)
      ).toEqual([
        expect.stringMatching(/ in \d+ ms \(try 2\)\.$/),
        expect.stringMatching(/ in \d+ ms \(try 3\)\.$/)
      ])
    })
  })
})
