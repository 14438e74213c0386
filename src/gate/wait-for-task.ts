import type { Clock } from '../clock.js'
import { ServerRequestError, TaskFailedError, TimeoutError } from '../errors.js'
import type { Task } from '../sonar/types.js'
import { nextPollAt, predictEnd, type Prediction } from './poll-plan.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { msg, setting, theSetting, type Said } from '../words.js'

/** The clock of a wait, and its bounds. */
export interface WaitClock {
  clock: Clock
  /** Clock time the step started: elapsed times count from here. */
  startedAt: number
  /** Clock time of the overall time-out (src/deadline.ts): every wait and request ends by it. */
  deadline: number
}

interface WaitForTaskOptions extends WaitClock {
  /**
   * The task the action asked for (the report file's ceTaskId, or the task setting): every
   * message names it, whatever id a reply carries or lacks.
   */
  taskId: string
  /** One poll of the task; retries of a single request happen inside it. */
  fetchTask: () => Promise<Task>
  initialWaitMs: number
  intervalMs: number
  /** Called after every poll with what the server said. */
  onPoll?: (task: Task, elapsedMs: number) => void
  /**
   * Reads how long the project's previous analysis took to process, when it can be known: polls
   * then gather around the task's predicted end (see poll-plan.ts). Called once: at the start,
   * while the initial wait runs, or, without an initial wait, after a first poll that finds the
   * task still queued or running (an analysis already done costs no request). A poll never waits
   * for it.
   */
  readPreviousProcessingMs?: () => Promise<number | undefined>
  /** Called once when a prediction is made, with the predicted end and its spread. */
  onPrediction?: (prediction: Prediction) => void
  /**
   * Whether the server says it is not up (api/system/status not UP, or no answer): a 401 or 404
   * from a server that answered this task a moment ago is then a server starting again, not a
   * wrong token or task; and while it is not up, the task is not asked for.
   */
  serverNotUp?: () => Promise<boolean>
  /** Called when the server stops answering after it had answered, and when it is back. */
  onOutage?: (words: Said) => void
}

/** Statuses of a gateway or a server that is stopping or starting, once retries are spent. */
const OUTAGE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504])
/** Statuses a starting server answers before its Web API or its sessions are ready (10.7). */
const STARTING_STATUSES: ReadonlySet<number> = new Set([401, 404])

/** A task that ended SUCCESS, with the analysis it produced. */
export type FinishedTask = Task & { analysisId: string }

/**
 * Waits `initialWaitMs` from the step's start, then polls every `intervalMs` until the
 * task is SUCCESS, or more closely around its predicted end when `readPreviousProcessingMs` gives
 * the previous analysis's processing time.
 * FAILED and CANCELED fail at once with the server's message; running out of time fails with the
 * last status seen. Never sleeps past the deadline.
 *
 * @example const task = await waitForTask({ fetchTask, clock, startedAt, deadline, initialWaitMs: 3000, intervalMs: 1000 })
 */
export async function waitForTask(options: WaitForTaskOptions): Promise<FinishedTask> {
  const { clock, deadline } = options
  const taskId = oneLine(options.taskId)
  const seen: Seen = { polled: false, last: undefined, outage: undefined }
  const timedOut = (cause?: TimeoutError) => taskTimeout(taskId, seen, options, cause)
  const previous = previousProcessing(options.readPreviousProcessingMs)
  if (options.initialWaitMs > 0) previous.ask()
  let prediction: Prediction | undefined
  let lastPollAt: number | undefined
  for (;;) {
    // Polls keep a fixed cadence from the step's start (the first at initialWaitMs, then one
    // every intervalMs, however long each request took), or gather around a predicted end.
    const pollAt = nextPollAt(options, lastPollAt, prediction)
    await clock.sleep(Math.max(0, Math.min(pollAt, deadline) - clock.now()))
    if (clock.now() >= deadline) throw timedOut()
    // The planned time, or later when the sleep ran late: a timer that fires a millisecond early
    // must not make the same poll twice.
    lastPollAt = Math.max(pollAt, clock.now())
    // While the server is away, its status (one request, no retries) says when to ask again.
    if (seen.outage && (await serverNotUp(options))) continue
    const task = await pollOnce(options, seen, lastPollAt, timedOut)
    if (!task) continue
    options.onPoll?.(task, clock.now() - options.startedAt)
    const finished = endedTask(task, taskId)
    if (finished) return finished
    previous.ask()
    if (!prediction) {
      prediction = predictRunning(lastPollAt, task, previous.ms())
      if (prediction) options.onPrediction?.(prediction)
    }
  }
}

/**
 * What the polls have seen: whether one was made, the last task, and since when the server has
 * been away, and why.
 */
interface Seen {
  polled: boolean
  last: Task | undefined
  outage: { since: number; why: string } | undefined
}

/**
 * The time-out of the wait, saying the last status seen, or since when the server has not
 * answered, or why no request was made. `cause` is the time-out a poll ran into, when one did.
 */
function taskTimeout(
  taskId: string,
  { polled, last, outage }: Seen,
  options: WaitForTaskOptions,
  cause?: TimeoutError
): TimeoutError {
  const { clock, startedAt } = options
  const elapsed = seconds(clock.now() - startedAt)
  const raise = raiseTimeout(options)
  if (!polled) {
    return new TimeoutError(
      msg`Timed out after ${elapsed} waiting for the analysis task ${taskId}: ${noPollWords(options)}`
    )
  }
  return new TimeoutError(
    outage
      ? msg`Timed out after ${elapsed} waiting for the analysis task ${taskId}: the server has not answered since ${seconds(outage.since - startedAt)} (${outage.why}); its last status was ${oneLine(last?.status ?? '')}. Check that the server is running; ${raise} to wait out its restarts.`
      : msg`Timed out after ${elapsed} waiting for the analysis task ${taskId}: ${last ? `its last status was ${oneLine(last.status)}` : 'no status was received'}. The server's background tasks may be queued; ${raise}.`,
    cause && { cause }
  )
}

/**
 * Why no status was received when the time-out ran out before the first poll: the initial wait
 * took the whole time-out (a setting to change: the task may well have ended, nothing asked), or
 * the step's earlier requests used the time up to the first poll.
 */
function noPollWords(options: WaitForTaskOptions): Said {
  const { startedAt, deadline, initialWaitMs } = options
  if (startedAt + initialWaitMs >= deadline) {
    return msg`no status was received, and no request was made, because the initial wait, ${setting('initialDelay')} (now ${seconds(initialWaitMs)}), took the whole time-out, ${setting('timeout')} (now ${seconds(deadline - startedAt)}). Raise ${setting('timeout')} above the initial wait, or lower ${setting('initialDelay')}.`
  }
  return msg`no status was received, and no request was made: the time-out ran out before the first poll, due at ${seconds(initialWaitMs)}; ${raiseTimeout(options)}.`
}

/**
 * One poll of the task: the task, or undefined while the server is away (a server that answered
 * this task a moment ago and stops, restarted or redeployed, is polled through). Says when the
 * server goes and when it is back.
 */
async function pollOnce(
  options: WaitForTaskOptions,
  seen: Seen,
  polledAt: number,
  timedOut: (cause: TimeoutError) => TimeoutError
): Promise<Task | undefined> {
  let task: Task
  seen.polled = true
  try {
    task = await options.fetchTask()
  } catch (error) {
    // A poll the deadline cut short is a time-out like any other: say the last status seen.
    if (error instanceof TimeoutError) throw timedOut(error)
    if (!(await isOutage(error, seen, options))) throw error
    if (!seen.outage) {
      seen.outage = { since: polledAt, why: outageWords(error as ServerRequestError) }
      options.onOutage?.(
        msg`The server stopped answering (${seen.outage.why}) after ${seconds(options.clock.now() - options.startedAt)}: polling on until it is back, within ${setting('timeout')}.`
      )
    }
    return undefined
  }
  if (seen.outage) {
    options.onOutage?.(
      `The server answers again after ${seconds(options.clock.now() - seen.outage.since)} away.`
    )
    seen.outage = undefined
  }
  seen.last = task
  return task
}

/**
 * Whether a failed poll is the server going away for a while: only after it has answered this
 * task, and for a 401 or 404 only when the server itself says it is not up.
 */
async function isOutage(error: unknown, seen: Seen, options: WaitForTaskOptions): Promise<boolean> {
  if (!seen.last || !(error instanceof ServerRequestError)) return false
  if (error.noReply || (error.status !== undefined && OUTAGE_STATUSES.has(error.status)))
    return true
  if (error.status === undefined || !STARTING_STATUSES.has(error.status)) return false
  return serverNotUp(options)
}

async function serverNotUp(options: WaitForTaskOptions): Promise<boolean> {
  return (await options.serverNotUp?.().catch(() => true)) ?? false
}

/**
 * The task once it has ended SUCCESS, with its analysis; undefined while it is queued or
 * running. FAILED and CANCELED throw with the server's message.
 */
function endedTask(task: Task, taskId: string): FinishedTask | undefined {
  if (task.status === 'SUCCESS') {
    if (!task.analysisId) {
      throw new ServerRequestError(
        msg`Task ${taskId} succeeded but names no analysis: it is not an analysis report task. Check ${theSetting('task')}.`
      )
    }
    return { ...task, analysisId: task.analysisId }
  }
  if (hasFailed(task)) {
    throw new TaskFailedError(
      `The analysis task ${taskId} ended ${task.status}${task.errorType ? ` (${oneLine(task.errorType)})` : ''}: ${task.errorMessage ? oneLine(task.errorMessage, QUOTE_LIMITS.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server for details.`
    )
  }
  return undefined
}

/** Whether a task ended FAILED or CANCELED. */
export function hasFailed(task: { status: string }): boolean {
  return task.status === 'FAILED' || task.status === 'CANCELED'
}

/**
 * How long the project's previous analysis took to process, read once when asked (never waited
 * for: until it is known, `ms()` is undefined, and a failure leaves it so).
 */
function previousProcessing(read: (() => Promise<number | undefined>) | undefined): {
  ask(): void
  ms(): number | undefined
} {
  let asked = false
  let previousMs: number | undefined
  return {
    ask: () => {
      if (asked || !read) return
      asked = true
      // Without it the fixed cadence goes on: a failure changes nothing.
      read().then(
        (ms) => (previousMs = ms),
        () => {}
      )
    },
    ms: () => previousMs
  }
}

/**
 * The predicted end of `task`, polled at `polledAt`: when it is in progress, the server says how
 * long it has been processing, and the previous analysis took `previousMs`; else undefined.
 *
 * @example predictRunning(3000, { status: 'IN_PROGRESS', executionTimeMs: 800 }, 2400)?.endsAt // 4600
 */
export function predictRunning(
  polledAt: number,
  task: { status: string; executionTimeMs?: number | undefined } | undefined,
  previousMs: number | undefined
): Prediction | undefined {
  if (task?.status !== 'IN_PROGRESS' || task.executionTimeMs === undefined) return undefined
  if (previousMs === undefined) return undefined
  return predictEnd(polledAt, task.executionTimeMs, previousMs)
}

/** A few words for why the server is taken to be away: "connection refused", "HTTP 503". */
function outageWords(error: ServerRequestError): string {
  if (error.status === undefined) return error.nodeCode ?? 'no reply'
  return OUTAGE_STATUSES.has(error.status)
    ? `HTTP ${error.status}`
    : `HTTP ${error.status} while the server is not up`
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/** The advice of a wait's time-out message: raise the setting, whose value it says. */
export function raiseTimeout({ startedAt, deadline }: WaitClock): Said {
  return msg`raise ${setting('timeout')} (now ${seconds(deadline - startedAt)})`
}
