import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose'
import type { Logger } from './logger.js'
import {
  DocumentFetchError,
  fetchJsonDocument,
  type Fetch,
  type ReadDocument
} from './remote-json.js'

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>

/** The key set could not be fetched; requests needing it get 401, never 5xx. */
export class KeySetUnavailableError extends Error {
  constructor(reason: string) {
    super(`key set unavailable: ${reason}`)
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
   * At most one fetch per this period: jose's cooldownDuration after a success, and the same
   * back-off after a failure, so an outage is not hammered.
   */
  cooldownMs: number
  /** Known keys are refreshed in the background after this age; they stay usable meanwhile. */
  refreshMs: number
  /** Bodies over this many bytes fail the fetch; default MAX_DOCUMENT_BYTES (1 MiB). */
  maxBytes?: number
  fetch?: Fetch
  onFetch?: (outcome: 'ok' | 'failed', report: FetchReport) => void
}

export interface KeySet {
  getKey: JWTVerifyGetKey
}

/** RFC 7517 section 5: an object whose `keys` is an array of JWK objects. */
export const readKeySet: ReadDocument<{ keys: object[] }> = (document) => {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { problem: 'wrong shape: not a JSON object' }
  }
  const keys = (document as { keys?: unknown }).keys
  if (!Array.isArray(keys)) return { problem: 'wrong shape: "keys" is not an array' }
  if (!keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
    return { problem: 'wrong shape: an entry of "keys" is not an object' }
  }
  return { value: { keys: keys as object[] } }
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
 * jose's remote key set with `cacheMaxAge: Infinity`: jose then never refetches a set it
 * holds on its own (a failed refetch would throw and turn known keys unusable during an
 * outage). Refetches happen on an unknown `kid` (jose: one in-flight fetch shared by all
 * callers, at most once per cooldown) and in the background once the set is `refreshMs` old,
 * so keys removed by the identity provider stop working after about that long.
 *
 * Every fetch — discovery and key set — goes through `fetchDocument`: a reply that is not a
 * 200 with a bounded JSON body of the right shape is a failure, and after a failure no fetch
 * is made for the cooldown.
 */
export function createKeySet(options: KeySetOptions): KeySet {
  const baseFetch: Fetch = options.fetch ?? ((url, init) => fetch(url, init))
  let lastSuccessAt = -Infinity
  let lastFailureAt = -Infinity

  const gated = async <T>(
    url: string,
    read: ReadDocument<T>,
    signal: AbortSignal | null | undefined
  ): Promise<T> => {
    if (Date.now() - lastFailureAt < options.cooldownMs) {
      throw new KeySetUnavailableError('recent fetch failed, backing off')
    }
    try {
      const value = await fetchJsonDocument(url, read, {
        fetch: baseFetch,
        signal: signal ?? AbortSignal.timeout(options.timeoutMs),
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes
      })
      lastSuccessAt = Date.now()
      options.onFetch?.('ok', { url })
      return value
    } catch (error) {
      lastFailureAt = Date.now()
      const reason = error instanceof DocumentFetchError ? error.reason : 'fetch failed'
      options.onFetch?.('failed', { url, reason })
      throw new KeySetUnavailableError(reason)
    }
  }
  const fetchDocument: DocumentFetch = (url, read) => gated(url, read, undefined)
  // jose's customFetch: it passes its own time-out signal and reads the reply as JSON.
  const joseFetch = async (url: string, init: RequestInit): Promise<Response> =>
    Response.json(await gated(url, readKeySet, init.signal))

  let remote: Promise<RemoteKeySet> | undefined
  const resolveRemote = (): Promise<RemoteKeySet> => {
    remote ??= options.resolveUrl(fetchDocument).then(
      (url) =>
        createRemoteJWKSet(url, {
          timeoutDuration: options.timeoutMs,
          cooldownDuration: options.cooldownMs,
          cacheMaxAge: Infinity,
          [customFetch]: joseFetch
        }),
      (error: unknown) => {
        remote = undefined
        throw error
      }
    )
    return remote
  }

  const getKey: JWTVerifyGetKey = async (header, token) => {
    const keySet = await resolveRemote()
    const now = Date.now()
    if (
      keySet.fresh &&
      !keySet.reloading &&
      now - lastSuccessAt >= options.refreshMs &&
      now - lastFailureAt >= options.cooldownMs
    ) {
      keySet.reload().catch(() => undefined)
    }
    return keySet(header, token)
  }
  return { getKey }
}
