/**
 * One poll of the wait for a project's analysis (wait-for-analysis.ts): what it reads of the
 * server for a branch or for a pull request, and what it saw: the analysis, or what is pending
 * and what the server has instead.
 */
import { AnalysisNotFoundError, ServerRequestError } from '../errors.js'
import { scopeWords, type AnalysisScope } from '../sonar/client.js'
import type { RunStart } from '../settings.js'
import type {
  ComponentTask,
  ComponentTasks,
  ProjectAnalysesPage,
  PullRequestOnServer,
  Task
} from '../sonar/types.js'
import { oneLine } from '../untrusted-text.js'
import { shortShas } from '../run-scope.js'
import { msg, setting, theSetting } from '../words.js'
import { hasFailed } from './wait-for-task.js'

/** What the wait reads from the server: a project's analyses, and its background tasks. */
export interface AnalysisSource {
  getProjectAnalyses(projectKey: string, on: AnalysisScope): Promise<ProjectAnalysesPage>
  getComponentTasks(projectKey: string): Promise<ComponentTasks>
  getBranchNames(projectKey: string): Promise<string[]>
  getPullRequests(projectKey: string): Promise<PullRequestOnServer[]>
  /**
   * One task by its id (`api/ce/task`, which needs Execute Analysis or Administer: a Browse
   * token is refused), for a task of the branch that ended while the project's last task
   * names another.
   */
  getTaskById(taskId: string): Promise<Pick<Task, 'id' | 'status' | 'errorMessage'>>
}

/** How many of the project's branches or pull requests a message lists when one is unknown. */
const BRANCHES_LISTED = 20

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
export type Sighting = { found: FoundAnalysis } | NotYet

/** A poll that did not find the analysis: the project's tasks, and what the server has. */
export interface NotYet {
  tasks: ComponentTasks
  /**
   * Clock time halfway through the tasks' request, when the server measured how long its
   * running task has been processing: a predicted end counts from here.
   */
  tasksAt: number
  /** The newest analysis of the branch or pull request, when it has one. */
  newest?: { date: string; revision?: string | undefined }
  /** The branch or pull request is not on the server (yet): the names it has, for the time-out. */
  unknown?: () => Promise<string>
}

/**
 * A branch's poll: its newest analyses (the commit's among them, or the newest), else the
 * project's tasks. An unknown branch is refused at once, with the branches the server has,
 * unless a commit's first scan may be coming. `read`: the tasks this poll already read.
 */
export async function lookAtBranch(
  server: AnalysisSource,
  projectKey: string,
  on: AnalysisScope,
  commits: readonly string[],
  expected: boolean,
  now: () => number,
  read?: { tasks: ComponentTasks; tasksAt: number }
): Promise<Sighting> {
  const tasks = () => (read ? Promise.resolve(read) : readTasks(server, projectKey, now))
  let page: ProjectAnalysesPage | undefined
  try {
    page = await server.getProjectAnalyses(projectKey, on)
  } catch (error) {
    const { branch } = on
    if (branch === undefined || !(error instanceof ServerRequestError) || error.status !== 404) {
      throw error
    }
    if (!expected) throw await unknownBranch(server, projectKey, branch, error)
    const unknown = async () =>
      (await branchesOnServer(server, projectKey, branch)) ??
      `the project ${oneLine(projectKey)} has no branch "${oneLine(branch)}" on the server yet`
    return { ...(await tasks()), unknown }
  }
  const found = pick(page, commits)
  if (found) return { found }
  if (commits.length > 0 && page.analyses.length > 0 && page.analyses.every((a) => !a.revision)) {
    const where = `${oneLine(projectKey)}${scopeWords(on)}`
    throw new AnalysisNotFoundError(
      msg`The analyses of ${where} record no commit (scans without SCM data, e.g. no .git folder or sonar.scm.disabled): the analysis of ${shortShas(commits)} cannot be told from the others. Run the scan with the repository's history, or leave ${setting('commit')} out to check the newest analysis.`
    )
  }
  return { ...(await tasks()), newest: page.analyses[0] }
}

/**
 * A branch's poll when no commit is asked for: the project's tasks first, and while a task of
 * the branch is queued or running, or its newest failed, nothing more: the analysis that task
 * makes is the newest, not the one before it (read after the tasks, so that a task seen ended
 * has its analysis listed). Else the branch's newest analysis (lookAtBranch).
 */
export async function lookAtNewest(
  server: AnalysisSource,
  projectKey: string,
  on: AnalysisScope,
  now: () => number
): Promise<Sighting> {
  const read = await readTasks(server, projectKey, now)
  if (unsettled(read.tasks, on)) return read
  return lookAtBranch(server, projectKey, on, [], false, now, read)
}

/**
 * Whether a task of the scope is queued or running, or its newest failed (which ends the wait,
 * wait-for-analysis.ts): then no analysis of it is taken.
 */
function unsettled(tasks: ComponentTasks, on: AnalysisScope): boolean {
  const { pending, failed } = awaitedTasks(tasks, on, [])
  return pending.length > 0 || failed !== undefined
}

/**
 * The awaited tasks (isAwaited) queued or running, and the project's last ended task when it is
 * one of them and ended FAILED or CANCELED.
 */
export function awaitedTasks(
  { queue, current }: ComponentTasks,
  on: AnalysisScope,
  commits: readonly string[]
): { pending: ComponentTask[]; failed: ComponentTask | undefined } {
  const failed =
    current && isAwaited(current, on, commits) && hasFailed(current) ? current : undefined
  return { pending: queue.filter((task) => isAwaited(task, on, commits)), failed }
}

/**
 * A pull request's poll: the project's tasks, and while none of the pull request's is pending
 * and its newest did not fail, the project's pull requests with the date of each one's newest
 * analysis (the server lists a pull request's analyses nowhere else, and records no commit of
 * them it shows): that analysis, if made after `since`.
 */
export async function lookAtPullRequest(
  server: AnalysisSource,
  projectKey: string,
  pullRequest: string,
  since: RunStart | undefined,
  expected: boolean,
  now: () => number
): Promise<Sighting> {
  const read = await readTasks(server, projectKey, now)
  const { tasks } = read
  const on = { pullRequest }
  if (unsettled(tasks, on)) return read
  const ended = tasks.current && inScope(tasks.current, on) ? tasks.current : undefined
  const pulls = await server.getPullRequests(projectKey)
  const pull = pulls.find(({ key }) => key === pullRequest)
  if (!pull) {
    const unknown = () => Promise.resolve(pullRequestsWords(projectKey, pullRequest, pulls))
    if (!expected)
      throw new AnalysisNotFoundError(msg`${await unknown()}: check ${theSetting('pullRequest')}.`)
    return { ...read, unknown }
  }
  const date = pull.analysisDate
  if (date === undefined) return read
  const at = Date.parse(date)
  if (since && !(at >= since.at)) return { ...read, newest: { date } }
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

/**
 * Whether a task is one the wait is for (inScope); for the newest analysis of the main branch
 * named by no name, only a task that names no branch: the main branch's name is not known, and
 * another branch's scan must not hold the wait.
 */
function isAwaited(task: ComponentTask, on: AnalysisScope, commits: readonly string[]): boolean {
  if (commits.length === 0 && on.branch === undefined && on.pullRequest === undefined) {
    return task.branch === undefined && task.pullRequest === undefined
  }
  return inScope(task, on)
}

/** The project's tasks, and when the server measured them (halfway through the request). */
async function readTasks(
  server: AnalysisSource,
  projectKey: string,
  now: () => number
): Promise<{ tasks: ComponentTasks; tasksAt: number }> {
  const sentAt = now()
  const tasks = await server.getComponentTasks(projectKey)
  return { tasks, tasksAt: (sentAt + now()) / 2 }
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
  const words = await branchesOnServer(server, projectKey, branch)
  if (words === undefined) return cause
  return new AnalysisNotFoundError(
    msg`${words}. Check ${theSetting('branch')}; a server that analyses one branch only (Community Edition) has its main branch alone.`,
    { cause }
  )
}

/** That the project has no such branch, and the branches it has; undefined when they cannot be read. */
async function branchesOnServer(
  server: AnalysisSource,
  projectKey: string,
  branch: string
): Promise<string | undefined> {
  const names = await server.getBranchNames(projectKey).catch(() => undefined)
  if (names === undefined) return undefined
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
export function isoSeconds(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
