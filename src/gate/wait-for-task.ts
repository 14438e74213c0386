import type { Clock } from '../clock.js'
import { ServerRequestError, TaskFailedError, TimeoutError } from '../errors.js'
import type { Task } from '../sonar/types.js'
import { nextPollAt, predictEnd, type Prediction } from './poll-plan.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, theSetting } from '../words.js'

export interface WaitForTaskOptions {
  /**
   * The task the action asked for (the report file's ceTaskId, or the task setting): every
   * message names it, whatever id a reply carries or lacks.
   */
  taskId: string
  /** One poll of the task; retries of a single request happen inside it. */
  fetchTask: () => Promise<Task>
  clock: Clock
  /** Clock time the step started: elapsed times count from here. */
  startedAt: number
  /** Clock time of the overall time-out. */
  deadline: number
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
  onOutage?: (words: string) => void
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
  const { clock, deadline, startedAt } = options
  const elapsed = (): number => clock.now() - startedAt
  const taskId = oneLine(options.taskId)
  let last: Task | undefined
  /** Since when (clock time) the server has not answered, after it had, and why. */
  let outage: { since: number; why: string } | undefined
  /** @param cause The time-out a poll ran into, when one did. */
  const timedOut = (cause?: TimeoutError): TimeoutError =>
    new TimeoutError(
      outage
        ? `Timed out after ${seconds(elapsed())} waiting for the analysis task ${taskId}: the server has not answered since ${seconds(outage.since - startedAt)} (${outage.why}); its last status was ${oneLine(last?.status ?? '')}. Check that the server is running; raise ${setting('timeout')} (now ${seconds(deadline - startedAt)}) to wait out its restarts.`
        : `Timed out after ${seconds(elapsed())} waiting for the analysis task ${taskId}: ${last ? `its last status was ${oneLine(last.status)}` : 'no status was received'}. The server's background tasks may be queued; raise ${setting('timeout')} (now ${seconds(deadline - startedAt)}).`,
      cause && { cause }
    )
  const serverNotUp = async (): Promise<boolean> =>
    (await options.serverNotUp?.().catch(() => true)) ?? false
  /**
   * Whether a failed poll is the server going away for a while: only after it has answered this
   * task, and for a 401 or 404 only when the server itself says it is not up.
   */
  const isOutage = async (error: unknown): Promise<boolean> => {
    if (!last || !(error instanceof ServerRequestError)) return false
    if (error.noReply || (error.status !== undefined && OUTAGE_STATUSES.has(error.status)))
      return true
    if (error.status === undefined || !STARTING_STATUSES.has(error.status)) return false
    return serverNotUp()
  }

  // Polls keep a fixed cadence from the step's start (the first at initialWaitMs, then one
  // every intervalMs, however long each request took), or gather around a predicted end.
  const cadence = {
    startedAt,
    initialWaitMs: options.initialWaitMs,
    intervalMs: options.intervalMs
  }
  let previousMs: number | undefined
  let asked = false
  const askPrevious = (): void => {
    if (asked || !options.readPreviousProcessingMs) return
    asked = true
    // Without it the fixed cadence goes on: a failure changes nothing.
    options.readPreviousProcessingMs().then(
      (ms) => (previousMs = ms),
      () => {}
    )
  }
  if (options.initialWaitMs > 0) askPrevious()
  let prediction: Prediction | undefined
  let lastPollAt: number | undefined
  for (;;) {
    const pollAt = nextPollAt(cadence, lastPollAt, prediction)
    await clock.sleep(Math.max(0, Math.min(pollAt, deadline) - clock.now()))
    if (clock.now() >= deadline) throw timedOut()
    // The planned time, or later when the sleep ran late: a timer that fires a millisecond early
    // must not make the same poll twice.
    lastPollAt = Math.max(pollAt, clock.now())
    // While the server is away, its status (one request, no retries) says when to ask again.
    if (outage && (await serverNotUp())) continue
    let task: Task
    try {
      task = await options.fetchTask()
    } catch (error) {
      // A poll the deadline cut short is a time-out like any other: say the last status seen.
      if (error instanceof TimeoutError) throw timedOut(error)
      // A server that answered a moment ago and stops (restarted, redeployed): polled through.
      if (!(await isOutage(error))) throw error
      if (!outage) {
        outage = { since: lastPollAt, why: outageWords(error as ServerRequestError) }
        options.onOutage?.(
          `The server stopped answering (${outage.why}) after ${seconds(elapsed())}: polling on until it is back, within ${setting('timeout')}.`
        )
      }
      continue
    }
    if (outage) {
      options.onOutage?.(
        `The server answers again after ${seconds(clock.now() - outage.since)} away.`
      )
      outage = undefined
    }
    last = task
    options.onPoll?.(task, elapsed())

    if (task.status === 'SUCCESS') {
      if (!task.analysisId) {
        throw new ServerRequestError(
          `Task ${taskId} succeeded but names no analysis: it is not an analysis report task. Check ${theSetting('task')}.`
        )
      }
      return { ...task, analysisId: task.analysisId }
    }
    if (task.status === 'FAILED' || task.status === 'CANCELED') {
      throw new TaskFailedError(
        `The analysis task ${taskId} ended ${task.status}${task.errorType ? ` (${oneLine(task.errorType)})` : ''}: ${task.errorMessage ? oneLine(task.errorMessage, QUOTE_LIMITS.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server for details.`
      )
    }
    askPrevious()
    // The server says how long a task in progress has been processing: with the previous
    // analysis's time, that predicts its end.
    if (
      !prediction &&
      previousMs !== undefined &&
      task.status === 'IN_PROGRESS' &&
      task.executionTimeMs !== undefined
    ) {
      prediction = predictEnd(lastPollAt, task.executionTimeMs, previousMs)
      options.onPrediction?.(prediction)
    }
  }
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
