import { createPublicKey } from 'node:crypto'
import { createLocalJWKSet, exportSPKI, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIdTokenVerifier, InvalidIdTokenError } from '../src/auth/id-token.js'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken,
  type SigningKey
} from './support/identity-provider.js'
import {
  CLIENT_ID,
  corsHeadersOf,
  startTestService,
  UNAUTHORISED_BODY,
  type TestService
} from './support/test-service.js'

const base64url = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

let key: SigningKey
let ecKey: SigningKey
let unpublished: SigningKey
let impostor: SigningKey
let provider: LocalIdentityProvider
let service: TestService
const nowSec = (): number => Math.floor(Date.now() / 1000)

beforeAll(async () => {
  key = await createSigningKey('rsa-1')
  ecKey = await createSigningKey('ec-1', 'ES256')
  unpublished = await createSigningKey('not-published')
  // Same kid as the published key, different private key.
  impostor = { ...(await createSigningKey('rsa-1')), kid: 'rsa-1' }
  provider = await LocalIdentityProvider.start([key, ecKey])
  service = await startTestService(provider, { VERIFY_CACHE: 'off' })
})
afterAll(async () => {
  await service.close()
  await provider.stop()
})

const mint = (claims: Record<string, unknown> = {}, signer?: SigningKey) =>
  mintIdToken(provider, CLIENT_ID, { key: signer ?? key, claims })

async function hmacWithPublicKey(): Promise<string> {
  const spki = await exportSPKI(createPublicKey({ key: key.publicJwk, format: 'jwk' }))
  return new SignJWT({ iss: provider.issuer, aud: CLIENT_ID, sub: 'attacker' })
    .setProtectedHeader({ alg: 'HS256', kid: key.kid })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(spki))
}

function unsigned(): string {
  const payload = {
    iss: provider.issuer,
    aud: CLIENT_ID,
    sub: 'x',
    iat: nowSec(),
    exp: nowSec() + 60
  }
  return `${base64url({ alg: 'none', kid: key.kid })}.${base64url(payload)}.`
}

async function tampered(): Promise<string> {
  const [header, payload, signature] = (await mint()).split('.') as [string, string, string]
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
  return `${header}.${base64url({ ...claims, sub: 'someone-else' })}.${signature}`
}

const rejected: [string, () => Promise<string> | string][] = [
  ['alg none', unsigned],
  ['HS256 keyed with the public key', hmacWithPublicKey],
  ['a wrong aud', () => mint({ aud: 'another-client' })],
  ['no aud', () => mint({ aud: undefined, azp: undefined })],
  ['aud array with us but azp someone else', () => mint({ aud: [CLIENT_ID, 'x'], azp: 'x' })],
  ['a wrong iss', () => mint({ iss: 'https://evil.example.com' })],
  ['no iss', () => mint({ iss: undefined })],
  ['expired beyond the 30 s leeway', () => mint({ iat: nowSec() - 3600, exp: nowSec() - 31 })],
  ['nbf beyond the leeway in the future', () => mint({ nbf: nowSec() + 60 })],
  ['iat beyond the 30 s leeway in the future', () => mint({ iat: nowSec() + 30 + 60 })],
  ['iat a day in the future', () => mint({ iat: nowSec() + 86_400, exp: nowSec() + 90_000 })],
  ['no exp', () => mint({ exp: undefined })],
  ['no iat', () => mint({ iat: undefined })],
  ['no sub', () => mint({ sub: undefined })],
  ['an unknown kid', () => mint({}, unpublished)],
  ['a published kid but another private key', () => mint({}, impostor)],
  ['a tampered payload', tampered],
  ['a truncated token', async () => (await mint()).slice(0, -12)],
  ['a token with its signature removed', async () => (await mint()).replace(/\.[^.]+$/, '.')],
  ['garbage with three parts', () => 'abc.def.ghi'],
  ['garbage', () => '%%%not a jwt at all%%%'],
  ['the token after "Bearer "', async () => `Bearer ${await mint()}`]
]

const accepted: [string, () => Promise<string>][] = [
  ['a fresh RS256 token', () => mint()],
  ['an ES256 token from the same key set', () => mint({}, ecKey)],
  ['aud as an array containing the client id, azp us', () => mint({ aud: ['x', CLIENT_ID] })],
  [
    'aud as an array containing the client id, no azp',
    () => mint({ aud: [CLIENT_ID, 'x'], azp: undefined })
  ],
  ['aud ours with a different azp (single audience)', () => mint({ azp: 'android-client' })],
  ['expired within the leeway', () => mint({ iat: nowSec() - 3600, exp: nowSec() - 10 })],
  ['nbf within the leeway', () => mint({ nbf: nowSec() + 10 })],
  ['iat within the leeway in the future', () => mint({ iat: nowSec() + 30 - 5 })]
]

describe('rule 5: forged and broken tokens get the 401 and no CORS', () => {
  it.each(rejected)('rejects %s', async (_name, make) => {
    const token = await make()
    const response = await fetch(`${service.url}genre`, { headers: { Authorization: token } })
    expect(response.status).toBe(401)
    expect(await response.text()).toBe(UNAUTHORISED_BODY)
    expect(corsHeadersOf(response)['access-control-allow-origin']).toBeNull()
  })
})

describe('rule 6: valid tokens reach the handler', () => {
  it.each(accepted)('accepts %s', async (_name, make) => {
    const response = await fetch(`${service.url}genre`, {
      headers: { Authorization: await make() }
    })
    expect(response.status).toBe(200)
  })
})

describe('the token never appears in a log line or error', () => {
  it('keeps every token and its signature out of the log', async () => {
    const tokens = [await mint(), await mint({ aud: 'x' }), await hmacWithPublicKey()]
    for (const token of tokens) {
      await (await fetch(`${service.url}genre`, { headers: { Authorization: token } })).text()
    }
    const log = service.logLines.join('')
    for (const token of tokens) {
      for (const part of token.split('.')) expect(log).not.toContain(part)
    }
  })

  it("a rejected token is logged at debug with jose's error code only", async () => {
    const token = await mint({ aud: 'another-client' })
    const before = service.logLines.length
    await (await fetch(`${service.url}genre`, { headers: { Authorization: token } })).text()
    const rejections = service.logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'token rejected')
    expect(rejections).toEqual([
      expect.objectContaining({
        level: 'debug',
        reason: expect.stringContaining('ERR_JWT_CLAIM_VALIDATION_FAILED')
      })
    ])
  })

  it('rejection errors carry a reason code only', async () => {
    const verify = createIdTokenVerifier({
      clientId: CLIENT_ID,
      issuer: provider.issuer,
      getKey: createLocalJWKSet({ keys: [key.publicJwk] }),
      clockToleranceSec: 0
    })
    const token = await mint({ aud: 'someone-else' })
    const error = await verify(token).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidIdTokenError)
    expect((error as InvalidIdTokenError).reason).toBe('ERR_JWT_CLAIM_VALIDATION_FAILED')
    for (const part of token.split('.')) expect(String(error)).not.toContain(part)
  })
})

describe('iat: not in the future beyond the clock tolerance', () => {
  const at = Date.parse('2026-01-01T00:00:00Z')
  // Built per call: the key and the provider exist only once beforeAll has run.
  const verify = (token: string) => createIdTokenVerifierAt(at, 30)(token)
  const mintAt = (iat: number) =>
    mintIdToken(provider, CLIENT_ID, { key, nowSec: at / 1000, claims: { iat } })

  it("refuses iat = now + tolerance + 60 s with jose's claim code", async () => {
    const error = await verify(await mintAt(at / 1000 + 30 + 60)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidIdTokenError)
    expect((error as InvalidIdTokenError).reason).toBe('ERR_JWT_CLAIM_VALIDATION_FAILED')
  })

  it('refuses iat one second past the tolerance', async () => {
    await expect(verify(await mintAt(at / 1000 + 31))).rejects.toBeInstanceOf(InvalidIdTokenError)
  })

  it.each([30 - 5, 30, 0, -600])('accepts iat = now + %i s', async (offset) => {
    await expect(verify(await mintAt(at / 1000 + offset))).resolves.toMatchObject({
      subject: '1234567890'
    })
  })

  it('with no tolerance, refuses iat one second ahead', async () => {
    const strict = createIdTokenVerifierAt(at, 0)
    await expect(strict(await mintAt(at / 1000 + 1))).rejects.toBeInstanceOf(InvalidIdTokenError)
    await expect(strict(await mintAt(at / 1000))).resolves.toBeDefined()
  })
})

function createIdTokenVerifierAt(at: number, clockToleranceSec: number) {
  return createIdTokenVerifier({
    clientId: CLIENT_ID,
    issuer: provider.issuer,
    getKey: createLocalJWKSet({ keys: [key.publicJwk] }),
    clockToleranceSec,
    now: () => at
  })
}

describe('iss: Google accepts both of its forms and nothing else', () => {
  const google = 'https://accounts.google.com'
  const verifyAt = (issuer: string) =>
    createIdTokenVerifier({
      clientId: CLIENT_ID,
      issuer,
      getKey: createLocalJWKSet({ keys: [key.publicJwk] }),
      clockToleranceSec: 30
    })

  it.each(['accounts.google.com', 'https://accounts.google.com'])(
    'accepts iss %s for the Google issuer',
    async (iss) => {
      const token = await mintIdToken({ issuer: iss }, CLIENT_ID, { key })
      await expect(verifyAt(google)(token)).resolves.toMatchObject({ subject: '1234567890' })
    }
  )

  it.each([
    'googleapis.com',
    'https://googleapis.com',
    'https://accounts.google.com/',
    'http://accounts.google.com'
  ])('rejects iss %s for the Google issuer', async (iss) => {
    const token = await mintIdToken({ issuer: iss }, CLIENT_ID, { key })
    await expect(verifyAt(google)(token)).rejects.toBeInstanceOf(InvalidIdTokenError)
  })

  it('accepts only the exact issuer for any other provider', async () => {
    const token = await mintIdToken({ issuer: 'accounts.google.com' }, CLIENT_ID, { key })
    await expect(verifyAt('https://login.example.com')(token)).rejects.toBeInstanceOf(
      InvalidIdTokenError
    )
  })
})
