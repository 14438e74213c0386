import type { Server } from 'node:http'
import type { Config } from './app/config.js'
import { createRoutes } from './app/routes.js'
import { createTokenVerifier, type VerifierTuning } from './auth/token-verifier.js'
import { listen } from './http/listen.js'
import { createServiceServer, type ServerLimits } from './http/server.js'
import { shutDown, type ShutdownOutcome } from './http/shutdown.js'
import type { Logger } from './log/logger.js'

// The service assembled: the application's routes behind the HTTP edge, whose filter asks the
// token verifier (auth/). The entry point (index.ts) and dev mode both start it from here.

/** Tuning that is not an environment setting; tests and the benchmark may override it. */
export interface ServiceTuning extends VerifierTuning {
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

/**
 * Builds the verifier and the routes and listens; rejects with a ListenError naming PORT or
 * HOST when it cannot listen.
 */
export async function startService(
  config: Config,
  logger: Logger,
  tuning: Partial<ServiceTuning> = {}
): Promise<RunningService> {
  const settings = { ...DEFAULT_TUNING, ...tuning }
  const server = createServiceServer({
    basePath: config.basePath,
    allowedOrigin: config.allowedOrigin,
    verify: createTokenVerifier(config, settings, logger),
    routes: createRoutes(config.genres),
    logger,
    limits: settings.limits
  })
  const port = await listen(server, {
    port: config.port,
    host: config.host,
    portVariable: 'PORT',
    hostVariable: 'HOST'
  })
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    server,
    url: `http://${host}:${port}${config.basePath}/`,
    close: () => shutDown(server, settings.shutdownGraceMs)
  }
}
