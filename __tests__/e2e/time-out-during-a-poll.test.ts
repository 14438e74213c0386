import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { annotations, RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

describe.each(RUNTIMES)('the time-out during a poll, on $runtime', ({ node }) => {
  // Answers the first poll PENDING at once, then stops answering: the next poll is still in
  // flight when the overall time-out comes.
  let server: LoopbackServer
  beforeAll(async () => {
    server = await startLoopbackServer((_, response, count) => {
      if (count === 1) json(response, { task: { id: 'AYTask0001', status: 'PENDING' } })
    })
  })
  afterAll(() => server.close())

  describe('a poll the overall time-out cuts short ends as a time-out, not as an unreachable server', () => {
    it('names the last status and the time spent', async () => {
      const ws = await workspace()

      const run = await runAction(ws, {
        node,
        inputs: {
          sonarToken: TOKEN,
          taskId: 'AYTask0001',
          sonarHostUrl: server.url,
          pollingTimeoutSec: '2',
          pollingIntervalMs: '200'
        }
      })

      expect(run.exitCode).toBe(1)
      expect(server.received.length).toBeGreaterThanOrEqual(2)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          /^Timed out after 2\.\d s waiting for the analysis task AYTask0001: its last status was PENDING\./
        )
      ])
    })
  })
})
