import { createLocalJWKSet, errors } from 'jose';
import { ServiceError } from '../errors.js';
import { DocumentFetchError, fetchJsonDocument, httpGet } from './remote-json.js';
/** The key set could not be fetched; requests needing it get 401, never 5xx. */
export class KeySetUnavailableError extends ServiceError {
    static code = 'KEY_SET_UNAVAILABLE';
    code = KeySetUnavailableError.code;
    constructor(reason, options) {
        super(`key set unavailable: ${reason}`, options);
        this.name = 'KeySetUnavailableError';
    }
}
/** RFC 7517 section 5: an object whose `keys` is an array of JWK objects. */
export const readKeySet = (document) => {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        return { problem: 'wrong shape: not a JSON object' };
    }
    const keys = document.keys;
    if (!Array.isArray(keys))
        return { problem: 'wrong shape: "keys" is not an array' };
    if (!keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
        return { problem: 'wrong shape: an entry of "keys" is not an object' };
    }
    return { value: { keys: keys } };
};
/**
 * The onFetch that writes the service's log lines: a failure at `warn` with the URL and the
 * reason (never a body or a token), a success at `debug`.
 */
export function logFetches(logger) {
    return (outcome, { url, reason }) => outcome === 'ok'
        ? logger.debug('key set fetched', { url })
        : logger.warn('key set fetch failed', { url, reason });
}
/**
 * The identity provider's keys, fetched on first use and held in jose's local key set.
 * Refetches happen on an unknown `kid` (at most once per cooldown) and in the background once
 * the keys are `refreshMs` old, so keys removed by the identity provider stop working after
 * about that long. A failed refetch keeps the keys already held: an outage does not make
 * known keys unusable. Concurrent callers share one fetch.
 *
 * Every fetch — discovery and key set — goes through `fetchDocument`: a reply that is not a
 * 200 with a bounded JSON body of the right shape is a failure, and after a failure no fetch
 * is made for the cooldown.
 */
export function createKeySet(options) {
    const get = options.get ?? httpGet;
    let lastFailureAt = -Infinity;
    const fetchDocument = async (url, read) => {
        if (Date.now() - lastFailureAt < options.cooldownMs) {
            throw new KeySetUnavailableError('recent fetch failed, backing off');
        }
        try {
            const value = await fetchJsonDocument(url, read, {
                get,
                signal: AbortSignal.timeout(options.timeoutMs),
                timeoutMs: options.timeoutMs,
                maxBytes: options.maxBytes
            });
            options.onFetch?.('ok', { url });
            return value;
        }
        catch (error) {
            lastFailureAt = Date.now();
            const reason = error instanceof DocumentFetchError ? error.reason : 'fetch failed';
            options.onFetch?.('failed', { url, reason });
            throw new KeySetUnavailableError(reason, { cause: error });
        }
    };
    // Discovery happens once; after a failure it is tried again with the next fetch.
    let keySetUrl;
    const resolveUrl = () => {
        keySetUrl ??= options.resolveUrl(fetchDocument).catch((error) => {
            keySetUrl = undefined;
            throw error;
        });
        return keySetUrl;
    };
    let local;
    let fetchedAt = -Infinity;
    let pending;
    const reload = () => {
        pending ??= (async () => {
            const url = await resolveUrl();
            const keys = await fetchDocument(url.href, readKeySet);
            local = createLocalJWKSet(keys);
            fetchedAt = Date.now();
        })().finally(() => {
            pending = undefined;
        });
        return pending;
    };
    const getKey = async (header, token) => {
        if (local === undefined) {
            await reload();
        }
        else if (pending === undefined &&
            Date.now() - fetchedAt >= options.refreshMs &&
            Date.now() - lastFailureAt >= options.cooldownMs) {
            reload().catch(() => undefined);
        }
        const held = local;
        try {
            return await held(header, token);
        }
        catch (error) {
            if (!(error instanceof errors.JWKSNoMatchingKey) ||
                Date.now() - fetchedAt < options.cooldownMs) {
                throw error;
            }
            await reload();
            return local(header, token);
        }
    };
    return { getKey };
}
