import { describe, expect, it } from 'vitest'
import { isAllowedRedirect, isSameOrigin, serverBase } from '../../src/sonar/origin.js'
import { backoffMs, decideRetry, parseRetryAfter } from '../../src/http/retry-policy.js'
import { shortTokenWarning, tokenForms } from '../../src/secrets.js'
import { inActionWords } from '../../__fixtures__/sinks.js'

/** A retry decision with its reason in the action's words. */
const saidByTheAction = (decision: ReturnType<typeof decideRetry>) =>
  decision.retry ? decision : { ...decision, why: inActionWords(decision.why) }

describe('a redirect may carry the token only on the same origin or its https upgrade', () => {
  it.each([
    ['https://s.example/a', 'https://s.example/b', true],
    ['http://s.example/a', 'https://s.example/a', true],
    ['http://s.example:9000/a', 'https://s.example:9443/a', true],
    ['https://s.example/a', 'http://s.example/a', false],
    ['https://s.example/a', 'https://s.example:8443/a', false],
    ['https://s.example/a', 'https://other.example/a', false],
    ['http://s.example/a', 'https://s.example.evil.net/a', false]
  ])('%s → %s: %s', (from, to, allowed) => {
    expect(isAllowedRedirect(new URL(from), new URL(to))).toBe(allowed)
  })

  it('compares origins, not prefixes', () => {
    expect(isSameOrigin(new URL('https://s.example.evil/x'), new URL('https://s.example'))).toBe(
      false
    )
    expect(isSameOrigin(new URL('https://S.EXAMPLE:443/x'), new URL('https://s.example'))).toBe(
      true
    )
  })

  it('the server base always ends in /', () => {
    expect(serverBase(new URL('https://s.example/sonar')).href).toBe('https://s.example/sonar/')
    expect(serverBase(new URL('https://s.example/sonar/')).href).toBe('https://s.example/sonar/')
  })
})

describe('retries back off exponentially with jitter; the server may lengthen a wait, never shorten it', () => {
  it('doubles the ceiling each time, up to 8 s, and jitters within its upper half', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => backoffMs(attempt, () => 0))).toEqual([
      125, 250, 500, 1000, 4000
    ])
    expect([0, 1, 2, 3, 10].map((attempt) => backoffMs(attempt, () => 1))).toEqual([
      250, 500, 1000, 2000, 8000
    ])
  })

  it.each([
    ['3', 3000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2026 07:28:05 GMT', 5000],
    ['Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['1.5', undefined],
    ['-5', undefined],
    ['2026-10-21T07:30:00Z', undefined],
    ['soon', undefined],
    ['', undefined]
  ])('Retry-After %j → %s ms', (header, ms) => {
    expect(parseRetryAfter(header, Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(ms)
  })

  const busy = (retryAfter: string | undefined) =>
    ({ kind: 'status', status: 429, retryAfter }) as const
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')

  it.each(['0', '1.5', '-5', 'garbage', 'Wed, 21 Oct 2026 07:00:00 GMT', undefined])(
    'Retry-After %j never waits less than the backoff',
    (header) => {
      expect(decideRetry(busy(header), 3, 60_000, () => 0, now)).toEqual({
        retry: true,
        delayMs: 1000
      })
    }
  )

  it('a longer Retry-After lengthens the wait', () => {
    expect(decideRetry(busy('7'), 0, 60_000, () => 0, now)).toEqual({ retry: true, delayMs: 7000 })
  })

  it('a Retry-After past what the time-out leaves fails at once, and says so', () => {
    expect(saidByTheAction(decideRetry(busy('120'), 0, 30_500, () => 0, now))).toEqual({
      retry: false,
      why: 'The server asked to wait 120 s before another try (Retry-After), more than the overall time-out (pollingTimeoutSec) leaves (30 s).'
    })
  })

  it('nothing answering at the address gets 3 tries in all; faults on the way get more', () => {
    const unreachable = [0, 1, 2].map((attempt) =>
      decideRetry({ kind: 'unreachable' }, attempt, 60_000, () => 0, now)
    )
    expect(unreachable.map((decision) => decision.retry)).toEqual([true, true, false])
    expect(decideRetry({ kind: 'transient' }, 5, 60_000, () => 0, now).retry).toBe(true)
  })

  it('final faults and statuses other than 429 and 5xx gateway errors are never retried', () => {
    expect(decideRetry({ kind: 'final' }, 0, 60_000, () => 0, now)).toEqual({
      retry: false,
      why: ''
    })
    for (const status of [400, 401, 403, 404, 501]) {
      expect(
        decideRetry({ kind: 'status', status, retryAfter: undefined }, 0, 60_000, () => 0, now)
          .retry
      ).toBe(false)
    }
  })

  it('no wait that would end past the deadline', () => {
    expect(saidByTheAction(decideRetry({ kind: 'transient' }, 0, 100, () => 0, now))).toEqual({
      retry: false,
      why: 'Gave up after 1 try: the overall time-out (pollingTimeoutSec) leaves no time for another.'
    })
  })
})

describe('every form of the token is masked', () => {
  it('the token, the Basic header, its base64 part and its URL-encoded form', () => {
    const base64 = Buffer.from('a+b/c=d+e:').toString('base64')
    expect(tokenForms('a+b/c=d+e')).toEqual([
      'a+b/c=d+e',
      `Basic ${base64}`,
      base64,
      'a%2Bb%2Fc%3Dd%2Be'
    ])
  })

  it('no duplicates when encoding changes nothing', () => {
    expect(tokenForms('squ_abc123')).toHaveLength(3)
  })
})

describe('a token too short to be a secret is not masked, and the log says so', () => {
  it('hides nothing for a token under 8 characters: "x" would hide every x of the log', () => {
    expect(tokenForms('x')).toEqual([])
    expect(tokenForms('1234567')).toEqual([])
    expect(tokenForms('12345678')).toContain('12345678')
  })

  it('warns with the length, never the token', () => {
    const warning = shortTokenWarning('x')
    expect(warning).toMatch(/^SONAR_TOKEN is 1 character long, too short to be a Sonar token/)
    expect(warning).not.toMatch(/\bx\b/)
    expect(shortTokenWarning('squ_0123456789abcdef0123456789abcdef01234567')).toBeUndefined()
  })
})
