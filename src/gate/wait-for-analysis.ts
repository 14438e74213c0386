import type { Clock } from '../clock.js'
import {
  AnalysisNotFoundError,
  ServerRequestError,
  TaskFailedError,
  TimeoutError
} from '../errors.js'
import type { Log } from '../log.js'
import { scopeWords, type AnalysisScope } from '../sonar/client.js'
import type { ComponentTask, ComponentTasks, ProjectAnalysesPage } from '../sonar/types.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, theSetting } from '../words.js'
import { nextPollAt, predictEnd, type Prediction } from './poll-plan.js'
import { seconds } from './wait-for-task.js'

/** What the wait reads from the server: a project's analyses, and its background tasks. */
export interface AnalysisSource {
  getProjectAnalyses(projectKey: string, on: AnalysisScope): Promise<ProjectAnalysesPage>
  getComponentTasks(projectKey: string): Promise<ComponentTasks>
  getBranchNames(projectKey: string): Promise<string[]>
}

/** How many of the project's branches a message lists when the one asked for is unknown. */
export const BRANCHES_LISTED = 20

export interface WaitForAnalysisOptions {
  server: AnalysisSource
  projectKey: string
  /** The branch or pull request; neither: the project's main branch. */
  on: AnalysisScope
  /**
   * The commit whose analysis to wait for (full SHAs, lower case: one, or a pull request's head
   * and merge commits, either of which a scan may record); none: the newest analysis.
   */
  commits: readonly string[]
  clock: Clock
  /** Clock time the step started: elapsed times count from here. */
  startedAt: number
  /** Clock time of the overall time-out. */
  deadline: number
  intervalMs: number
  /**
   * true when no interval was given: once a task of the branch is running and the project's last
   * finished analysis says how long one takes, polls gather around the predicted end (see
   * poll-plan.ts), as for a task. A given interval is honoured exactly.
   */
  adaptive?: boolean
  log: Log
}

/** The analysis whose gate is read: the commit's, or the newest. */
export interface FoundAnalysis {
  key: string
  date: string
  revision: string | undefined
  /** Whether it is the newest analysis of its branch or pull request. */
  newest: boolean
}

/**
 * Waits for the analysis of `commit` on the branch or pull request (or, without a commit, takes
 * the newest one): each poll lists the newest analyses, and while the commit's is not among
 * them, the project's background tasks, to say what is pending and to end at once when the
 * newest task of that branch or pull request failed. One line of the log each time what it waits
 * for changes. Never sleeps past the deadline; two requests a poll at most, none once found.
 *
 * @example const found = await waitForAnalysis({ server: client, projectKey: 'shop', on: { branch: 'main' }, commit, clock, startedAt, deadline, intervalMs: 1000, log })
 */
export async function waitForAnalysis(options: WaitForAnalysisOptions): Promise<FoundAnalysis> {
  const { server, clock, deadline, startedAt, on, commits, log } = options
  const commit = commits.length > 0 ? shortShas(commits) : undefined
  const project = oneLine(options.projectKey)
  const where = `${project}${scopeWords(on)}`
  const wanted = commit ? `the analysis of ${commit}` : 'an analysis'
  let newestSeen: ProjectAnalysesPage['analyses'][number] | undefined
  let said = ''
  const timedOut = (cause?: TimeoutError): TimeoutError => {
    const newest = newestSeen
      ? `the newest is of ${newestSeen.revision ? newestSeen.revision.slice(0, 7) : 'no recorded commit'} (${newestSeen.date})`
      : 'there is none yet'
    return new TimeoutError(
      `Timed out after ${seconds(clock.now() - startedAt)} waiting for ${wanted} of ${where}: ${newest}. The scan may not have run for this commit, or its task may still be queued; raise ${setting('timeout')} (now ${seconds(deadline - startedAt)}).`,
      cause && { cause }
    )
  }

  // Polls keep a fixed cadence from the step's start, the first at once, or gather around the
  // end the running task and the previous analysis predict.
  const cadence = { startedAt, initialWaitMs: 0, intervalMs: options.intervalMs }
  let prediction: Prediction | undefined
  let lastPollAt: number | undefined
  for (;;) {
    const pollAt = nextPollAt(cadence, lastPollAt, prediction)
    const waitMs = Math.min(pollAt, deadline) - clock.now()
    if (waitMs > 0) await clock.sleep(waitMs)
    if (clock.now() >= deadline) throw timedOut()
    lastPollAt = Math.max(pollAt, clock.now())
    let page: ProjectAnalysesPage
    let tasks: ComponentTasks | undefined
    try {
      page = await server.getProjectAnalyses(options.projectKey, on)
      const found = pick(page, commits)
      if (found) return found
      newestSeen = page.analyses[0] ?? newestSeen
      if (commit && page.analyses.length > 0 && page.analyses.every((a) => !a.revision)) {
        throw new AnalysisNotFoundError(
          `The analyses of ${where} record no commit (scans without SCM data, e.g. no .git folder or sonar.scm.disabled): the analysis of ${commit} cannot be told from the others. Run the scan with the repository's history, or leave ${setting('commit')} out to check the newest analysis.`
        )
      }
      tasks = await server.getComponentTasks(options.projectKey)
    } catch (error) {
      if (error instanceof TimeoutError) throw timedOut(error)
      if (on.branch !== undefined && error instanceof ServerRequestError && error.status === 404) {
        throw await unknownBranch(server, options.projectKey, on.branch, error)
      }
      throw error
    }
    const pending = tasks.queue.filter((task) => inScope(task, on))
    const last = tasks.current && inScope(tasks.current, on) ? tasks.current : undefined
    if (pending.length === 0 && last && (last.status === 'FAILED' || last.status === 'CANCELED')) {
      throw new TaskFailedError(
        `The newest background task of ${where}, ${oneLine(last.id)}, ended ${last.status} before ${wanted} appeared: ${last.errorMessage ? oneLine(last.errorMessage, QUOTE_LIMITS.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server.`
      )
    }
    if (!commit && pending.length === 0 && !newestSeen) {
      throw new AnalysisNotFoundError(
        `${where} has no analysis yet, and no analysis of it is queued or running: run the scan first, or check ${setting('branch')} or ${setting('pullRequest')}.`
      )
    }
    const now = `No analysis of ${commit ? `${commit} of ${where}` : where} yet; ${pending.length} pending.`
    if (now !== said) log.info(now)
    said = now
    if (options.adaptive && !prediction) prediction = predicted(tasks, pending, lastPollAt)
  }
}

/** The commit's analysis among the newest, or the newest when no commit is asked for. */
function pick(page: ProjectAnalysesPage, commits: readonly string[]): FoundAnalysis | undefined {
  const [newest] = page.analyses
  const found =
    commits.length > 0
      ? page.analyses.find(({ revision }) => revision !== undefined && commits.includes(revision))
      : newest
  return found && { ...found, newest: found === newest }
}

/** Whether a task is of the branch or pull request waited for (a task names its own). */
function inScope(task: ComponentTask, on: AnalysisScope): boolean {
  if (on.pullRequest !== undefined) return task.pullRequest === on.pullRequest
  if (task.pullRequest !== undefined) return false
  // A task that names no branch is the main branch's (a server of one branch names none, and its
  // main branch is the only one there is): it may be the one waited for.
  return on.branch === undefined || task.branch === undefined || task.branch === on.branch
}

/** Commits as the log shows them: `abc1234`, or `abc1234 or def5678`. */
export function shortShas(commits: readonly string[]): string {
  return commits.map((sha) => sha.slice(0, 7)).join(' or ')
}

/**
 * A 404 for a branch: the project's branches, when they can be read, say whether the project or
 * the branch is unknown, and which branches there are (the first BRANCHES_LISTED).
 */
async function unknownBranch(
  server: AnalysisSource,
  projectKey: string,
  branch: string,
  cause: ServerRequestError
): Promise<Error> {
  let names: string[]
  try {
    names = await server.getBranchNames(projectKey)
  } catch {
    return cause
  }
  const listed = names.slice(0, BRANCHES_LISTED).map((name) => `"${oneLine(name)}"`)
  const more = names.length > listed.length ? ` and ${names.length - listed.length} more` : ''
  return new AnalysisNotFoundError(
    `The project ${oneLine(projectKey)} has no branch "${oneLine(branch)}" on the server: it has ${listed.join(', ') || 'none'}${more}. Check ${theSetting('branch')}; a server that analyses one branch only (Community Edition) has its main branch alone.`,
    { cause }
  )
}

/**
 * The end of the branch's running task, when the project's last finished analysis says how long
 * one takes (api/ce/component gives both): undefined until a task of the branch runs.
 */
function predicted(
  tasks: ComponentTasks,
  pending: readonly ComponentTask[],
  polledAt: number
): Prediction | undefined {
  const running = pending.find((task) => task.status === 'IN_PROGRESS')
  const previous = tasks.current
  if (!running || running.executionTimeMs === undefined) return undefined
  if (!previous || previous.status !== 'SUCCESS' || previous.executionTimeMs === undefined) {
    return undefined
  }
  return predictEnd(polledAt, running.executionTimeMs, previous.executionTimeMs)
}
