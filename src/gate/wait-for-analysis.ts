import { AnalysisNotFoundError, TaskFailedError, TimeoutError } from '../errors.js'
import type { Log } from '../log.js'
import { scopeWords, type AnalysisScope } from '../sonar/client.js'
import type { RunStart } from '../settings.js'
import type { ComponentTask } from '../sonar/types.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { shortShas } from '../run-scope.js'
import { msg, setting, theSetting, type Said, textOf } from '../words.js'
import {
  awaitedTasks,
  isoSeconds,
  lookAtBranch,
  lookAtNewest,
  lookAtPullRequest,
  type AnalysisSource,
  type FoundAnalysis,
  type NotYet,
  type Sighting
} from './analysis-sightings.js'
import { nextPollAt, type Prediction } from './poll-plan.js'
import {
  hasFailed,
  predictRunning,
  raiseTimeout,
  seconds,
  type WaitClock
} from './wait-for-task.js'

interface WaitForAnalysisOptions extends WaitClock {
  server: AnalysisSource
  projectKey: string
  /** The branch or pull request; neither: the project's main branch. */
  on: AnalysisScope
  /**
   * The commit whose analysis to wait for (full SHAs, lower case: one, or a pull request's head
   * and merge commits, either of which a scan may record); none: the newest analysis.
   */
  commits: readonly string[]
  /**
   * For a pull request, whose analyses record no commit the server shows: the newest analysis
   * made after this is the run's. None: its newest, said to be unconfirmed.
   */
  since?: RunStart
  intervalMs: number
  /**
   * true when no interval was given: once a task of the branch is running and the project's last
   * finished analysis says how long one takes, polls gather around the predicted end (see
   * poll-plan.ts), as for a task. A given interval is honoured exactly.
   */
  adaptive?: boolean
  log: Log
}

/**
 * Waits for the analysis of `commits` on the branch or pull request, or for its newest. Each poll
 * looks at the server as analysis-sightings.ts says (a commit's analysis, a branch's newest once
 * no scan of it is pending, a pull request's made after `since`), and the wait ends at once when
 * the awaited task failed, or when the branch or pull request is unknown and no first scan of it
 * is expected. One line of the log each time what it waits for changes. Never sleeps past the
 * deadline; two requests a poll at most (and the branches' list to refuse an unknown one), none
 * once found.
 *
 * @example const found = await waitForAnalysis({ server: client, projectKey: 'shop', on: { branch: 'main' }, commits, clock, startedAt, deadline, intervalMs: 1000, log })
 */
export async function waitForAnalysis(options: WaitForAnalysisOptions): Promise<FoundAnalysis> {
  const { clock, deadline, log } = options
  const wanted = wantedOf(options)
  const seen: SeenSoFar = { last: undefined, pending: [] }
  const timedOut = (cause?: TimeoutError) => analysisTimeout(wanted, seen, options, cause)
  // Polls keep a fixed cadence from the step's start, the first at once, or gather around the
  // end the running task and the previous analysis predict.
  const cadence = { startedAt: options.startedAt, initialWaitMs: 0, intervalMs: options.intervalMs }
  let prediction: Prediction | undefined
  let lastPollAt: number | undefined
  const watch = taskWatch()
  let said = ''
  for (;;) {
    const pollAt = nextPollAt(cadence, lastPollAt, prediction)
    const waitMs = Math.min(pollAt, deadline) - clock.now()
    if (waitMs > 0) await clock.sleep(waitMs)
    if (clock.now() >= deadline) throw await timedOut()
    lastPollAt = Math.max(pollAt, clock.now())
    const unseen = watch.endedUnseen()
    if (unseen) {
      const task = await endedAs(options.server, unseen.id, timedOut)
      if (task && hasFailed(task)) throw taskFailed(wanted, task)
      continue
    }
    let sighting: Sighting
    try {
      sighting = await look(options, wanted)
    } catch (error) {
      if (error instanceof TimeoutError) throw await timedOut(error)
      throw error
    }
    if ('found' in sighting) return sighting.found
    seen.last = sighting
    const { tasks } = sighting
    const { pending, failed } = awaitedTasks(tasks, options.on, options.commits)
    seen.pending = pending
    if (pending.length === 0 && failed) throw taskFailed(wanted, failed)
    watch.saw(pending, tasks.current)
    if (!wanted.expected && pending.length === 0 && !sighting.newest) {
      throw new AnalysisNotFoundError(
        msg`${wanted.where} has no analysis yet, and no analysis of it is queued or running: run the scan first, or check ${setting('branch')} or ${setting('pullRequest')}.`
      )
    }
    const line = waitingLine(wanted, sighting, pending.length, options.on)
    // One line each time what is waited for changes; its text tells.
    if (textOf(line) !== said) log.info(line)
    said = textOf(line)
    if (options.adaptive && !prediction) {
      // The project's last finished analysis says how long one takes (api/ce/component gives both).
      const running = pending.find((task) => task.status === 'IN_PROGRESS')
      const previous = tasks.current?.status === 'SUCCESS' ? tasks.current : undefined
      prediction = predictRunning(sighting.tasksAt, running, previous?.executionTimeMs)
    }
  }
}

/** What is waited for, in the words every line and message of the wait uses. */
interface Wanted {
  project: string
  /** The project and its branch or pull request. */
  where: string
  pullRequest: string | undefined
  /** The commits asked for, short, on a branch. */
  commit: string | undefined
  /** A branch's newest analysis, no commit asked: waited for while a scan of it is pending. */
  newest: boolean
  since: RunStart | undefined
  sinceWords: string
  /** "the analysis of 1a2b3c4", "the newest analysis", "an analysis since …". */
  what: string
  /** Whether a first scan may be coming: only when the run says which commit it scanned. */
  expected: boolean
}

function wantedOf({ projectKey, on, commits, since: given }: WaitForAnalysisOptions): Wanted {
  const pullRequest = on.pullRequest
  const commit = commits.length > 0 && pullRequest === undefined ? shortShas(commits) : undefined
  const newest = commits.length === 0 && pullRequest === undefined
  const project = oneLine(projectKey)
  const since = pullRequest !== undefined ? given : undefined
  const sinceWords = since ? ` since ${isoSeconds(since.at)} (${since.what})` : ''
  let what = `an analysis${sinceWords}`
  if (newest) what = 'the newest analysis'
  if (commit) what = `the analysis of ${commit}`
  return {
    project,
    where: `${project}${scopeWords(on)}`,
    pullRequest,
    commit,
    newest,
    since,
    sinceWords,
    what,
    expected: commits.length > 0 || since !== undefined
  }
}

/** One look at the server for what is wanted: a pull request's, a branch's newest, or a commit's. */
function look(options: WaitForAnalysisOptions, wanted: Wanted): Promise<Sighting> {
  const { server, projectKey, on, commits, clock } = options
  const now = () => clock.now()
  if (wanted.pullRequest !== undefined) {
    return lookAtPullRequest(
      server,
      projectKey,
      wanted.pullRequest,
      wanted.since,
      wanted.expected,
      now
    )
  }
  if (wanted.newest) return lookAtNewest(server, projectKey, on, now)
  return lookAtBranch(server, projectKey, on, commits, wanted.expected, now)
}

/** What the polls have seen: the last sighting, and the tasks of what is wanted still pending. */
interface SeenSoFar {
  last: NotYet | undefined
  pending: ComponentTask[]
}

async function analysisTimeout(
  wanted: Wanted,
  { last, pending }: SeenSoFar,
  options: WaitForAnalysisOptions,
  cause?: TimeoutError
): Promise<TimeoutError> {
  const pullRequest = wanted.pullRequest !== undefined
  const seen = await whatWasSeen(last, wanted.newest ? pending : [], pullRequest)
  const advice = wanted.newest
    ? 'The server has not processed its scan yet (see the Background Tasks page)'
    : `The scan may not have run for this ${pullRequest ? 'pull request' : 'commit'}, or its task may still be queued`
  return new TimeoutError(
    msg`Timed out after ${seconds(options.clock.now() - options.startedAt)} waiting for ${wanted.what} of ${wanted.where}: ${seen}. ${advice}; ${raiseTimeout(options)}.`,
    cause && { cause }
  )
}

function taskFailed(
  wanted: Wanted,
  task: Pick<ComponentTask, 'id' | 'status' | 'errorMessage'>
): TaskFailedError {
  return new TaskFailedError(
    `The newest background task of ${wanted.where}, ${oneLine(task.id)}, ended ${oneLine(task.status)} before ${wanted.what} appeared: ${task.errorMessage ? oneLine(task.errorMessage, QUOTE_LIMITS.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server.`
  )
}

/**
 * The tasks of what is wanted seen queued or running; once all have ended while the project's
 * last task names another (api/ce/component's `current` is of any branch), the newest of them,
 * for the next poll to read alone, so that its failure ends the wait too.
 */
function taskWatch(): {
  saw(pending: readonly ComponentTask[], current: ComponentTask | undefined): void
  endedUnseen(): ComponentTask | undefined
} {
  const watched = new Map<string, ComponentTask>()
  let unseen: ComponentTask | undefined
  return {
    saw(pending, current) {
      for (const task of pending) watched.set(task.id, task)
      if (pending.length > 0 || watched.size === 0) return
      const newestSeen = [...watched.values()].at(-1)
      watched.clear()
      if (newestSeen && current?.id !== newestSeen.id) unseen = newestSeen
    },
    endedUnseen() {
      const task = unseen
      unseen = undefined
      return task
    }
  }
}

/**
 * The line that says what the wait is waiting for: the analysis not there yet; the one a scan of
 * the branch, queued or running, makes; the first of a branch or pull request the server does
 * not know.
 */
function waitingLine(wanted: Wanted, sighting: NotYet, pending: number, on: AnalysisScope): Said {
  const { where, pullRequest } = wanted
  if (sighting.unknown) {
    const scope = pullRequest !== undefined ? 'pull request' : 'branch'
    return msg`The server has no ${scope} ${oneLine(pullRequest ?? on.branch ?? '')} of ${wanted.project} yet: waiting for its first analysis (or check ${theSetting(pullRequest !== undefined ? 'pullRequest' : 'branch')}); ${pending} pending.`
  }
  if (wanted.newest && pending > 0) {
    return `A scan of ${where} is queued or running: waiting for its analysis, the newest, rather than taking the one before it; ${pending} pending.`
  }
  const of = wanted.commit ? `${wanted.commit} of ${where}` : `${where}${wanted.sinceWords}`
  return `No analysis of ${of} yet; ${pending} pending.`
}

/**
 * What the server had when the time ran out, for the time-out's message: the branches or pull
 * requests it has when the one asked for is unknown; else, waiting for a branch's newest, its task
 * still queued or running (`pending`); else its newest analysis (a pull request's by its date, a branch's by its commit);
 * else that there is none.
 */
async function whatWasSeen(
  last: NotYet | undefined,
  pending: readonly ComponentTask[],
  pullRequest: boolean
): Promise<string> {
  if (last?.unknown) return last.unknown()
  const running = pending.find((task) => task.status === 'IN_PROGRESS') ?? pending[0]
  if (running) {
    const state = running.status === 'IN_PROGRESS' ? 'still running' : 'still queued'
    return `its task ${oneLine(running.id)} is ${state}${pending.length > 1 ? `, ${pending.length} pending in all` : ''}`
  }
  if (!last?.newest) return 'there is none yet'
  if (pullRequest) return `its newest analysis is of ${last.newest.date}`
  const revision = last.newest.revision ? last.newest.revision.slice(0, 7) : 'no recorded commit'
  return `the newest is of ${revision} (${last.newest.date})`
}

/**
 * A task that ended unseen, as the server tells it; undefined when it may not be read (a Browse
 * token) or cannot be: the wait goes on as before.
 */
async function endedAs(
  server: AnalysisSource,
  taskId: string,
  timedOut: (cause: TimeoutError) => Promise<TimeoutError>
): Promise<Pick<ComponentTask, 'id' | 'status' | 'errorMessage'> | undefined> {
  try {
    return await server.getTaskById(taskId)
  } catch (error) {
    if (error instanceof TimeoutError) throw await timedOut(error)
    return undefined
  }
}
