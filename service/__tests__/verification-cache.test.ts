import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { IdTokenVerifier } from '../src/auth/id-token.js'
import { cachingVerifier, VerificationCache } from '../src/auth/verification-cache.js'
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

describe('a connection remembers the last token it presented', () => {
  it('answers it again on that connection even once the entry has left the bounded map', async () => {
    const { cached, calls } = fixture(1)
    const connection = {}
    expect(await cached('a', connection)).toBe('sub-of-a')
    expect(await cached('b')).toBe('sub-of-b') // evicts a from the map
    expect(await cached('a', connection)).toBe('sub-of-a')
    expect(calls).toEqual(['a', 'b'])
    // Another connection has only the map, which no longer holds a.
    expect(await cached('a', {})).toBe('sub-of-a')
    expect(calls).toEqual(['a', 'b', 'a'])
  })

  it('another token on the same connection is looked up, and a bad one rejected', async () => {
    const { cached, calls } = fixture()
    const connection = {}
    await cached('a', connection)
    await expect(cached('bad-a', connection)).rejects.toThrow()
    expect(await cached('a', connection)).toBe('sub-of-a')
    expect(calls).toEqual(['a', 'bad-a'])
  })

  it('stops answering at exp on that connection too', async () => {
    const { cached, calls, advance, expiresAt, nowSec } = fixture(100, 60_000)
    const connection = {}
    expiresAt.set('t', nowSec() + 10)
    await cached('t', connection)
    advance(9_999)
    await cached('t', connection)
    advance(1)
    await cached('t', connection)
    expect(calls).toEqual(['t', 't'])
  })

  it('never answers a token it was not given, or after its validity (property)', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('store' as const),
        token: fc.constantFrom('a', 'b', 'c'),
        connection: fc.constantFrom(0, 1, undefined)
      }),
      fc.record({
        kind: fc.constant('lookup' as const),
        token: fc.constantFrom('a', 'b', 'c', 'x'),
        connection: fc.constantFrom(0, 1, undefined)
      }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 90_000 }) })
    )
    fc.assert(
      // A token's exp is part of it: fixed per token, seconds after the start.
      fc.property(
        fc.array(op, { maxLength: 30 }),
        fc.array(fc.integer({ min: -5, max: 200 }), { minLength: 3, maxLength: 3 }),
        (ops, expOffsets) => {
          let now = 1_700_000_000_000
          const startSec = now / 1000
          const expOf = (token: string) => startSec + (expOffsets['abc'.indexOf(token)] ?? 0)
          const cache = new VerificationCache({ maxEntries: 2, maxAgeMs: 60_000, now: () => now })
          const connections = [{}, {}]
          // The model: each token's validity as of its latest store.
          const validUntil = new Map<string, number>()
          for (const step of ops) {
            if (step.kind === 'wait') {
              now += step.ms
            } else if (step.kind === 'store') {
              const exp = expOf(step.token)
              const connection =
                step.connection === undefined ? undefined : connections[step.connection]
              cache.store(step.token, `sub-of-${step.token}`, exp, connection)
              const until = Math.min(exp * 1000, now + 60_000)
              if (until > now) validUntil.set(step.token, until)
            } else {
              const connection =
                step.connection === undefined ? undefined : connections[step.connection]
              const hit = cache.lookup(step.token, connection)
              if (hit !== undefined) {
                expect(hit).toBe(`sub-of-${step.token}`)
                expect(now).toBeLessThan(validUntil.get(step.token) ?? -Infinity)
              }
            }
          }
        }
      )
    )
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
