import * as crypto from 'node:crypto'
import type { IdTokenVerifier } from './id-token.js'

export interface VerificationCacheOptions {
  maxEntries: number
  /** An entry is trusted for at most this long, whatever the token's `exp`. */
  maxAgeMs: number
  now?: () => number
}

interface Entry {
  subject: string
  validUntil: number
}

/**
 * Successful verifications, keyed by SHA-256 of the token (the token itself is never
 * stored). An entry is valid until the earlier of the token's `exp` (without leeway) and
 * `maxAgeMs` after it was verified. A Map keeps insertion order, which makes it an LRU
 * when a hit is re-inserted; the oldest entry goes when the bound is reached. Failures are
 * not cached, so garbage cannot evict good entries faster than fresh tokens would.
 */
export class VerificationCache {
  private readonly entries = new Map<string, Entry>()
  private readonly now: () => number

  constructor(private readonly options: VerificationCacheOptions) {
    this.now = options.now ?? Date.now
  }

  get size(): number {
    return this.entries.size
  }

  lookup(token: string): string | undefined {
    const key = hashOf(token)
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    this.entries.delete(key)
    if (this.now() >= entry.validUntil) return undefined
    this.entries.set(key, entry)
    return entry.subject
  }

  store(token: string, subject: string, expiresAtSec: number): void {
    const now = this.now()
    const validUntil = Math.min(expiresAtSec * 1000, now + this.options.maxAgeMs)
    if (validUntil <= now) return
    const key = hashOf(token)
    this.entries.delete(key)
    this.entries.set(key, { subject, validUntil })
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
  }
}

// The one-shot crypto.hash (Node 20.12+/21.7+) costs about a third less than
// createHash().update().digest() for a token; older Node falls back to the latter.
const hashOf: (token: string) => string =
  typeof crypto.hash === 'function'
    ? (token) => crypto.hash('sha256', token, 'base64')
    : (token) => crypto.createHash('sha256').update(token).digest('base64')

/**
 * A verifier that consults the cache first (answering synchronously on a hit) and stores
 * what the real verifier accepted.
 */
export function cachingVerifier(
  verify: IdTokenVerifier,
  cache: VerificationCache
): (token: string) => string | Promise<string> {
  return (token) => {
    const cached = cache.lookup(token)
    if (cached !== undefined) return cached
    return verify(token).then((verified) => {
      cache.store(token, verified.subject, verified.expiresAt)
      return verified.subject
    })
  }
}
