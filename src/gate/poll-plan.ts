/**
 * When to poll the task. The fixed cadence of the specification (the first poll `initialWaitMs`
 * after the step's start, then one every `intervalMs`, anchored to the start) unless the
 * action can predict when the task ends: the project's previous analysis took `previousMs` to
 * process, and a poll of the task in progress says how long it has been processing. Then polls
 * at most `CLOSE_MS` apart cover a window around the predicted end, and the fixed polls just
 * before and inside that window, which would find the task still running, are left out. Pure:
 * the caller supplies every time.
 */

/** Where the task is predicted to end, and the window of close polls around it. */
export interface Prediction {
  /** Clock time the task is predicted to end. */
  endsAt: number
  /** How much earlier and how much later than predicted it may end: the window's edges. */
  earlyMs: number
  lateMs: number
}

/**
 * The window's polls, spread evenly over it, its first and last at its edges: at most `CLOSE_MS`
 * apart, so a task that ends in the window is seen at most that long after (half of it on
 * average); and at most `MAX_WINDOW_POLLS`, so a wide window (a long previous analysis) costs a
 * bounded number of requests. Three polls over the window measured a median of 584 ms from the
 * task's end to the poll that saw it on real servers, their windows up to 3.5 s wide
 * (docs/performance.md).
 */
const CLOSE_MS = 250
const MAX_WINDOW_POLLS = 12

/**
 * How far off a prediction may be: this analysis may take up to 1.2 times as long as the previous
 * one, or as little as 1/1.2 of it, so it ends up to a sixth of the previous time early and up to
 * a fifth late; never less than 150 ms, never more than 2 s either way. An end outside the window
 * is caught by the fixed cadence, as without a prediction.
 */
const RATIO = 1.2
const EDGE = { minMs: 150, maxMs: 2000 } as const

/**
 * The predicted end of a task that has been processing `elapsedMs` (as the server said, at
 * clock time `polledAt`) when the previous analysis took `previousMs`.
 *
 * @example predictEnd(3000, 800, 2400) // { endsAt: 4600, earlyMs: 400, lateMs: 480 }
 */
export function predictEnd(polledAt: number, elapsedMs: number, previousMs: number): Prediction {
  const edge = (ms: number) => Math.round(Math.min(EDGE.maxMs, Math.max(EDGE.minMs, ms)))
  return {
    endsAt: polledAt + Math.max(0, previousMs - elapsedMs),
    earlyMs: edge(previousMs - previousMs / RATIO),
    lateMs: edge(previousMs * (RATIO - 1))
  }
}

interface Cadence {
  /** Clock time the step started: the fixed cadence is anchored there. */
  startedAt: number
  initialWaitMs: number
  intervalMs: number
}

/**
 * Clock time of the next poll after the one at `lastPollAt` (undefined before the first).
 *
 * @example nextPollAt({ startedAt: 0, initialWaitMs: 3000, intervalMs: 1000 }, 3000, undefined) // 4000
 */
export function nextPollAt(
  cadence: Cadence,
  lastPollAt: number | undefined,
  prediction: Prediction | undefined
): number {
  const first = cadence.startedAt + cadence.initialWaitMs
  if (lastPollAt === undefined) return first
  const fixed = nextFixedAfter(cadence, lastPollAt)
  if (!prediction) return fixed

  const { endsAt, earlyMs, lateMs } = prediction
  const windowStart = endsAt - earlyMs
  const windowEnd = endsAt + lateMs
  const width = earlyMs + lateMs
  const count = Math.min(MAX_WINDOW_POLLS, Math.ceil(width / CLOSE_MS) + 1)
  const step = width / (count - 1)
  const windowPolls = Array.from({ length: count }, (_, i) => windowStart + i * step)
  const nextInWindow = windowPolls.find((at) => at > lastPollAt)
  // Fixed polls within an interval before the window, inside it, or within a step after it would
  // find the task still running or tell nothing new: left out. Earlier and later ones stay, so a
  // prediction far off costs at most what the fixed cadence would.
  let nextFixed = fixed
  while (nextFixed > windowStart - cadence.intervalMs && nextFixed <= windowEnd + step) {
    nextFixed += cadence.intervalMs
  }
  return nextInWindow === undefined ? nextFixed : Math.min(nextInWindow, nextFixed)
}

/** The first time of the fixed cadence after `time`. */
function nextFixedAfter({ startedAt, initialWaitMs, intervalMs }: Cadence, time: number): number {
  const first = startedAt + initialWaitMs
  if (time < first) return first
  return first + (Math.floor((time - first) / intervalMs) + 1) * intervalMs
}
