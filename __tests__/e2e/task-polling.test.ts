import { describe, expect, it } from 'vitest'
import { annotations, RUNTIMES, script, simulatedServer } from '../support/action-runs.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

describe.each(RUNTIMES)('waiting for the analysis task, on $runtime', ({ node }) => {
  const server = simulatedServer(node)
  const check = server.check

  describe('a task that is still running is polled until it succeeds', () => {
    it('logs each poll, PENDING then IN_PROGRESS then SUCCESS, in one group', async () => {
      const { analysis, run, requests } = await check(
        await script('pending-success', { finishAfterMs: 1200 })
      )

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('OK')
      const group = run.stdout.slice(
        run.stdout.indexOf(`::group::Waiting for analysis task ${analysis.taskId}`),
        run.stdout.indexOf('::endgroup::')
      )
      const statuses = [...group.matchAll(/^(\w+) after \d+\.\d s$/gm)].map((match) => match[1])
      expect(new Set(statuses)).toEqual(new Set(['PENDING', 'IN_PROGRESS', 'SUCCESS']))
      expect(statuses.indexOf('PENDING')).toBeLessThan(statuses.indexOf('IN_PROGRESS'))
      expect(statuses.at(-1)).toBe('SUCCESS')
      expect(requests.filter((request) => request.url.startsWith('/api/ce/task')).length).toBe(
        statuses.length
      )
    })
  })

  describe('a FAILED task fails the job with the reason the server gives', () => {
    it("exits 1 with the task's error message, in the log and the summary", async () => {
      const { analysis, run } = await check(await script('task-failed', { finishAfterMs: 0 }))

      expect(run.exitCode).toBe(1)
      const message = `The analysis task ${analysis.taskId} ended FAILED: Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database.`
      expect(annotations(run.stdout, 'error')).toEqual([expect.stringContaining(message)])
      const summary = renderAsGitHub(run.summary)
      expect(summary.of('h2').map((heading) => heading.text)).toEqual([
        '❌ Quality Gate check failed'
      ])
      expect(summary.text).toContain(message)
      expect(run.outputs).toEqual({})
    })
  })

  describe('the overall time-out ends the wait', () => {
    it('exits 1 soon after pollingTimeoutSec, naming the last status and the time spent', async () => {
      // The default interval: the wait before the second poll is cut to end at the time-out.
      const { run } = await check(await script('slow'), {
        pollingTimeoutSec: '1',
        pollingIntervalMs: '1000'
      })

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          /^Timed out after 1\.\d s waiting for the analysis task AYTask\d+: its last status was PENDING\. .*raise pollingTimeoutSec \(now 1\.0 s\)\.$/
        )
      ])
    })
  })
})
