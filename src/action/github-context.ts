import type { AnalysisOutcome } from '../gate/outcome.js'
import { fileLinkUnder, type FileLink } from '../report/new-issues-block.js'
import type { Log } from '../log.js'
import { isFullSha } from '../settings.js'
import {
  eventPullRequest,
  PULL_REQUEST_EVENTS,
  repositoryOf,
  type PullRequest
} from './event-pull-request.js'

/** What each GitHub feature of the action (comment, check run, changed lines) is given. */
export interface GitHubAccess {
  /** The githubToken input. */
  token: string | undefined
  /** The runner's variables: the event, the repository, GITHUB_API_URL. */
  env: NodeJS.ProcessEnv
  log: Log
  /** Clock time GitHub's requests end by: the decoration's deadline (src/deadline.ts). */
  decorateBy: number
}

/** What the action knows of the workflow run on GitHub, for its GitHub features. */
export interface GitHubContext {
  /** GITHUB_EVENT_NAME. */
  event: string
  /** The event's pull request, on pull_request and pull_request_target events. */
  pullRequest: PullRequest | undefined
  /** Why the pull request of a pull-request event could not be known. */
  pullRequestProblem: string | undefined
  /**
   * The commit the analysis is of: the pull request's head on pull-request events (where
   * GITHUB_SHA is the merge commit), GITHUB_SHA otherwise; undefined when neither is a commit id.
   */
  headSha: string | undefined
  /** owner/name, when GITHUB_REPOSITORY is one. */
  repository: { owner: string; repo: string } | undefined
  /** Links to a file of the checkout at headSha on GitHub, when both are known. */
  fileLink: FileLink | undefined
}

/**
 * The run's GitHub context from the runner's environment; the event file is read only on
 * pull-request events. Never throws: what cannot be known is undefined, with the reason.
 *
 * @example const github = await githubContext(process.env)
 */
export async function githubContext(env: NodeJS.ProcessEnv): Promise<GitHubContext> {
  const event = env['GITHUB_EVENT_NAME'] ?? ''
  const found = PULL_REQUEST_EVENTS.includes(event) ? await eventPullRequest(env) : undefined
  const pullRequest = found && 'pullRequest' in found ? found.pullRequest : undefined
  const sha = env['GITHUB_SHA'] ?? ''
  const headSha = pullRequest?.headSha ?? (isFullSha(sha) ? sha : undefined)
  const repository = repositoryOf(env)
  const server = webBase(env['GITHUB_SERVER_URL'])
  return {
    event,
    pullRequest,
    pullRequestProblem: found && 'problem' in found ? found.problem : undefined,
    headSha,
    repository,
    fileLink:
      repository && headSha && server
        ? fileLinkUnder(`${server}/${repository.owner}/${repository.repo}/blob/${headSha}`)
        : undefined
  }
}

/**
 * On a pull request, the branch analyses' new issues narrowed to the lines it changes; loaded
 * only then.
 */
export async function onThePullRequest(
  outcomes: AnalysisOutcome[],
  { pullRequest }: GitHubContext,
  options: GitHubAccess
): Promise<AnalysisOutcome[]> {
  if (!pullRequest) return outcomes
  const { onPullRequestLines } = await import('./pull-request-lines.js')
  return onPullRequestLines(outcomes, { ...options, pullRequest })
}

/** GitHub's web address (GITHUB_SERVER_URL, default github.com) when it is http(s). */
function webBase(value: string | undefined): string | undefined {
  try {
    const url = new URL(value?.trim() || 'https://github.com')
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
      return undefined
    }
    return url.href.replace(/\/+$/, '')
  } catch {
    return undefined
  }
}
