import { describe, expect, it } from 'vitest'
import { isAllowedRedirect, isSameOrigin, serverBase } from '../../src/sonar/origin.js'
import { parseRetryAfter, retryDelayMs } from '../../src/sonar/retry-policy.js'
import { tokenForms } from '../../src/secrets.js'

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

describe('retries back off exponentially with jitter, or as the server asks', () => {
  it('doubles the ceiling each time, up to 8 s, and jitters within its upper half', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => retryDelayMs(attempt, undefined, () => 0, 0))).toEqual(
      [125, 250, 500, 1000, 4000]
    )
    expect([0, 1, 2, 3, 10].map((attempt) => retryDelayMs(attempt, undefined, () => 1, 0))).toEqual(
      [250, 500, 1000, 2000, 8000]
    )
  })

  it.each([
    ['3', 3000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2026 07:28:05 GMT', 5000],
    ['Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['soon', undefined],
    ['', undefined]
  ])('Retry-After %j → %s ms', (header, ms) => {
    expect(parseRetryAfter(header, Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(ms)
  })
})

describe('every form of the token is masked', () => {
  it('the token, the Basic header, its base64 part and its URL-encoded form', () => {
    const base64 = Buffer.from('a+b/c=:').toString('base64')
    expect(tokenForms('a+b/c=')).toEqual(['a+b/c=', `Basic ${base64}`, base64, 'a%2Bb%2Fc%3D'])
  })

  it('no duplicates when encoding changes nothing', () => {
    expect(tokenForms('squ_abc')).toHaveLength(3)
  })
})
