import * as crypto from 'node:crypto';
/**
 * Successful verifications, keyed by SHA-256 of the token (the cache never holds a token).
 * An entry is valid until the earlier of the token's `exp` (without leeway) and `maxAgeMs`
 * after it was verified. A Map keeps insertion order, which makes it an LRU when a hit is
 * re-inserted; the oldest entry goes when the bound is reached. Failures are not cached, so
 * garbage cannot evict good entries faster than fresh tokens would.
 *
 * A keep-alive connection usually presents the same token request after request. So each
 * connection (any object that identifies it, e.g. the socket) remembers the last token it
 * presented and that token's entry: when the next request on it carries the very same token,
 * a string comparison replaces the hash (a third of the service's own work per request).
 * That memory goes with the connection: it is weakly held, so a closed connection and its
 * token are collected, and it is dropped as soon as the connection presents another token.
 */
export class VerificationCache {
    options;
    entries = new Map();
    lastOn = new WeakMap();
    now;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? Date.now;
    }
    get size() {
        return this.entries.size;
    }
    /** The subject of a valid entry for `token`, or undefined. */
    lookup(token, connection) {
        if (connection !== undefined) {
            const last = this.lastOn.get(connection);
            if (last !== undefined) {
                if (last.token === token) {
                    if (this.now() < last.entry.validUntil)
                        return last.entry.subject;
                    this.lastOn.delete(connection);
                    return undefined;
                }
                this.lastOn.delete(connection);
            }
        }
        const key = hashOf(token);
        const entry = this.entries.get(key);
        if (entry === undefined)
            return undefined;
        this.entries.delete(key);
        if (this.now() >= entry.validUntil)
            return undefined;
        this.entries.set(key, entry);
        if (connection !== undefined)
            this.lastOn.set(connection, { token, entry });
        return entry.subject;
    }
    /** Remembers a verified token; one that is already expired is not stored. */
    store(token, subject, expiresAtSec, connection) {
        const now = this.now();
        const validUntil = Math.min(expiresAtSec * 1000, now + this.options.maxAgeMs);
        if (validUntil <= now)
            return;
        const key = hashOf(token);
        const entry = { subject, validUntil };
        this.entries.delete(key);
        this.entries.set(key, entry);
        if (this.entries.size > this.options.maxEntries) {
            const oldest = this.entries.keys().next();
            if (oldest.done !== true)
                this.entries.delete(oldest.value);
        }
        if (connection !== undefined)
            this.lastOn.set(connection, { token, entry });
    }
}
// The one-shot crypto.hash (Node 20.12+/21.7+) costs about a third less than
// createHash().update().digest() for a token; older Node falls back to the latter.
const hashOf = typeof crypto.hash === 'function'
    ? (token) => crypto.hash('sha256', token, 'base64')
    : (token) => crypto.createHash('sha256').update(token).digest('base64');
/**
 * A verifier that consults the cache first (answering synchronously on a hit) and stores
 * what the real verifier accepted.
 */
export function cachingVerifier(verify, cache) {
    return (token, connection) => {
        const cached = cache.lookup(token, connection);
        if (cached !== undefined)
            return cached;
        return verify(token).then((verified) => {
            cache.store(token, verified.subject, verified.expiresAt, connection);
            return verified.subject;
        });
    };
}
