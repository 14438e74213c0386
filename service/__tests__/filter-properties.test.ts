import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/app/config.js'
import { createLogger } from '../src/log/logger.js'
import { jsonReply } from '../src/http/responses.js'
import { createServiceServer } from '../src/http/server.js'
import { createTokenVerifier } from '../src/auth/token-verifier.js'
import { DEFAULT_TUNING } from '../src/service.js'
import { shutDown } from '../src/http/shutdown.js'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken
} from './support/identity-provider.js'
import { CLIENT_ID } from './support/test-service.js'

const BASE_PATH = '/api'
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PURGE']

let provider: LocalIdentityProvider
let server: Server
let port: number
let valid: string[]
const agent = new Agent({ keepAlive: true, maxSockets: 4 })
const calls = { root: 0, protected: 0 }

beforeAll(async () => {
  const key = await createSigningKey('k')
  provider = await LocalIdentityProvider.start([key])
  valid = [
    await mintIdToken(provider, CLIENT_ID, { key }),
    await mintIdToken(provider, CLIENT_ID, { key, claims: { sub: 'other' } })
  ]
  const config = loadConfig({
    CLIENT_ID,
    ALLOWED_ORIGIN: 'https://app.example.com',
    OIDC_ISSUER: provider.issuer,
    OIDC_JWKS_URL: provider.jwksUrl,
    BASE_PATH
  })
  const logger = createLogger('silent', () => undefined)
  server = createServiceServer({
    basePath: BASE_PATH,
    allowedOrigin: config.allowedOrigin,
    verify: createTokenVerifier(config, DEFAULT_TUNING, logger),
    routes: {
      root: () => {
        calls.root++
        return jsonReply(200, 'root')
      },
      protected: () => {
        calls.protected++
        return jsonReply(200, 'protected')
      }
    },
    logger
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  agent.destroy()
  await shutDown(server, 1_000)
  await provider.stop()
})

function send(method: string, path: string, authorization: string[]) {
  return new Promise<{ status: number; cors: boolean }>((resolve, reject) => {
    const headers: Record<string, string | string[]> =
      authorization.length === 0 ? {} : { Authorization: authorization }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume()
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          cors: res.headers['access-control-allow-origin'] !== undefined
        })
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** A valid token with one character of its payload changed: the signature no longer matches. */
const tampered = fc
  .tuple(fc.nat(1), fc.nat(), fc.constantFrom('A', 'b', '9', '_'))
  .map(([which, at, replacement]) => {
    const [header, payload, signature] = (valid[which] as string).split('.') as [
      string,
      string,
      string
    ]
    const index = at % (payload.length - 1)
    const changed = payload[index] === replacement ? (replacement === 'A' ? 'B' : 'A') : replacement
    return `${header}.${payload.slice(0, index)}${changed}${payload.slice(index + 1)}.${signature}`
  })

const headerValue = fc.oneof(
  fc.constantFrom('', 'null', 'undefined', 'Bearer', 'Basic dXNlcjpwYXNz'),
  fc.stringMatching(/^[!-~]{0,40}$/),
  fc.nat(1).map((which) => valid[which] as string),
  fc.nat(1).map((which) => `Bearer ${valid[which] as string}`),
  tampered
)

const target = fc.oneof(
  fc.constantFrom('/', '/api', '/api/', '/api/genre', '/api/?x=1', '/api//', '/genre', '/api/%2F'),
  fc.stringMatching(/^\/(api\/)?[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]{0,30}$/)
)

describe('properties of the filter over methods, targets and Authorization values', () => {
  it('never answers 5xx, and runs a protected handler only with a valid first token', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        target,
        fc.array(headerValue, { maxLength: 2 }),
        async (method, path, authorization) => {
          const before = { ...calls }
          const { status, cors } = await send(method, path, authorization)
          const isRoot = path.split('?')[0] === `${BASE_PATH}/`
          const authenticated = valid.includes(authorization[0] ?? '')
          const handlerRan = calls.protected > before.protected
          expect(status).toBeLessThan(500)
          expect(calls.root > before.root).toBe(isRoot)
          expect(handlerRan).toBe(!isRoot && method !== 'OPTIONS' && authenticated)
          if (status === 401) expect(cors).toBe(false)
          if (handlerRan || (!isRoot && method === 'OPTIONS')) expect(cors).toBe(true)
          if (isRoot) expect(cors).toBe(false)
        }
      ),
      { numRuns: 400 }
    )
  })
})
