import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload
} from 'jose'
import { closeNow, listenOnLoopback } from './loopback.js'

/** A key pair whose public half the provider publishes in its key set. */
export interface SigningKey {
  kid: string
  alg: string
  privateKey: CryptoKey
  publicJwk: JWK
}

/**
 * Generates a key pair in memory; nothing is written to disk.
 *
 * @example
 *   const key = await createSigningKey('dev-1') // RS256
 */
export async function createSigningKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  return { kid, alg, privateKey, publicJwk }
}

/** OIDC Discovery 1.0 section 4: the configuration document is at this path below the issuer. */
export const DISCOVERY_PATH = '/.well-known/openid-configuration'
export const JWKS_PATH = '/jwks'

/**
 * The provider's configuration document (OIDC Discovery 1.0 section 3). It has no
 * authorization endpoint: tokens are minted directly, there is no sign-in.
 */
export function discoveryDocument(issuer: string): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: issuer + JWKS_PATH,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256']
  }
}

/** RFC 7517 section 5: the public keys, and only those. */
export function keySetDocument(keys: readonly SigningKey[]): { keys: JWK[] } {
  return { keys: keys.map((key) => key.publicJwk) }
}

export interface MintOptions {
  key: SigningKey
  claims?: JWTPayload
  /** Replaces the protected header entirely (e.g. to drop `kid`). */
  header?: Record<string, unknown>
  nowSec?: number
}

/**
 * Signs an ID token shaped like Google's: iss, aud, azp, sub, email, iat, and exp one hour
 * later. `claims` override or (set to undefined) remove any of them.
 *
 * @example
 *   const token = await mintIdToken(provider, 'my-client', { key, claims: { sub: 'dev-user' } })
 */
export async function mintIdToken(
  provider: { issuer: string },
  clientId: string,
  { key, claims = {}, header, nowSec = Math.floor(Date.now() / 1000) }: MintOptions
): Promise<string> {
  const payload: JWTPayload = {
    iss: provider.issuer,
    aud: clientId,
    azp: clientId,
    sub: '1234567890',
    email: 'reader@example.com',
    iat: nowSec,
    exp: nowSec + 3600,
    ...claims
  }
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) delete payload[name]
  }
  return new SignJWT(payload)
    .setProtectedHeader((header ?? { alg: key.alg, kid: key.kid, typ: 'JWT' }) as { alg: string })
    .sign(key.privateKey)
}

/** Sends `document` as JSON; 404 when there is none at that path, 405 for methods but GET/HEAD. */
export function sendProviderDocument(
  req: IncomingMessage,
  res: ServerResponse,
  document: unknown
): void {
  if (document === undefined) {
    res.statusCode = 404
    res.end()
    return
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.statusCode = 405
    res.setHeader('Allow', 'GET, HEAD')
    res.end()
    return
  }
  res.setHeader('Content-Type', 'application/json')
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(document))
}

/** The lifetime of a dev token, as Google's ID tokens have. */
export const DEV_TOKEN_LIFETIME_SEC = 3600

/** The identity dev tokens carry; it shows as `"sub":"dev-user"` in the service's log. */
export const DEV_SUBJECT = 'dev-user'

export interface MintedToken {
  token: string
  expiresAt: Date
}

/**
 * A local OpenID provider for dev mode: on 127.0.0.1 it serves its discovery document and key
 * set (one RS256 key generated at start, in memory), and it mints ID tokens for a client id.
 * The issuer is `http://127.0.0.1:<port>`, so the service finds the key set by discovery, as
 * it does for any identity provider other than Google.
 */
export class DevIdentityProvider {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly key: SigningKey
  ) {}

  /** Starts on `port` (0: a free one); `variable` is the setting that chose it. */
  static async start(port: number, variable: string): Promise<DevIdentityProvider> {
    const key = await createSigningKey(`dev-${randomUUID().slice(0, 8)}`)
    const server = createServer()
    const issuer = await listenOnLoopback(server, port, variable)
    const documents = new Map<string, unknown>([
      [DISCOVERY_PATH, discoveryDocument(issuer)],
      [JWKS_PATH, keySetDocument([key])]
    ])
    server.on('request', (req, res) => sendProviderDocument(req, res, documents.get(req.url ?? '')))
    return new DevIdentityProvider(server, issuer, key)
  }

  /** A fresh token for `clientId`, valid for DEV_TOKEN_LIFETIME_SEC from now. */
  async mint(clientId: string): Promise<MintedToken> {
    const nowSec = Math.floor(Date.now() / 1000)
    const expSec = nowSec + DEV_TOKEN_LIFETIME_SEC
    const token = await mintIdToken(this, clientId, {
      key: this.key,
      nowSec,
      // jti: two tokens minted in the same second still differ.
      claims: {
        sub: DEV_SUBJECT,
        email: 'dev-user@example.invalid',
        exp: expSec,
        jti: randomUUID()
      }
    })
    return { token, expiresAt: new Date(expSec * 1000) }
  }

  stop(): Promise<void> {
    return closeNow(this.server)
  }
}
