import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import type { TokenVerifier } from './auth-filter.js'
import type { Config } from './config.js'
import { loadGenres } from './genres.js'
import { createIdTokenVerifier, type IdTokenVerifier } from './id-token.js'
import { GOOGLE_JWKS_URL, isGoogle } from './issuer.js'
import { createKeySet, logFetches } from './key-set.js'
import type { Logger } from './logger.js'
import { discoverJwksUrl } from './oidc-discovery.js'
import { createRoutes } from './routes.js'
import { createServiceServer, type ServerLimits } from './server.js'
import { shutDown, type ShutdownOutcome } from './shutdown.js'
import { cachingVerifier, VerificationCache } from './verification-cache.js'

/** Tuning that is not an environment setting; tests and the benchmark may override it. */
export interface ServiceTuning {
  jwksTimeoutMs: number
  jwksCooldownMs: number
  jwksRefreshMs: number
  cacheMaxEntries: number
  cacheMaxAgeMs: number
  shutdownGraceMs: number
  limits: Partial<ServerLimits>
}

export const DEFAULT_TUNING: ServiceTuning = {
  jwksTimeoutMs: 5_000,
  jwksCooldownMs: 30_000,
  jwksRefreshMs: 10 * 60_000,
  cacheMaxEntries: 10_000,
  cacheMaxAgeMs: 60_000,
  shutdownGraceMs: 10_000,
  limits: {}
}

export interface RunningService {
  server: Server
  /** e.g. http://127.0.0.1:8080/api/ — where the root target is. */
  url: string
  close(): Promise<ShutdownOutcome>
}

export function createTokenVerifier(
  config: Config,
  tuning: ServiceTuning,
  logger: Logger
): TokenVerifier {
  const configuredUrl = config.jwksUrl
  const keySet = createKeySet({
    resolveUrl:
      configuredUrl !== undefined
        ? async () => configuredUrl
        : isGoogle(config.issuer)
          ? async () => GOOGLE_JWKS_URL
          : (fetch) => discoverJwksUrl(config.issuer, fetch),
    timeoutMs: tuning.jwksTimeoutMs,
    cooldownMs: tuning.jwksCooldownMs,
    refreshMs: tuning.jwksRefreshMs,
    onFetch: logFetches(logger)
  })
  const verifyIdToken = createIdTokenVerifier({
    clientId: config.clientId,
    issuer: config.issuer,
    getKey: keySet.getKey,
    clockToleranceSec: config.clockToleranceSec
  })
  // Only full verifications are logged (at debug), with jose's reason code, never the token.
  const verifyAndLog: IdTokenVerifier = async (token) => {
    try {
      return await verifyIdToken(token)
    } catch (error) {
      logger.debug('token rejected', { reason: error instanceof Error ? error.message : 'unknown' })
      throw error
    }
  }
  if (!config.verifyCache) return (token) => verifyAndLog(token).then(({ subject }) => subject)
  const cache = new VerificationCache({
    maxEntries: tuning.cacheMaxEntries,
    maxAgeMs: tuning.cacheMaxAgeMs
  })
  return cachingVerifier(verifyAndLog, cache)
}

/** Loads the genres, builds the verifier and listens; rejects when GENRES_FILE is bad. */
export async function startService(
  config: Config,
  logger: Logger,
  tuning: Partial<ServiceTuning> = {}
): Promise<RunningService> {
  const settings = { ...DEFAULT_TUNING, ...tuning }
  const genres = await loadGenres(config.genresFile)
  const server = createServiceServer({
    basePath: config.basePath,
    allowedOrigin: config.allowedOrigin,
    verify: createTokenVerifier(config, settings, logger),
    routes: createRoutes(genres),
    logger,
    limits: settings.limits
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    server,
    url: `http://${host}:${port}${config.basePath}/`,
    close: () => shutDown(server, settings.shutdownGraceMs)
  }
}
