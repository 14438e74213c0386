import { createPublicKey } from 'node:crypto'
import { createLocalJWKSet, exportSPKI, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIdTokenVerifier } from '../src/auth/id-token.js'
import { InvalidIdTokenError } from '../src/auth/rejection.js'
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

/** Each forgery or breakage, and the reason its request's log line gives. */
const rejected: [string, () => Promise<string> | string, string][] = [
  ['alg none', unsigned, 'algorithm not allowed'],
  ['HS256 keyed with the public key', hmacWithPublicKey, 'algorithm not allowed'],
  ['a wrong aud', () => mint({ aud: 'another-client' }), 'wrong audience'],
  ['no aud', () => mint({ aud: undefined, azp: undefined }), 'no "aud" claim'],
  [
    'aud array with us but azp someone else',
    () => mint({ aud: [CLIENT_ID, 'x'], azp: 'x' }),
    'wrong authorised party'
  ],
  ['a wrong iss', () => mint({ iss: 'https://evil.example.com' }), 'wrong issuer'],
  ['no iss', () => mint({ iss: undefined }), 'no "iss" claim'],
  [
    'expired beyond the 30 s leeway',
    () => mint({ iat: nowSec() - 3600, exp: nowSec() - 31 }),
    'expired'
  ],
  ['nbf beyond the leeway in the future', () => mint({ nbf: nowSec() + 60 }), 'not yet valid'],
  [
    'iat beyond the 30 s leeway in the future',
    () => mint({ iat: nowSec() + 30 + 60 }),
    'issued in the future'
  ],
  [
    'iat a day in the future',
    () => mint({ iat: nowSec() + 86_400, exp: nowSec() + 90_000 }),
    'issued in the future'
  ],
  ['no exp', () => mint({ exp: undefined }), 'no "exp" claim'],
  ['no iat', () => mint({ iat: undefined }), 'no "iat" claim'],
  ['no sub', () => mint({ sub: undefined }), 'no "sub" claim'],
  ['an empty sub', () => mint({ sub: '' }), 'no "sub" claim'],
  ['exp not a number', () => mint({ exp: 'tomorrow' }), '"exp" not a number'],
  ['an unknown kid', () => mint({}, unpublished), 'unknown key'],
  ['a published kid but another private key', () => mint({}, impostor), 'bad signature'],
  ['a tampered payload', tampered, 'bad signature'],
  ['a truncated token', async () => (await mint()).slice(0, -12), 'bad signature'],
  [
    'a token with its signature removed',
    async () => (await mint()).replace(/\.[^.]+$/, '.'),
    'bad signature'
  ],
  ['garbage with three parts', () => 'abc.def.ghi', 'not a JWT'],
  ['garbage', () => '%%%not a jwt at all%%%', 'not a JWT'],
  ['five parts, as an encrypted JWT has', () => 'a.b.c.d.e', 'not a JWT'],
  ['the token after "Bearer "', async () => `Bearer ${await mint()}`, 'a "Bearer " prefix'],
  ['the token after "bearer "', async () => `bearer ${await mint()}`, 'a "Bearer " prefix'],
  ['"Bearer" alone', () => 'Bearer', 'a "Bearer " prefix'],
  ['Basic credentials', () => 'Basic dXNlcjpwYXNz', 'an auth scheme prefix']
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

describe('the request log line of each rejected token says why, at info', () => {
  it.each(rejected)('%s', async (name, make, reason) => {
    const token = await make()
    const id = `case-${rejected.findIndex(([other]) => other === name)}`
    const response = await fetch(`${service.url}genre`, {
      headers: { Authorization: token, 'X-Request-Id': id }
    })
    expect(await response.text()).toBe(UNAUTHORISED_BODY)
    const lines = service.logLines.filter((line) => line.includes(`"id":"${id}"`))
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        msg: 'request',
        id,
        method: 'GET',
        path: '/genre',
        status: 401,
        durationMs: expect.any(Number),
        reason
      }
    ])
    // Every part of the credential; the scheme's name is no secret (and the reason names it).
    const parts = token.split(/[ .]/).filter((part) => part.length > 3 && !/^Bearer$/i.test(part))
    for (const part of parts) expect(lines[0]).not.toContain(part)
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

  it('a rejected token is logged once, on its request line, even at debug', async () => {
    const token = await mint({ aud: 'another-client' })
    const before = service.logLines.length
    await (await fetch(`${service.url}genre`, { headers: { Authorization: token } })).text()
    const lines = service.logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', reason: 'wrong audience' })])
  })

  it('rejection errors carry a code and its reason only', async () => {
    const verify = createIdTokenVerifier({
      clientId: CLIENT_ID,
      issuer: provider.issuer,
      getKey: createLocalJWKSet({ keys: [key.publicJwk] }),
      clockToleranceSec: 0
    })
    const token = await mint({ aud: 'someone-else' })
    const error = await verify(token).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidIdTokenError)
    expect(error).toMatchObject({
      code: 'ID_TOKEN_INVALID',
      rejection: 'WRONG_AUDIENCE',
      reason: 'wrong audience'
    })
    for (const part of token.split('.')) expect(String(error)).not.toContain(part)
  })
})

describe('iat: not in the future beyond the clock tolerance', () => {
  const at = Date.parse('2026-01-01T00:00:00Z')
  // Built per call: the key and the provider exist only once beforeAll has run.
  const verify = (token: string) => createIdTokenVerifierAt(at, 30)(token)
  const mintAt = (iat: number) =>
    mintIdToken(provider, CLIENT_ID, { key, nowSec: at / 1000, claims: { iat } })

  it('refuses iat = now + tolerance + 60 s as issued in the future', async () => {
    const error = await verify(await mintAt(at / 1000 + 30 + 60)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidIdTokenError)
    expect(error).toMatchObject({ rejection: 'ISSUED_IN_FUTURE', reason: 'issued in the future' })
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
