/**
 * When to try a request again and how long to wait first. Pure: the client supplies the clock
 * and the random source.
 */

/** Rate limiting, server errors and gateway trouble: worth another try. 401/403/404 are not. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

export const BACKOFF = {
  baseMs: 250,
  maxMs: 8000
} as const

/**
 * Delay before retry number `attempt` (0 for the first retry): exponential backoff with equal
 * jitter, so concurrent jobs do not retry in step, or the server's own `Retry-After` when it
 * sent one (seconds or an HTTP date).
 *
 * @example retryDelayMs(2, undefined, Math.random, Date.now()) // between 500 and 1000
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | undefined,
  random: () => number,
  nowEpochMs: number
): number {
  const asked = parseRetryAfter(retryAfter, nowEpochMs)
  if (asked !== undefined) return asked
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` → milliseconds from now. */
export function parseRetryAfter(value: string | undefined, nowEpochMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowEpochMs)
}
