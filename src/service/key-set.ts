import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose'

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>
type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** The key set could not be fetched; requests needing it get 401, never 5xx. */
export class KeySetUnavailableError extends Error {
  constructor(reason: string) {
    super(`key set unavailable: ${reason}`)
    this.name = 'KeySetUnavailableError'
  }
}

export interface KeySetOptions {
  /** Where the key set is; resolved lazily (OIDC discovery) and again after a failure. */
  resolveUrl: (fetch: Fetch) => Promise<URL>
  /** Time-out of one HTTP fetch. */
  timeoutMs: number
  /**
   * At most one fetch per this period: jose's cooldownDuration after a success, and the same
   * back-off after a failure, so an outage is not hammered.
   */
  cooldownMs: number
  /** Known keys are refreshed in the background after this age; they stay usable meanwhile. */
  refreshMs: number
  fetch?: Fetch
  onFetch?: (outcome: 'ok' | 'failed') => void
}

export interface KeySet {
  getKey: JWTVerifyGetKey
}

/**
 * jose's remote key set with `cacheMaxAge: Infinity`: jose then never refetches a set it
 * holds on its own (a failed refetch would throw and turn known keys unusable during an
 * outage). Refetches happen on an unknown `kid` (jose: one in-flight fetch shared by all
 * callers, at most once per cooldown) and in the background once the set is `refreshMs` old,
 * so keys removed by the identity provider stop working after about that long.
 */
export function createKeySet(options: KeySetOptions): KeySet {
  const baseFetch: Fetch = options.fetch ?? ((url, init) => fetch(url, init))
  let lastSuccessAt = -Infinity
  let lastFailureAt = -Infinity

  const gatedFetch: Fetch = async (url, init) => {
    if (Date.now() - lastFailureAt < options.cooldownMs) {
      throw new KeySetUnavailableError('recent fetch failed, backing off')
    }
    try {
      const response = await baseFetch(url, {
        ...init,
        signal: init.signal ?? AbortSignal.timeout(options.timeoutMs)
      })
      const body = await response.text()
      if (response.status !== 200) throw new KeySetUnavailableError(`HTTP ${response.status}`)
      JSON.parse(body)
      lastSuccessAt = Date.now()
      options.onFetch?.('ok')
      return new Response(body, { status: 200, headers: response.headers })
    } catch (error) {
      lastFailureAt = Date.now()
      options.onFetch?.('failed')
      throw error instanceof KeySetUnavailableError
        ? error
        : new KeySetUnavailableError(error instanceof Error ? error.name : 'fetch failed')
    }
  }

  let remote: Promise<RemoteKeySet> | undefined
  const resolveRemote = (): Promise<RemoteKeySet> => {
    remote ??= options.resolveUrl(gatedFetch).then(
      (url) =>
        createRemoteJWKSet(url, {
          timeoutDuration: options.timeoutMs,
          cooldownDuration: options.cooldownMs,
          cacheMaxAge: Infinity,
          [customFetch]: gatedFetch
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
