import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { discoverJwksUrl } from '../src/auth/discovery.js'
import { createIdTokenVerifier } from '../src/auth/id-token.js'
import { createKeySet, logFetches, type KeySetOptions } from '../src/auth/key-set.js'
import { httpGet, MAX_DOCUMENT_BYTES, type HttpGet } from '../src/auth/remote-json.js'
import { createLogger } from '../src/log/logger.js'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken,
  type SigningKey
} from './support/identity-provider.js'
import { CLIENT_ID, startTestService, type TestService } from './support/test-service.js'
import { advance, START } from './support/fake-date.js'
import { genreStatus, until } from './support/probes.js'

const TUNING = { jwksCooldownMs: 30_000, jwksRefreshMs: 600_000, jwksTimeoutMs: 2_000 }

let first: SigningKey
let second: SigningKey
let provider: LocalIdentityProvider
const services: TestService[] = []

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(START)
  first = await createSigningKey('first')
  second = await createSigningKey('second')
  provider = await LocalIdentityProvider.start([first])
})
afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
  await provider.stop()
  vi.useRealTimers()
})

async function serviceWith(env: Record<string, string> = {}): Promise<TestService> {
  const service = await startTestService(provider, { VERIFY_CACHE: 'off', ...env }, TUNING)
  services.push(service)
  return service
}

const statusWith = (service: TestService, signer: SigningKey): Promise<number> =>
  genreStatus(service, provider, signer)

/** A key set straight from createKeySet, its log lines kept, and a verifier over it. */
function keySetWith(options: Partial<KeySetOptions> & Pick<KeySetOptions, 'resolveUrl'>) {
  const logLines: string[] = []
  const keySet = createKeySet({
    timeoutMs: 2_000,
    cooldownMs: 30_000,
    refreshMs: 600_000,
    onFetch: logFetches(createLogger('debug', (line) => logLines.push(line))),
    ...options
  })
  const verify = createIdTokenVerifier({
    clientId: CLIENT_ID,
    issuer: provider.issuer,
    getKey: keySet.getKey,
    clockToleranceSec: 30
  })
  const failures = () =>
    logLines
      .map((line) => JSON.parse(line) as Record<string, string>)
      .filter((entry) => entry.msg === 'key set fetch failed')
  return { verify, failures, logLines }
}

const WRONG_KEY_SETS = [
  '{"keys":"nope"}',
  '{}',
  '{"keys":[1,"x",null]}',
  '{"keys":[[]]}',
  '[]',
  'null',
  '"keys"'
]

describe('a key set that is JSON but not a key set is a failed fetch', () => {
  it.each(WRONG_KEY_SETS)('%s: 21 requests within the cooldown cost one fetch', async (body) => {
    provider.mode = 'wrong-shape'
    provider.wrongShapeBody = body
    const service = await serviceWith()
    for (let i = 0; i < 21; i++) expect(await statusWith(service, first)).toBe(401)
    expect(provider.jwksRequests).toBe(1)
    provider.mode = 'up'
    advance(30_000)
    expect(await statusWith(service, first)).toBe(200)
    expect(provider.jwksRequests).toBe(2)
  })

  it('keeps the cached keys when a refresh brings a wrong shape; unknown keys get 401', async () => {
    const service = await serviceWith()
    expect(await statusWith(service, first)).toBe(200)
    provider.mode = 'wrong-shape'
    advance(600_000)
    expect(await statusWith(service, first)).toBe(200)
    await until(() => provider.jwksRequests === 2)
    for (let i = 0; i < 10; i++) expect(await statusWith(service, first)).toBe(200)
    for (let i = 0; i < 10; i++) expect(await statusWith(service, second)).toBe(401)
    expect(provider.jwksRequests).toBe(2)
  })
})

describe('a discovery document that is not what it must be is a failed fetch', () => {
  const wrongDocuments: [string, () => Record<string, unknown>][] = [
    ['no jwks_uri', () => ({ issuer: provider.issuer })],
    ['jwks_uri not a string', () => ({ issuer: provider.issuer, jwks_uri: 7 })],
    ['a file: jwks_uri', () => ({ issuer: provider.issuer, jwks_uri: 'file:///etc/passwd' })],
    ['an ftp: jwks_uri', () => ({ issuer: provider.issuer, jwks_uri: 'ftp://127.0.0.1/jwks' })],
    ['another issuer', () => ({ issuer: 'https://evil.example.com', jwks_uri: provider.jwksUrl })],
    [
      'the issuer with a slash',
      () => ({ issuer: `${provider.issuer}/`, jwks_uri: provider.jwksUrl })
    ],
    ['no issuer', () => ({ jwks_uri: provider.jwksUrl })]
  ]

  it.each(wrongDocuments)('%s: 21 requests cost one discovery fetch', async (_name, document) => {
    provider.discoveryDocument = document()
    const service = await serviceWith({ OIDC_JWKS_URL: '' })
    for (let i = 0; i < 21; i++) expect(await statusWith(service, first)).toBe(401)
    expect(provider.discoveryRequests).toBe(1)
    expect(provider.jwksRequests).toBe(0)
    provider.discoveryDocument = undefined
    advance(30_000)
    expect(await statusWith(service, first)).toBe(200)
    expect(provider.discoveryRequests).toBe(2)
  })

  it('an issuer mismatch is logged with both values (OIDC Discovery 1.0, 4.3)', async () => {
    provider.discoveryDocument = { issuer: 'https://evil.example.com', jwks_uri: provider.jwksUrl }
    const { verify, failures } = keySetWith({
      resolveUrl: (fetchDocument) => discoverJwksUrl(provider.issuer, fetchDocument)
    })
    await expect(verify(await mintIdToken(provider, CLIENT_ID, { key: first }))).rejects.toThrow()
    expect(failures()).toEqual([
      expect.objectContaining({
        level: 'warn',
        url: `${provider.issuer}/.well-known/openid-configuration`,
        reason: `issuer mismatch: discovery says "https://evil.example.com", configured "${provider.issuer}"`
      })
    ])
  })
})

describe('bodies are read up to 1 MiB, then the connection is dropped', () => {
  it('an endless key set fails fast, after at most about 1 MiB read', async () => {
    provider.mode = 'endless'
    let bytesRead = 0
    // The real GET; the body is counted as the key set reads it.
    const countingGet: HttpGet = async (url, signal) => {
      const reply = await httpGet(url, signal)
      async function* counted(): AsyncIterable<Uint8Array> {
        for await (const chunk of reply.body) {
          bytesRead += chunk.byteLength
          yield chunk
        }
      }
      return { ...reply, body: counted() }
    }
    const { verify, failures } = keySetWith({
      resolveUrl: async () => new URL(provider.jwksUrl),
      timeoutMs: 10_000,
      get: countingGet
    })
    await expect(verify(await mintIdToken(provider, CLIENT_ID, { key: first }))).rejects.toThrow()
    // Ended by the body limit, not by the 10 s time-out.
    expect(bytesRead).toBeGreaterThan(MAX_DOCUMENT_BYTES)
    expect(bytesRead).toBeLessThan(MAX_DOCUMENT_BYTES + 256 * 1024)
    expect(failures()).toEqual([
      expect.objectContaining({ url: provider.jwksUrl, reason: 'body larger than 1048576 bytes' })
    ])
    // The provider sees its reply cut off: the connection is dropped, not left to drain.
    await until(() => provider.endlessRepliesClosed === 1)
  })

  it('the service answers 401 at the body limit, not at its 5 s fetch time-out, memory bounded', async () => {
    provider.mode = 'endless'
    const service = await startTestService(
      provider,
      { VERIFY_CACHE: 'off' },
      { jwksTimeoutMs: 5_000 }
    )
    services.push(service)
    const rssBefore = process.memoryUsage().rss
    expect(await statusWith(service, first)).toBe(401)
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024)
    const failures = service.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === 'key set fetch failed')
    expect(failures).toEqual([
      expect.objectContaining({ url: provider.jwksUrl, reason: 'body larger than 1048576 bytes' })
    ])
    await until(() => provider.endlessRepliesClosed === 1)
  })

  it('a declared Content-Length over 1 MiB fails without reading the body', async () => {
    const big = JSON.stringify({ keys: [first.publicJwk], padding: 'x'.repeat(MAX_DOCUMENT_BYTES) })
    provider.mode = 'wrong-shape'
    provider.wrongShapeBody = big
    const { verify, failures } = keySetWith({ resolveUrl: async () => new URL(provider.jwksUrl) })
    await expect(verify(await mintIdToken(provider, CLIENT_ID, { key: first }))).rejects.toThrow()
    expect(failures()[0]?.reason).toBe('body larger than 1048576 bytes')
  })
})

describe('a failed fetch logs the URL and the cause, never a token', () => {
  const causes: [string, () => void, string | RegExp][] = [
    ['an HTTP status', () => (provider.mode = 'down'), 'HTTP 503'],
    ['a time-out', () => (provider.mode = 'slow'), 'timed out after 300 ms'],
    ['a body that is not JSON', () => (provider.mode = 'garbage'), 'not JSON'],
    [
      'a wrong shape',
      () => {
        provider.mode = 'wrong-shape'
        provider.wrongShapeBody = '{"keys":"nope"}'
      },
      'wrong shape: "keys" is not an array'
    ]
  ]

  it.each(causes)('%s', async (_name, arrange, reason) => {
    arrange()
    const { verify, failures, logLines } = keySetWith({
      resolveUrl: async () => new URL(provider.jwksUrl),
      timeoutMs: 300
    })
    const token = await mintIdToken(provider, CLIENT_ID, { key: first })
    await expect(verify(token)).rejects.toThrow()
    expect(failures()).toEqual([
      expect.objectContaining({ level: 'warn', url: provider.jwksUrl, reason })
    ])
    for (const part of token.split('.')) expect(logLines.join('')).not.toContain(part)
  })

  it('a refused connection', async () => {
    const url = provider.jwksUrl
    await provider.stop()
    provider = await LocalIdentityProvider.start([first])
    const { verify, failures } = keySetWith({ resolveUrl: async () => new URL(url) })
    await expect(verify(await mintIdToken(provider, CLIENT_ID, { key: first }))).rejects.toThrow()
    expect(failures()).toEqual([
      expect.objectContaining({ url, reason: 'network error (ECONNREFUSED)' })
    ])
  })

  it('a successful fetch is logged at debug with its URL', async () => {
    const { verify, logLines } = keySetWith({ resolveUrl: async () => new URL(provider.jwksUrl) })
    await verify(await mintIdToken(provider, CLIENT_ID, { key: first }))
    expect(logLines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ level: 'debug', msg: 'key set fetched', url: provider.jwksUrl })
    ])
  })
})
