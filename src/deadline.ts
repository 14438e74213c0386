/**
 * The step's one time budget. The overall time-out (the timeout setting) counts from the step's
 * start; it is computed here once and passed to everything that waits or asks. What the step
 * writes afterwards where the developer looks (GitHub's comment, check run and changed lines; the
 * command's platforms) has `DECORATION_ALLOWANCE_MS` more, so the step always ends within the
 * time-out plus the allowance (docs/command.md and docs/troubleshooting.md say so).
 */
import type { Clock } from './clock.js'

/**
 * The decoration's allowance: it gets at least this long after the check, so that a check that
 * used the whole time-out still decorates, and never runs past the overall time-out by more.
 * Every wait of the decoration (a try, a retry's delay, a `Retry-After`) ends by then.
 */
export const DECORATION_ALLOWANCE_MS = 30_000

/**
 * The clock time of the overall time-out of a step that started at `startedAt`.
 *
 * @example overallDeadline(start, settings.timeoutMs) // start + 60 s at the defaults
 */
export function overallDeadline(startedAt: number, timeoutMs: number): number {
  return startedAt + timeoutMs
}

/**
 * The clock time the decoration must end by: the overall time-out, or the allowance past now when
 * that is later, and never later than the allowance past the time-out.
 *
 * @example decorationDeadline({ clock, deadline: start + 60_000 }) // start + 60 s, after a check of 10 s
 */
export function decorationDeadline({
  clock,
  deadline
}: {
  clock: Clock
  deadline: number
}): number {
  return Math.min(
    deadline + DECORATION_ALLOWANCE_MS,
    Math.max(deadline, clock.now() + DECORATION_ALLOWANCE_MS)
  )
}
