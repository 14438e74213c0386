import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken,
  type SigningKey
} from './support/identity-provider.js'
import { CLIENT_ID, startTestService, type TestService } from './support/test-service.js'
import { advance, START } from './support/fake-date.js'
import { genreStatus, until } from './support/probes.js'

let first: SigningKey
let second: SigningKey
let provider: LocalIdentityProvider
let service: TestService

const statusWith = (signer: SigningKey): Promise<number> => genreStatus(service, provider, signer)

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(START)
  first = await createSigningKey('first')
  second = await createSigningKey('second')
  provider = await LocalIdentityProvider.start([first])
  service = await startTestService(
    provider,
    { VERIFY_CACHE: 'off' },
    { jwksCooldownMs: 30_000, jwksRefreshMs: 600_000, jwksTimeoutMs: 300 }
  )
})
afterEach(async () => {
  await service.close()
  await provider.stop()
  vi.useRealTimers()
})

describe('the key set is fetched once for concurrent requests', () => {
  it('twenty simultaneous first requests cause one fetch', async () => {
    const statuses = await Promise.all(Array.from({ length: 20 }, () => statusWith(first)))
    expect(statuses).toEqual(Array(20).fill(200))
    expect(provider.jwksRequests).toBe(1)
  })

  it('later requests use the cached keys', async () => {
    for (let i = 0; i < 5; i++) expect(await statusWith(first)).toBe(200)
    expect(provider.jwksRequests).toBe(1)
  })
})

describe('an unknown kid refetches at most once per cooldown', () => {
  it('picks up a rotated key after the cooldown, once for concurrent requests', async () => {
    expect(await statusWith(first)).toBe(200)
    provider.published = [first, second]
    advance(1_000)
    expect(await statusWith(second)).toBe(401)
    expect(provider.jwksRequests).toBe(1)
    advance(30_000)
    const statuses = await Promise.all(Array.from({ length: 10 }, () => statusWith(second)))
    expect(statuses).toEqual(Array(10).fill(200))
    expect(provider.jwksRequests).toBe(2)
  })

  it('a flood of unknown kids after the cooldown costs one fetch', async () => {
    const stranger = await createSigningKey('stranger')
    expect(await statusWith(first)).toBe(200)
    advance(31_000)
    for (let i = 0; i < 10; i++) expect(await statusWith(stranger)).toBe(401)
    expect(provider.jwksRequests).toBe(2)
  })
})

describe('key rotation: removed keys stop working after the refresh age', () => {
  it('refreshes in the background and then rejects the removed key', async () => {
    expect(await statusWith(first)).toBe(200)
    provider.published = [second]
    advance(600_000)
    // The old set serves this request while the refresh runs.
    expect(await statusWith(first)).toBe(200)
    await until(() => provider.jwksRequests === 2)
    let status = 0
    for (let i = 0; i < 50 && status !== 401; i++) status = await statusWith(first)
    expect(status).toBe(401)
    expect(await statusWith(second)).toBe(200)
  })
})

describe('identity-provider outage: 401, never 5xx, and cached keys keep working', () => {
  it('answers 401 while no keys were ever fetched, and recovers after the back-off', async () => {
    provider.mode = 'down'
    expect(await statusWith(first)).toBe(401)
    expect(await statusWith(first)).toBe(401)
    expect(provider.jwksRequests).toBe(1)
    provider.mode = 'up'
    advance(30_000)
    expect(await statusWith(first)).toBe(200)
    expect(provider.jwksRequests).toBe(2)
  })

  it.each(['down', 'garbage', 'slow'] as const)(
    'keeps serving known keys when the key set is %s',
    async (mode) => {
      expect(await statusWith(first)).toBe(200)
      provider.mode = mode
      advance(600_000)
      // The background refresh fails; known keys still verify.
      expect(await statusWith(first)).toBe(200)
      await until(() => provider.jwksRequests === 2)
      expect(await statusWith(first)).toBe(200)
      // A key that would need the set is refused, not an error.
      expect(await statusWith(second)).toBe(401)
    }
  )

  it('a slow key set times out into a 401 at the fetch time-out', async () => {
    provider.mode = 'slow'
    expect(await statusWith(first)).toBe(401)
    const failures = service.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === 'key set fetch failed')
    expect(failures).toEqual([
      expect.objectContaining({ url: provider.jwksUrl, reason: 'timed out after 300 ms' })
    ])
  })
})

describe('OIDC discovery finds the key set of a non-Google issuer', () => {
  it('reads jwks_uri from the issuer configuration once', async () => {
    const discovered = await startTestService(provider, { OIDC_JWKS_URL: '', VERIFY_CACHE: 'off' })
    try {
      const token = await mintIdToken(provider, CLIENT_ID, { key: first })
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${discovered.url}genre`, {
          headers: { Authorization: token }
        })
        expect(response.status).toBe(200)
      }
      expect(provider.discoveryRequests).toBe(1)
    } finally {
      await discovered.close()
    }
  })
})
