import { SettingsError } from '../errors.js'
import type { Log } from '../log.js'
import { eventObject } from '../github-event.js'
import { takeRunScope, type RunScope } from '../run-scope.js'
import { isBranchName, isFullSha, runStart } from '../settings.js'
import { oneLine } from '../untrusted-text.js'
import { setting, msg, type Said } from '../words.js'
import type { GitHubContext } from './github-context.js'
import type { ActionSettings } from './settings.js'

/**
 * With `projectKey`, the branch or pull request and the commit from the run, where the inputs
 * do not give them (an input given always wins; a branch or pull request given leaves the
 * commit to the inputs too): on a pull request its number, and its head or merge commit (a scan
 * records the commit it checked out: the merge commit, unless sonar.scm.revision says
 * otherwise; SonarQube Cloud's automatic analysis records the head); on push the branch and
 * GITHUB_SHA; on workflow_run the triggering run's; on workflow_dispatch and schedule nothing:
 * the newest analysis. One line of the log says what was taken. A pull request the run is about
 * but cannot name is a SettingsError that says which input to pass: checking the main branch
 * instead would give another analysis's verdict.
 *
 * @example settings = await withTheRunsAnalysis(settings, github, process.env, log, deadline)
 */
export async function withTheRunsAnalysis(
  settings: ActionSettings,
  github: GitHubContext,
  env: NodeJS.ProcessEnv,
  log: Log,
  /** Clock time of the overall time-out: a fork's pull request is asked of GitHub within it. */
  deadline: number
): Promise<ActionSettings> {
  if (settings.projectKeys.length === 0) return settings
  if (settings.branch || settings.pullRequest || settings.commits.length > 0) return settings
  const find = pullRequestFinder(settings.gitHubToken, github.repository, env, deadline)
  const run = await runAnalysis(github, env, find)
  if ('problem' in run) throw new SettingsError(run.problem)
  return takeRunScope(settings, run, log)
}

/** The run's analysis from its event, or why it cannot be known. */
async function runAnalysis(
  github: GitHubContext,
  env: NodeJS.ProcessEnv,
  findPullRequest?: FindPullRequest
): Promise<RunScope | { problem: Said }> {
  const event = github.event
  const from = `the ${oneLine(event || 'unknown')} event`
  const sha = (env['GITHUB_SHA'] ?? '').toLowerCase()
  const runSha = isFullSha(sha) ? [sha] : []
  switch (event) {
    case 'pull_request':
    case 'pull_request_target': {
      const pull = github.pullRequest
      if (!pull) {
        return {
          problem: `The run's pull request is unknown (${github.pullRequestProblem ?? 'the event names none'}): pass pullRequest and commit to say which analysis to check.`
        }
      }
      const head = pull.headSha.toLowerCase()
      const commits = [...new Set([head, ...runSha].filter(isFullSha))]
      const since = runStart(pull.updatedAt, "the pull request's last update")
      return { pullRequest: String(pull.issue_number), commits, ...(since ? { since } : {}), from }
    }
    case 'workflow_dispatch':
    case 'schedule':
      return { commits: [], from }
    case 'workflow_run':
      return triggeringRun(env, from, findPullRequest)
    default: {
      const ref = env['GITHUB_REF'] ?? ''
      const branch = ref.startsWith('refs/heads/') ? branchName(ref.slice(11)) : undefined
      return { ...(branch ? { branch } : {}), commits: runSha, from }
    }
  }
}

/**
 * Finds the open pull request whose head is `branch` of the repository `owner` (a fork's, when
 * GitHub names none in a workflow_run event): its number, or why it cannot be found.
 */
type FindPullRequest = (head: {
  owner: string
  branch: string
  sha: string
}) => Promise<{ number: number } | { problem: Said }>

/**
 * The run that triggered a workflow_run: its pull request, else its branch, and its head commit;
 * no scan of it started before the run was created. GitHub names no pull request for one from a
 * fork, the case this pattern serves: it is found through GitHub's API by the fork's owner and
 * branch, or the user is told which input to pass.
 */
async function triggeringRun(
  env: NodeJS.ProcessEnv,
  from: string,
  findPullRequest: FindPullRequest | undefined
): Promise<RunScope | { problem: Said }> {
  const run = await eventObject(env['GITHUB_EVENT_PATH'], 'workflow_run')
  if (!run) {
    return {
      problem:
        'The workflow_run event file names no triggering run: pass branch or pullRequest, and commit, to say which analysis to check.'
    }
  }
  const headSha = typeof run['head_sha'] === 'string' ? run['head_sha'].toLowerCase() : ''
  const commits = isFullSha(headSha) ? [headSha] : []
  const since = runStart(run['created_at'], "the triggering run's creation")
  const pullRequest = (number: number): RunScope => ({
    pullRequest: String(number),
    commits,
    ...(since ? { since } : {}),
    from
  })
  const pulls = Array.isArray(run['pull_requests']) ? (run['pull_requests'] as unknown[]) : []
  const number = (pulls[0] as { number?: unknown } | undefined)?.number
  if (isPullRequestNumber(number)) return pullRequest(number)
  if (run['event'] === 'pull_request' || run['event'] === 'pull_request_target') {
    const head = run['head_repository'] as { owner?: { login?: unknown } } | undefined
    const owner = head?.owner?.login
    const branch = run['head_branch']
    const toPass = msg`pass ${setting('pullRequest')} to say which pull request to check.`
    if (typeof owner !== 'string' || typeof branch !== 'string' || commits.length === 0) {
      return {
        problem: msg`The triggering run is of a pull request from a fork, which GitHub does not name in the workflow_run event, and the event does not say its head repository and branch: ${toPass}`
      }
    }
    if (!findPullRequest) {
      return {
        problem: msg`The triggering run is of a pull request from a fork, which GitHub does not name in the workflow_run event: set ${setting('gitHubToken')} to let the action find it through GitHub's API, or ${toPass}`
      }
    }
    const found = await findPullRequest({ owner, branch, sha: commits[0]! })
    if ('problem' in found) return { problem: msg`${found.problem}: ${toPass}` }
    return {
      ...pullRequest(found.number),
      from: `${from} (its pull request found through GitHub's API)`
    }
  }
  const branch = typeof run['head_branch'] === 'string' ? branchName(run['head_branch']) : undefined
  return { ...(branch ? { branch } : {}), commits, from }
}

function isPullRequestNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}

/** A branch name from the run, if it can be one. */
function branchName(name: string): string | undefined {
  return isBranchName(name) ? name : undefined
}

/** How many open pull requests of one head branch are read: one page. */
const PULLS_READ = 100

/**
 * Finds a workflow_run's pull request from a fork through GitHub's API (`GET
 * /repos/{owner}/{repo}/pulls?head={fork owner}:{branch}&state=open`, one page, the token's
 * pull-requests read permission): the one at the run's head commit, else the only one of that
 * branch. Undefined without a token or a repository to ask about.
 *
 * @example const find = pullRequestFinder(settings.gitHubToken, github.repository, process.env, deadline)
 */
function pullRequestFinder(
  token: string | undefined,
  repository: GitHubContext['repository'],
  env: NodeJS.ProcessEnv,
  /** Clock time the request ends by: the overall time-out's. */
  deadline: number
): FindPullRequest | undefined {
  if (!token || !repository) return undefined
  const { owner, repo } = repository
  return async (head) => {
    // Loaded when a fork's run is looked for, not at every start.
    const { gitHubApiOf, githubSaid } = await import('./platforms.js')
    const api = gitHubApiOf(token, env, deadline)
    if (!api) return { problem: 'GITHUB_API_URL is not an http(s) address' }
    const where = `${oneLine(head.owner)}:${oneLine(head.branch)}`
    let pulls: { number: number; head: { sha: string } }[]
    try {
      const { body } = await api.request('GET', `repos/${owner}/${repo}/pulls`, {
        query: { head: `${head.owner}:${head.branch}`, state: 'open', per_page: String(PULLS_READ) }
      })
      pulls = Array.isArray(body) ? (body as typeof pulls) : []
    } catch (error) {
      return {
        problem: `GitHub's API could not list the pull requests of ${where} (${githubSaid(error)}); the token needs the pull-requests read permission`
      }
    } finally {
      api.close()
    }
    const numbered = pulls.filter(
      (pull) => typeof pull.number === 'number' && Number.isSafeInteger(pull.number)
    )
    const atHead = numbered.filter((pull) => pull.head?.sha?.toLowerCase() === head.sha)
    const [found] = atHead.length > 0 ? atHead : numbered.length === 1 ? numbered : []
    if (atHead.length > 1 || !found) {
      return {
        problem:
          numbered.length === 0
            ? `GitHub has no open pull request of ${where}`
            : `GitHub has ${numbered.length} open pull requests of ${where}, none at its commit ${head.sha.slice(0, 7)}`
      }
    }
    return { number: found.number }
  }
}
