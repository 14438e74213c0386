import { discoverJwksUrl } from './discovery.js';
import { createIdTokenVerifier } from './id-token.js';
import { GOOGLE_JWKS_URL, isGoogle } from './issuer.js';
import { createKeySet, logFetches } from './key-set.js';
import { cachingVerifier, VerificationCache } from './verification-cache.js';
/**
 * The filter's verifier (spec 4.3 rule 5) as the settings make it: the identity provider's key
 * set (Google's, OIDC_JWKS_URL, or found by discovery), the ID-token checks, and the
 * verification cache in front unless VERIFY_CACHE is off. A rejection's reason reaches the
 * log on the request's own line (see filter.ts), so nothing is logged here.
 */
export function createTokenVerifier(config, tuning, logger) {
    const configuredUrl = config.jwksUrl;
    const keySet = createKeySet({
        resolveUrl: configuredUrl !== undefined
            ? async () => configuredUrl
            : isGoogle(config.issuer)
                ? async () => GOOGLE_JWKS_URL
                : (fetch) => discoverJwksUrl(config.issuer, fetch),
        timeoutMs: tuning.jwksTimeoutMs,
        cooldownMs: tuning.jwksCooldownMs,
        refreshMs: tuning.jwksRefreshMs,
        onFetch: logFetches(logger)
    });
    const verifyIdToken = createIdTokenVerifier({
        clientId: config.clientId,
        issuer: config.issuer,
        getKey: keySet.getKey,
        clockToleranceSec: config.clockToleranceSec
    });
    if (!config.verifyCache)
        return (token) => verifyIdToken(token).then(({ subject }) => subject);
    const cache = new VerificationCache({
        maxEntries: tuning.cacheMaxEntries,
        maxAgeMs: tuning.cacheMaxAgeMs
    });
    return cachingVerifier(verifyIdToken, cache);
}
