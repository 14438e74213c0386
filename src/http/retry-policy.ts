import { setting, msg, textOf, type Said } from '../words.js'
/**
 * When to try a request again and how long to wait first. Pure: the client supplies the time
 * left, the attempt number and the random source.
 */

/** Rate limiting, server errors and gateway trouble: worth another try. 401/403/404 are not. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

const BACKOFF = {
  baseMs: 250,
  maxMs: 8000
} as const

/**
 * Tries in all when nothing answers at the address (connection refused, host not found): a wrong
 * address does not heal by waiting, so the step fails in about a second instead of at the
 * time-out.
 */
const MAX_TRIES_UNREACHABLE = 3

/** What went wrong with one try, as far as retrying is concerned. */
export type Fault =
  /** The server answered with this status; `retryAfter` is its Retry-After header. */
  | { kind: 'status'; status: number; retryAfter: string | undefined }
  /** Nothing answers at the address: refused, DNS, unreachable. */
  | { kind: 'unreachable' }
  /** A fault on the way that may heal: reset, a body cut off, no reply in time. */
  | { kind: 'transient' }
  /** Waiting does not fix it: a certificate, a body too large, a redirect refused. */
  | { kind: 'final' }

type RetryDecision =
  | { retry: true; delayMs: number }
  /** `why` says why no other try is made, or is '' when the fault speaks for itself. */
  | { retry: false; why: Said }

/**
 * Whether to try again after try number `attempt` (0 for the first) failed with `fault`, and
 * after how long. The delay is exponential backoff with equal jitter, never less: a server's
 * `Retry-After` can lengthen it, never shorten it, so no reply can make a hot loop. A wait that
 * would end past the deadline is not made; `timeLimit` names that time in the reason.
 *
 * @example decideRetry({ kind: 'transient' }, 0, 60_000, Math.random, Date.now()) // { retry: true, delayMs: 125..250 }
 */
export function decideRetry(
  fault: Fault,
  attempt: number,
  remainingMs: number,
  random: () => number,
  nowEpochMs: number,
  timeLimit: Said = msg`the overall time-out (${setting('timeout')})`
): RetryDecision {
  const tries = attempt + 1
  if (fault.kind === 'final') return { retry: false, why: '' }
  if (fault.kind === 'status' && !RETRYABLE_STATUSES.has(fault.status)) {
    return { retry: false, why: '' }
  }
  if (fault.kind === 'unreachable' && tries >= MAX_TRIES_UNREACHABLE) {
    return { retry: false, why: `Gave up after ${tries} tries.` }
  }
  let delayMs = backoffMs(attempt, random)
  if (fault.kind === 'status') {
    const askedMs = parseRetryAfter(fault.retryAfter, nowEpochMs)
    if (askedMs !== undefined && askedMs >= remainingMs) {
      return {
        retry: false,
        why: msg`The server asked to wait ${Math.ceil(askedMs / 1000)} s before another try (Retry-After), more than ${timeLimit} leaves (${Math.max(0, Math.floor(remainingMs / 1000))} s).`
      }
    }
    delayMs = Math.max(delayMs, askedMs ?? 0)
  }
  if (delayMs >= remainingMs) {
    return {
      retry: false,
      why: msg`Gave up after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${timeLimit} leaves no time for another.`
    }
  }
  return { retry: true, delayMs }
}

/**
 * `failure`, then `why` no other try was made: a full stop between them unless `failure` ends
 * with one of its own (a server's quoted words may or may not); `failure` alone when `why` is ''.
 * Each keeps its references, for the sink to say in its edge's words.
 *
 * @example afterLastTry('GitLab answered 500 to GET …: boom', 'Gave up after 9 tries.') // '…: boom. Gave up after 9 tries.'
 */
export function afterLastTry(failure: Said, why: Said): Said {
  if (textOf(why) === '') return failure
  return /[.!?]$/.test(textOf(failure).trimEnd()) ? msg`${failure} ${why}` : msg`${failure}. ${why}`
}

/**
 * Delay before retry number `attempt` (0 for the first retry): exponential backoff with equal
 * jitter, so concurrent jobs do not retry in step.
 *
 * @example backoffMs(2, Math.random) // between 500 and 1000
 */
export function backoffMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** Math.min(attempt, 30))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` → milliseconds from now
 * (0 for a date past). Anything else (`1.5`, `-5`, garbage) → undefined: the header is ignored.
 */
export function parseRetryAfter(value: string | undefined, nowEpochMs: number): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // An HTTP date names its weekday; Date.parse alone would take "-5" or "1.5" for a year.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowEpochMs)
}
