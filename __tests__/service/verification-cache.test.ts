import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { IdTokenVerifier } from '../../src/service/id-token.js'
import { cachingVerifier, VerificationCache } from '../../src/service/verification-cache.js'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken
} from './support/identity-provider.js'
import { CLIENT_ID, startTestService } from './support/test-service.js'

function fixture(maxEntries = 100, maxAgeMs = 60_000) {
  let now = 1_000_000_000_000
  const calls: string[] = []
  const expiresAt = new Map<string, number>()
  const verify: IdTokenVerifier = async (token) => {
    calls.push(token)
    if (token.startsWith('bad')) throw new Error('rejected')
    return { subject: `sub-of-${token}`, expiresAt: expiresAt.get(token) ?? now / 1000 + 3600 }
  }
  const cache = new VerificationCache({ maxEntries, maxAgeMs, now: () => now })
  return {
    cache,
    calls,
    expiresAt,
    cached: cachingVerifier(verify, cache),
    advance: (ms: number) => (now += ms),
    nowSec: () => now / 1000
  }
}

describe('the same token pays for one signature check', () => {
  it('verifies once and answers the subject from the cache afterwards', async () => {
    const { cached, calls } = fixture()
    expect(await cached('token-a')).toBe('sub-of-token-a')
    expect(await cached('token-a')).toBe('sub-of-token-a')
    expect(calls).toEqual(['token-a'])
  })

  it('does not cache failures', async () => {
    const { cached, calls, cache } = fixture()
    await expect(cached('bad-1')).rejects.toThrow()
    await expect(cached('bad-1')).rejects.toThrow()
    expect(calls).toEqual(['bad-1', 'bad-1'])
    expect(cache.size).toBe(0)
  })
})

describe('an entry is valid until the earlier of exp and the maximum age', () => {
  it('re-verifies once the maximum age has passed', async () => {
    const { cached, calls, advance } = fixture(100, 60_000)
    await cached('t')
    advance(59_999)
    await cached('t')
    advance(1)
    await cached('t')
    expect(calls).toEqual(['t', 't'])
  })

  it('re-verifies at exp, without leeway, even inside the maximum age', async () => {
    const { cached, calls, advance, expiresAt, nowSec } = fixture(100, 60_000)
    expiresAt.set('t', nowSec() + 10)
    await cached('t')
    advance(9_999)
    await cached('t')
    advance(1)
    await cached('t')
    expect(calls).toEqual(['t', 't'])
  })

  it('never answers a token whose exp has passed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -120, max: 120 }),
        fc.integer({ min: 0, max: 200_000 }),
        (expOffsetSec, laterMs) => {
          let now = 1_700_000_000_000
          const cache = new VerificationCache({ maxEntries: 10, maxAgeMs: 60_000, now: () => now })
          const exp = now / 1000 + expOffsetSec
          cache.store('t', 's', exp)
          now += laterMs
          const hit = cache.lookup('t')
          expect(hit === undefined || now < exp * 1000).toBe(true)
        }
      )
    )
  })
})

describe('the cache is bounded and evicts the least recently used entry', () => {
  it('keeps at most maxEntries', async () => {
    const { cached, cache, calls } = fixture(2)
    await cached('a')
    await cached('b')
    await cached('a') // a is now the most recently used
    await cached('c') // evicts b
    expect(cache.size).toBe(2)
    await cached('a')
    await cached('b')
    expect(calls).toEqual(['a', 'b', 'c', 'b'])
  })
})

describe('through the service, a cached token stops working at exp', () => {
  it('answers 401 once exp has passed, with no leeway', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const key = await createSigningKey('k')
    const provider = await LocalIdentityProvider.start([key])
    const service = await startTestService(provider, { CLOCK_TOLERANCE_SEC: '0' })
    try {
      const nowSec = Math.floor(Date.now() / 1000)
      const token = await mintIdToken(provider, CLIENT_ID, {
        key,
        claims: { iat: nowSec, exp: nowSec + 20 }
      })
      const status = async () =>
        (await fetch(`${service.url}genre`, { headers: { Authorization: token } })).status
      expect(await status()).toBe(200)
      expect(await status()).toBe(200)
      vi.setSystemTime((nowSec + 20) * 1000)
      expect(await status()).toBe(401)
    } finally {
      vi.useRealTimers()
      await service.close()
      await provider.stop()
    }
  })
})
