import { loadGenres } from './app/genres.js';
import { createRoutes } from './app/routes.js';
import { createTokenVerifier } from './auth/token-verifier.js';
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
/** Loads the genres, builds the verifier and listens; rejects when GENRES_FILE is bad. */
export async function startService(config, logger, tuning = {}) {
    const settings = { ...DEFAULT_TUNING, ...tuning };
    const genres = await loadGenres(config.genresFile);
    const server = createServiceServer({
        basePath: config.basePath,
        allowedOrigin: config.allowedOrigin,
        verify: createTokenVerifier(config, settings, logger),
        routes: createRoutes(genres),
        logger,
        limits: settings.limits
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
            server.off('error', reject);
            resolve();
        });
    });
    const { port } = server.address();
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return {
        server,
        url: `http://${host}:${port}${config.basePath}/`,
        close: () => shutDown(server, settings.shutdownGraceMs)
    };
}
