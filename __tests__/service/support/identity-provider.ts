import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload
} from 'jose'

export interface SigningKey {
  kid: string
  alg: string
  privateKey: CryptoKey
  publicJwk: JWK
}

export async function createSigningKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  return { kid, alg, privateKey, publicJwk }
}

/** `wrong-shape`: 200 with `wrongShapeBody`; `endless`: 200 with a chunked body that never ends. */
export type KeySetMode = 'up' | 'down' | 'slow' | 'garbage' | 'wrong-shape' | 'endless'

/**
 * A loopback identity provider for the tests: a JWKS endpoint (and a discovery document)
 * that counts its requests and can be switched off, slowed down or broken.
 */
export class LocalIdentityProvider {
  readonly issuer: string
  readonly jwksUrl: string
  published: SigningKey[]
  mode: KeySetMode = 'up'
  jwksRequests = 0
  discoveryRequests = 0
  /** The JSON body sent in `wrong-shape` mode. */
  wrongShapeBody = '{"keys":"nope"}'
  /** Replaces the discovery document when set. */
  discoveryDocument: Record<string, unknown> | undefined
  /** Bytes of endless bodies written so far, and how many of those replies were cut off. */
  endlessBytesWritten = 0
  endlessRepliesClosed = 0

  private constructor(
    private readonly server: Server,
    base: string,
    keys: SigningKey[]
  ) {
    this.issuer = base
    this.jwksUrl = `${base}/jwks`
    this.published = keys
  }

  static async start(keys: SigningKey[]): Promise<LocalIdentityProvider> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const provider = new LocalIdentityProvider(server, `http://127.0.0.1:${port}`, keys)
    server.on('request', (req, res) => provider.handle(req.url ?? '', res))
    return provider
  }

  private handle(url: string, res: ServerResponse): void {
    if (url === '/.well-known/openid-configuration') {
      this.discoveryRequests++
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify(this.discoveryDocument ?? { issuer: this.issuer, jwks_uri: this.jwksUrl })
      )
      return
    }
    if (url !== '/jwks') {
      res.statusCode = 404
      res.end()
      return
    }
    this.jwksRequests++
    const body = JSON.stringify({ keys: this.published.map((key) => key.publicJwk) })
    switch (this.mode) {
      case 'down':
        res.statusCode = 503
        res.end('unavailable')
        return
      case 'garbage':
        res.setHeader('Content-Type', 'application/json')
        res.end('{"keys": [')
        return
      case 'slow':
        // Never answers within the service's time-out; the socket is closed at stop().
        return
      case 'wrong-shape':
        res.setHeader('Content-Type', 'application/json')
        res.end(this.wrongShapeBody)
        return
      case 'endless':
        this.sendEndless(res)
        return
      case 'up':
        res.setHeader('Content-Type', 'application/json')
        res.end(body)
    }
  }

  /** `{"keys":[` and then spaces, 64 KiB at a time, until the client goes away. */
  private sendEndless(res: ServerResponse): void {
    const chunk = Buffer.alloc(64 * 1024, ' ')
    let open = true
    res.on('close', () => {
      open = false
      this.endlessRepliesClosed++
    })
    res.setHeader('Content-Type', 'application/json')
    res.write('{"keys":[')
    const pump = (): void => {
      while (open && res.write(chunk)) this.endlessBytesWritten += chunk.length
      if (open) {
        this.endlessBytesWritten += chunk.length
        res.once('drain', pump)
      }
    }
    pump()
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

export interface MintOptions {
  key: SigningKey
  claims?: JWTPayload
  /** Replaces the protected header entirely (e.g. to drop `kid`). */
  header?: Record<string, unknown>
  nowSec?: number
}

/** Signs a token like Google's: iss, aud, azp, sub, iat, exp one hour later. */
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
