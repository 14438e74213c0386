/**
 * What every platform's decoration shares: its steps run one after the other, the first that
 * fails ends it with one warning (the platform, the step, why, what to check; a refusal in the
 * platform's words for it), and nothing a platform does escapes it. The time it has: the
 * time-out, or its allowance past the check, never more than the allowance past the time-out.
 */
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { DECORATION_ALLOWANCE_MS, decorationDeadline } from '../../src/deadline.js'
import { decorating, decorationStep } from '../../src/platforms/decorate.js'
import { PlatformError, PlatformRefusal } from '../../src/http/rest-api.js'

const PLATFORM = {
  name: 'GitLab',
  check: 'that CI_API_V4_URL is GitLab’s REST API',
  refusal: (error: PlatformRefusal) => `GitLab refused the decoration (${error.status}).`
}

describe('a decoration ends at its first failure, with one warning, and never throws', () => {
  it('a step that fails: one warning naming the platform, the step, why and what to check; no step after it runs', async () => {
    const log = new RecordingLog()
    const ran: string[] = []
    await decorating(log, PLATFORM, async () => {
      await decorationStep('the commit status for shop', async () => {
        ran.push('status')
      })
      await decorationStep('the note for shop', async () => {
        ran.push('note')
        throw new PlatformError('GitLab answered 503 to POST …/notes: Service Unavailable')
      })
      await decorationStep('the discussions on the diff', async () => {
        ran.push('discussions')
      })
    })
    expect(ran).toEqual(['status', 'note'])
    expect(log.of('warning')).toEqual([
      'GitLab: the note for shop failed, and nothing more is decorated; the verdict and the exit code are unchanged. GitLab answered 503 to POST …/notes: Service Unavailable. Check that CI_API_V4_URL is GitLab’s REST API; the next run decorates again.'
    ])
  })

  it('a refusal in any step: the platform’s words for what the token lacks, once', async () => {
    const log = new RecordingLog()
    await decorating(log, PLATFORM, async () => {
      await decorationStep('the token’s user', async () => {
        throw new PlatformRefusal('GitLab answered 403 to GET user', 403)
      })
    })
    expect(log.of('warning')).toEqual(['GitLab refused the decoration (403).'])
  })

  it('a failure outside any step, even one that is not an Error, is one warning too', async () => {
    const log = new RecordingLog()
    const decorated = decorating(log, PLATFORM, () => Promise.reject('no reply\nat all'))
    await expect(decorated).resolves.toBeUndefined()
    expect(log.of('warning')).toHaveLength(1)
    expect(log.of('warning')[0]).toMatch(
      /^GitLab: the decoration failed, and nothing more is decorated; the verdict and the exit code are unchanged\. no reply\\nat all\. Check /
    )
  })
})

describe('a warning said on the way waits for the decoration’s end', () => {
  it('a decoration that completes says it as a warning', async () => {
    const log = new RecordingLog()
    await decorating(log, PLATFORM, async (held) => {
      held.warning('GitLab: the token’s own identity could not be read.')
      await decorationStep('the note for shop', async () => undefined)
    })
    expect(log.of('warning')).toEqual(['GitLab: the token’s own identity could not be read.'])
  })

  it('a decoration that then fails says it as a plain line, and its failure is the one warning', async () => {
    const log = new RecordingLog()
    await decorating(log, PLATFORM, async (held) => {
      held.warning('GitLab: the token’s own identity could not be read.')
      await decorationStep('the note for shop', () => Promise.reject(new PlatformError('503')))
    })
    expect(log.of('info')).toContain('GitLab: the token’s own identity could not be read.')
    expect(log.of('warning')).toHaveLength(1)
    expect(log.of('warning')[0]).toContain('the note for shop failed')
  })
})

describe('the decoration’s time', () => {
  const TIMEOUT_MS = 60_000

  it.each([
    ['the check took 10 s: the rest of the time-out', 10_000, TIMEOUT_MS],
    ['the check took 50 s: the allowance past the check', 50_000, 50_000 + DECORATION_ALLOWANCE_MS],
    [
      'the check ran 10 s past the time-out: the allowance past the time-out, no more',
      TIMEOUT_MS + 10_000,
      TIMEOUT_MS + DECORATION_ALLOWANCE_MS
    ]
  ])('%s', (_, checkMs, endsAt) => {
    expect(decorationDeadline({ clock: new FakeClock(checkMs), deadline: TIMEOUT_MS })).toBe(endsAt)
  })
})
