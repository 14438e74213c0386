import type { Clock } from '../clock.js'
import {
  AnalysisNotFoundError,
  ServerRequestError,
  TaskFailedError,
  TimeoutError
} from '../errors.js'
import type { Log } from '../log.js'
import { scopeWords, type AnalysisScope } from '../sonar/client.js'
import type { RunStart } from '../settings.js'
import type {
  ComponentTask,
  ComponentTasks,
  ProjectAnalysesPage,
  PullRequestOnServer
} from '../sonar/types.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, theSetting } from '../words.js'
import { nextPollAt, predictEnd, type Prediction } from './poll-plan.js'
import { seconds } from './wait-for-task.js'

/** What the wait reads from the server: a project's analyses, and its background tasks. */
export interface AnalysisSource {
  getProjectAnalyses(projectKey: string, on: AnalysisScope): Promise<ProjectAnalysesPage>
  getComponentTasks(projectKey: string): Promise<ComponentTasks>
  getBranchNames(projectKey: string): Promise<string[]>
  getPullRequests(projectKey: string): Promise<PullRequestOnServer[]>
}

/** How many of the project's branches or pull requests a message lists when one is unknown. */
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
  /**
   * For a pull request, whose analyses record no commit the server shows: the newest analysis
   * made after this is the run's. None: its newest, said to be unconfirmed.
   */
  since?: RunStart
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
  /** Its key; undefined for a pull request's when the server did not name it: read by the pull request. */
  key: string | undefined
  date: string
  revision: string | undefined
  /** Whether it is the newest analysis of its branch or pull request. */
  newest: boolean
  /** For a pull request's analysis, why it is taken as the run's: the log and the summary say it. */
  basis?: string
}

/** What one poll saw: the analysis, or what is pending and what the server has instead. */
type Sighting =
  | { found: FoundAnalysis }
  | {
      tasks: ComponentTasks
      /** The newest analysis of the branch or pull request, when it has one. */
      newest?: { date: string; revision?: string | undefined }
      /** The branch or pull request is not on the server (yet): the names it has, for the time-out. */
      unknown?: () => Promise<string>
    }

/**
 * Waits for the analysis of `commit` on the branch or pull request (or, without a commit, takes
 * the newest one): each poll lists the newest analyses, and while the commit's is not among
 * them, the project's background tasks, to say what is pending and to end at once when the
 * newest task of that branch or pull request failed. A pull request's analyses record no commit
 * the server shows: its newest analysis is taken once none of its tasks is pending, and, when the
 * run says when its scan started (`since`), only if made after that. A branch or pull request the
 * server does not know is waited for while a commit is (its first scan may be coming), and
 * refused at once otherwise, with the names the server has. One line of the log each time what
 * it waits for changes. Never sleeps past the deadline; two requests a poll at most, none once
 * found.
 *
 * @example const found = await waitForAnalysis({ server: client, projectKey: 'shop', on: { branch: 'main' }, commits, clock, startedAt, deadline, intervalMs: 1000, log })
 */
export async function waitForAnalysis(options: WaitForAnalysisOptions): Promise<FoundAnalysis> {
  const { clock, deadline, startedAt, on, commits, log } = options
  const pullRequest = on.pullRequest
  const commit = commits.length > 0 && pullRequest === undefined ? shortShas(commits) : undefined
  const project = oneLine(options.projectKey)
  const where = `${project}${scopeWords(on)}`
  const since = pullRequest !== undefined ? options.since : undefined
  const sinceWords = since ? ` since ${isoSeconds(since.at)} (${since.what})` : ''
  const wanted = commit ? `the analysis of ${commit}` : `an analysis${sinceWords}`
  let last: Exclude<Sighting, { found: FoundAnalysis }> | undefined
  let said = ''
  const timedOut = async (cause?: TimeoutError): Promise<TimeoutError> => {
    const newest = last?.unknown
      ? await last.unknown()
      : last?.newest
        ? pullRequest !== undefined
          ? `its newest analysis is of ${last.newest.date}`
          : `the newest is of ${last.newest.revision ? last.newest.revision.slice(0, 7) : 'no recorded commit'} (${last.newest.date})`
        : 'there is none yet'
    return new TimeoutError(
      `Timed out after ${seconds(clock.now() - startedAt)} waiting for ${wanted} of ${where}: ${newest}. The scan may not have run for this ${pullRequest !== undefined ? 'pull request' : 'commit'}, or its task may still be queued; raise ${setting('timeout')} (now ${seconds(deadline - startedAt)}).`,
      cause && { cause }
    )
  }
  // A first scan may be coming only when the run says which commit it scanned.
  const expected = commits.length > 0 || since !== undefined
  const look = (): Promise<Sighting> =>
    pullRequest !== undefined
      ? lookAtPullRequest(options.server, options.projectKey, pullRequest, since, expected)
      : lookAtBranch(options.server, options.projectKey, on, commits, expected)

  // Polls keep a fixed cadence from the step's start, the first at once, or gather around the
  // end the running task and the previous analysis predict.
  const cadence = { startedAt, initialWaitMs: 0, intervalMs: options.intervalMs }
  let prediction: Prediction | undefined
  let lastPollAt: number | undefined
  for (;;) {
    const pollAt = nextPollAt(cadence, lastPollAt, prediction)
    const waitMs = Math.min(pollAt, deadline) - clock.now()
    if (waitMs > 0) await clock.sleep(waitMs)
    if (clock.now() >= deadline) throw await timedOut()
    lastPollAt = Math.max(pollAt, clock.now())
    let sighting: Sighting
    try {
      sighting = await look()
    } catch (error) {
      if (error instanceof TimeoutError) throw await timedOut(error)
      throw error
    }
    if ('found' in sighting) return sighting.found
    last = sighting
    const { tasks } = sighting
    const pending = tasks.queue.filter((task) => inScope(task, on))
    const ended = tasks.current && inScope(tasks.current, on) ? tasks.current : undefined
    if (
      pending.length === 0 &&
      ended &&
      (ended.status === 'FAILED' || ended.status === 'CANCELED')
    ) {
      throw new TaskFailedError(
        `The newest background task of ${where}, ${oneLine(ended.id)}, ended ${ended.status} before ${wanted} appeared: ${ended.errorMessage ? oneLine(ended.errorMessage, QUOTE_LIMITS.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server.`
      )
    }
    if (!expected && pending.length === 0 && !sighting.newest) {
      throw new AnalysisNotFoundError(
        `${where} has no analysis yet, and no analysis of it is queued or running: run the scan first, or check ${setting('branch')} or ${setting('pullRequest')}.`
      )
    }
    const now = sighting.unknown
      ? `The server has no ${pullRequest !== undefined ? 'pull request' : 'branch'} ${oneLine(pullRequest ?? on.branch ?? '')} of ${project} yet: waiting for its first analysis (or check ${theSetting(pullRequest !== undefined ? 'pullRequest' : 'branch')}); ${pending.length} pending.`
      : `No analysis of ${commit ? `${commit} of ${where}` : `${where}${sinceWords}`} yet; ${pending.length} pending.`
    if (now !== said) log.info(now)
    said = now
    if (options.adaptive && !prediction) prediction = predicted(tasks, pending, lastPollAt)
  }
}

/**
 * A branch's poll: its newest analyses (the commit's among them, or the newest), else the
 * project's tasks. An unknown branch is refused at once, with the branches the server has,
 * unless a commit's first scan may be coming.
 */
async function lookAtBranch(
  server: AnalysisSource,
  projectKey: string,
  on: AnalysisScope,
  commits: readonly string[],
  expected: boolean
): Promise<Sighting> {
  let page: ProjectAnalysesPage | undefined
  try {
    page = await server.getProjectAnalyses(projectKey, on)
  } catch (error) {
    const { branch } = on
    if (branch === undefined || !(error instanceof ServerRequestError) || error.status !== 404) {
      throw error
    }
    if (!expected) throw await unknownScope(server, projectKey, { branch }, error)
    const tasks = await server.getComponentTasks(projectKey)
    return { tasks, unknown: () => unknownScopeWords(server, projectKey, { branch }) }
  }
  const found = pick(page, commits)
  if (found) return { found }
  if (commits.length > 0 && page.analyses.length > 0 && page.analyses.every((a) => !a.revision)) {
    const where = `${oneLine(projectKey)}${scopeWords(on)}`
    throw new AnalysisNotFoundError(
      `The analyses of ${where} record no commit (scans without SCM data, e.g. no .git folder or sonar.scm.disabled): the analysis of ${shortShas(commits)} cannot be told from the others. Run the scan with the repository's history, or leave ${setting('commit')} out to check the newest analysis.`
    )
  }
  return { tasks: await server.getComponentTasks(projectKey), newest: page.analyses[0] }
}

/**
 * A pull request's poll: the project's tasks, and while none of the pull request's is pending
 * and its newest did not fail, the project's pull requests with the date of each one's newest
 * analysis (the server lists a pull request's analyses nowhere else, and records no commit of
 * them it shows): that analysis, if made after `since`.
 */
async function lookAtPullRequest(
  server: AnalysisSource,
  projectKey: string,
  pullRequest: string,
  since: RunStart | undefined,
  expected: boolean
): Promise<Sighting> {
  const tasks = await server.getComponentTasks(projectKey)
  const on = { pullRequest }
  const ended = tasks.current && inScope(tasks.current, on) ? tasks.current : undefined
  const settled = !tasks.queue.some((task) => inScope(task, on)) && ended?.status !== 'FAILED'
  if (!settled || ended?.status === 'CANCELED') return { tasks }
  const pulls = await server.getPullRequests(projectKey)
  const pull = pulls.find(({ key }) => key === pullRequest)
  if (!pull) {
    const unknown = () => Promise.resolve(pullRequestsWords(projectKey, pullRequest, pulls))
    if (!expected)
      throw new AnalysisNotFoundError(`${await unknown()}: check ${theSetting('pullRequest')}.`)
    return { tasks, unknown }
  }
  const date = pull.analysisDate
  if (date === undefined) return { tasks }
  const at = Date.parse(date)
  if (since && !(at >= since.at)) return { tasks, newest: { date } }
  // The project's last finished task names the analysis when it is this pull request's.
  const key = ended?.status === 'SUCCESS' ? ended.analysisId : undefined
  const basis = since
    ? `made after ${since.what} (${isoSeconds(since.at)})`
    : "not confirmed to be this run's: the server records no commit for a pull request's analysis, and the run did not say when its scan started"
  return { found: { key, date, revision: undefined, newest: true, basis } }
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
async function unknownScope(
  server: AnalysisSource,
  projectKey: string,
  on: { branch: string },
  cause: ServerRequestError
): Promise<Error> {
  let names: string[]
  try {
    names = await server.getBranchNames(projectKey)
  } catch {
    return cause
  }
  return new AnalysisNotFoundError(
    `${branchesWords(projectKey, on.branch, names)}. Check ${theSetting('branch')}; a server that analyses one branch only (Community Edition) has its main branch alone.`,
    { cause }
  )
}

/** For a time-out: the branches the server has, or why they could not be read. */
async function unknownScopeWords(
  server: AnalysisSource,
  projectKey: string,
  on: { branch: string }
): Promise<string> {
  try {
    return branchesWords(projectKey, on.branch, await server.getBranchNames(projectKey))
  } catch {
    return `the project ${oneLine(projectKey)} has no branch "${oneLine(on.branch)}" on the server yet`
  }
}

function branchesWords(projectKey: string, branch: string, names: readonly string[]): string {
  return `The project ${oneLine(projectKey)} has no branch "${oneLine(branch)}" on the server: it has ${listed(names)}`
}

function pullRequestsWords(
  projectKey: string,
  pullRequest: string,
  pulls: readonly PullRequestOnServer[]
): string {
  const none =
    pulls.length === 0
      ? ' (a server that analyses one branch only, Community Edition, has none)'
      : ''
  return `The project ${oneLine(projectKey)} has no pull request ${oneLine(pullRequest)} on the server: it has ${listed(pulls.map(({ key }) => key))}${none}`
}

/** Names as a message lists them: the first BRANCHES_LISTED, quoted, and how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, BRANCHES_LISTED).map((name) => `"${oneLine(name)}"`)
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : ''
  return `${shown.join(', ') || 'none'}${more}`
}

/** A time as the log shows it: ISO 8601 to the second, UTC. */
function isoSeconds(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
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
