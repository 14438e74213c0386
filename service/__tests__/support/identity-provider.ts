import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import {
  DISCOVERY_PATH,
  discoveryDocument,
  JWKS_PATH,
  keySetDocument,
  sendProviderDocument,
  type SigningKey
} from '../../src/dev/identity-provider.js'
import { closeNow, listenOnLoopback } from '../../src/dev/loopback.js'

// Keys, tokens and the provider's documents are dev mode's; this file adds the failure modes.
export {
  createSigningKey,
  mintIdToken,
  type MintOptions,
  type SigningKey
} from '../../src/dev/identity-provider.js'

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
    this.jwksUrl = base + JWKS_PATH
    this.published = keys
  }

  static async start(keys: SigningKey[]): Promise<LocalIdentityProvider> {
    const server = createServer()
    const base = await listenOnLoopback(server, 0, "the test identity provider's port")
    const provider = new LocalIdentityProvider(server, base, keys)
    server.on('request', (req, res) => provider.handle(req, res))
    return provider
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? ''
    if (url === DISCOVERY_PATH) {
      this.discoveryRequests++
      sendProviderDocument(req, res, this.discoveryDocument ?? discoveryDocument(this.issuer))
      return
    }
    if (url !== JWKS_PATH) return sendProviderDocument(req, res, undefined)
    this.jwksRequests++
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
        sendProviderDocument(req, res, keySetDocument(this.published))
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

  stop(): Promise<void> {
    return closeNow(this.server)
  }
}
