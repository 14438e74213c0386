import { createRoutes } from './app/routes.js';
import { createTokenVerifier } from './auth/token-verifier.js';
import { listen } from './http/listen.js';
import { createServiceServer } from './http/server.js';
import { shutDown } from './http/shutdown.js';
export const DEFAULT_TUNING = {
    jwksTimeoutMs: 5_000,
    jwksCooldownMs: 30_000,
    jwksRefreshMs: 10 * 60_000,
    cacheMaxEntries: 10_000,
    cacheMaxAgeMs: 60_000,
    shutdownGraceMs: 10_000,
    limits: {}
};
/**
 * Builds the verifier and the routes and listens; rejects with a ListenError naming PORT or
 * HOST when it cannot listen.
 */
export async function startService(config, logger, tuning = {}) {
    const settings = { ...DEFAULT_TUNING, ...tuning };
    const server = createServiceServer({
        basePath: config.basePath,
        allowedOrigin: config.allowedOrigin,
        verify: createTokenVerifier(config, settings, logger),
        routes: createRoutes(config.genres),
        logger,
        limits: settings.limits
    });
    const port = await listen(server, {
        port: config.port,
        host: config.host,
        portVariable: 'PORT',
        hostVariable: 'HOST'
    });
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return {
        server,
        url: `http://${host}:${port}${config.basePath}/`,
        close: () => shutDown(server, settings.shutdownGraceMs)
    };
}
