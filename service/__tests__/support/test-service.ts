import { afterAll, beforeAll } from 'vitest'
import { loadConfig } from '../../src/app/config.js'
import { createLogger } from '../../src/log/logger.js'
import { startService, type RunningService, type ServiceTuning } from '../../src/service.js'
import { createSigningKey, LocalIdentityProvider, mintIdToken } from './identity-provider.js'

export const CLIENT_ID = 'test-client.apps.example.com'
export const ALLOWED_ORIGIN = 'https://app.example.com'

export interface TestService extends RunningService {
  /** http://127.0.0.1:port — without BASE_PATH. */
  origin: string
  logLines: string[]
}

/** The real service on a loopback port, trusting the local identity provider. */
export async function startTestService(
  provider: LocalIdentityProvider,
  env: Record<string, string> = {},
  tuning: Partial<ServiceTuning> = {}
): Promise<TestService> {
  const config = loadConfig({
    CLIENT_ID,
    ALLOWED_ORIGIN,
    PORT: '0',
    HOST: '127.0.0.1',
    OIDC_ISSUER: provider.issuer,
    OIDC_JWKS_URL: provider.jwksUrl,
    LOG_LEVEL: 'debug',
    ...env
  })
  const logLines: string[] = []
  const logger = createLogger(config.logLevel, (line) => logLines.push(line))
  const service = await startService(config, logger, { jwksTimeoutMs: 1_000, ...tuning })
  return { ...service, origin: new URL(service.url).origin, logLines }
}

/** The service, the identity provider it trusts, and a token that provider minted for it. */
export interface ServiceWithToken {
  readonly provider: LocalIdentityProvider
  readonly service: TestService
  readonly token: string
}

/**
 * For the enclosing file or describe block: a local identity provider with one key, a valid ID
 * token from it for the client, and the service trusting it (`env` and `tuning` as
 * startTestService takes them); both stopped after the block.
 *
 * @example const running = serviceWithToken({ LOG_LEVEL: '' }) // then running.service.origin, running.token
 */
export function serviceWithToken(
  env: Record<string, string> = {},
  tuning: Partial<ServiceTuning> = {}
): ServiceWithToken {
  let started: ServiceWithToken | undefined
  beforeAll(async () => {
    const key = await createSigningKey('k')
    const provider = await LocalIdentityProvider.start([key])
    const token = await mintIdToken(provider, CLIENT_ID, { key })
    started = { provider, token, service: await startTestService(provider, env, tuning) }
  })
  afterAll(async () => {
    await started?.service.close()
    await started?.provider.stop()
  })
  const get = (): ServiceWithToken => {
    if (!started) throw new Error('serviceWithToken: used outside a test of its block')
    return started
  }
  return {
    get provider() {
      return get().provider
    },
    get service() {
      return get().service
    },
    get token() {
      return get().token
    }
  }
}

export const CORS_HEADER_NAMES = [
  'access-control-allow-origin',
  'access-control-allow-headers',
  'access-control-allow-credentials',
  'access-control-allow-methods'
]

export function corsHeadersOf(response: Response): Record<string, string | null> {
  return Object.fromEntries(CORS_HEADER_NAMES.map((name) => [name, response.headers.get(name)]))
}

export const UNAUTHORISED_BODY =
  '{"httpStatusCode":401,"error":"Not authorised: could not authenticate user"}'
