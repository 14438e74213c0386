import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose'
import { ServiceError } from '../errors.js'
import type { Logger } from '../log/logger.js'
import {
  DocumentFetchError,
  fetchJsonDocument,
  httpGet,
  type HttpGet,
  type ReadDocument
} from './remote-json.js'

/** The key set could not be fetched; requests needing it get 401, never 5xx. */
export class KeySetUnavailableError extends ServiceError {
  static readonly code = 'KEY_SET_UNAVAILABLE'
  override readonly code = KeySetUnavailableError.code

  constructor(reason: string, options?: ErrorOptions) {
    super(`key set unavailable: ${reason}`, options)
    this.name = 'KeySetUnavailableError'
  }
}

/** Fetches one identity-provider document (key set or discovery) through the key set's gate. */
export type DocumentFetch = <T>(url: string, read: ReadDocument<T>) => Promise<T>

/** One fetch, for the log: the URL always, the reason when it failed. */
export interface FetchReport {
  url: string
  reason?: string
}

export interface KeySetOptions {
  /** Where the key set is; resolved lazily (OIDC discovery) and again after a failure. */
  resolveUrl: (fetchDocument: DocumentFetch) => Promise<URL>
  /** Time-out of one HTTP fetch, reading the body included. */
  timeoutMs: number
  /**
   * At most one fetch per this period: an unknown `kid` refetches only once the keys are this
   * old, and after a failure no fetch is made for this long, so an outage is not hammered.
   */
  cooldownMs: number
  /** Known keys are refreshed in the background after this age; they stay usable meanwhile. */
  refreshMs: number
  /** Bodies over this many bytes fail the fetch; default MAX_DOCUMENT_BYTES (1 MiB). */
  maxBytes?: number
  /** The GET of the documents; node:http(s) unless a test wraps it. */
  get?: HttpGet
  onFetch?: (outcome: 'ok' | 'failed', report: FetchReport) => void
}

export interface KeySet {
  getKey: JWTVerifyGetKey
}

/** RFC 7517 section 5: an object whose `keys` is an array of JWK objects. */
export const readKeySet: ReadDocument<JSONWebKeySet> = (document) => {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { problem: 'wrong shape: not a JSON object' }
  }
  const keys = (document as { keys?: unknown }).keys
  if (!Array.isArray(keys)) return { problem: 'wrong shape: "keys" is not an array' }
  if (!keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
    return { problem: 'wrong shape: an entry of "keys" is not an object' }
  }
  return { value: { keys: keys as JSONWebKeySet['keys'] } }
}

/**
 * The onFetch that writes the service's log lines: a failure at `warn` with the URL and the
 * reason (never a body or a token), a success at `debug`.
 */
export function logFetches(logger: Logger): NonNullable<KeySetOptions['onFetch']> {
  return (outcome, { url, reason }) =>
    outcome === 'ok'
      ? logger.debug('key set fetched', { url })
      : logger.warn('key set fetch failed', { url, reason })
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
export function createKeySet(options: KeySetOptions): KeySet {
  const get = options.get ?? httpGet
  let lastFailureAt = -Infinity

  const fetchDocument: DocumentFetch = async (url, read) => {
    if (Date.now() - lastFailureAt < options.cooldownMs) {
      throw new KeySetUnavailableError('recent fetch failed, backing off')
    }
    try {
      const value = await fetchJsonDocument(url, read, {
        get,
        signal: AbortSignal.timeout(options.timeoutMs),
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes
      })
      options.onFetch?.('ok', { url })
      return value
    } catch (error) {
      lastFailureAt = Date.now()
      const reason = error instanceof DocumentFetchError ? error.reason : 'fetch failed'
      options.onFetch?.('failed', { url, reason })
      throw new KeySetUnavailableError(reason, { cause: error })
    }
  }

  // Discovery happens once; after a failure it is tried again with the next fetch.
  let keySetUrl: Promise<URL> | undefined
  const resolveUrl = (): Promise<URL> => {
    keySetUrl ??= options.resolveUrl(fetchDocument).catch((error: unknown) => {
      keySetUrl = undefined
      throw error
    })
    return keySetUrl
  }

  let local: JWTVerifyGetKey | undefined
  let fetchedAt = -Infinity
  let pending: Promise<void> | undefined
  const reload = (): Promise<void> => {
    pending ??= (async () => {
      const url = await resolveUrl()
      const keys = await fetchDocument(url.href, readKeySet)
      local = createLocalJWKSet(keys)
      fetchedAt = Date.now()
    })().finally(() => {
      pending = undefined
    })
    return pending
  }

  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (local === undefined) {
      await reload()
    } else if (
      pending === undefined &&
      Date.now() - fetchedAt >= options.refreshMs &&
      Date.now() - lastFailureAt >= options.cooldownMs
    ) {
      reload().catch(() => undefined)
    }
    const held = local as JWTVerifyGetKey
    try {
      return await held(header, token)
    } catch (error) {
      if (
        !(error instanceof errors.JWKSNoMatchingKey) ||
        Date.now() - fetchedAt < options.cooldownMs
      ) {
        throw error
      }
      await reload()
      return (local as JWTVerifyGetKey)(header, token)
    }
  }
  return { getKey }
}
