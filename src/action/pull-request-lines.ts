import type { ChangedLines } from '../findings/changed-lines.js'
import { hasBranchAnalyses, narrowToChangedLines } from '../gate/on-changed-lines.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { PullRequest } from './event-pull-request.js'
import type { GitHubAccess } from './github-context.js'
import type * as GitHubModule from './platforms.js'

interface PullRequestLinesOptions extends GitHubAccess {
  pullRequest: PullRequest
}

/**
 * On a pull request whose analysis is of a branch (Community Edition has no pull-request
 * analysis): the branch's new-code issues narrowed to the lines the pull request adds or changes,
 * read once from GitHub's pull-request files API. When the lines cannot be read, one line says
 * so and the issues stay as they are. Analyses of the pull request itself are left alone.
 *
 * @example outcomes = await onPullRequestLines(outcomes, { pullRequest, token, env: process.env, log })
 */
export async function onPullRequestLines(
  outcomes: AnalysisOutcome[],
  options: PullRequestLinesOptions
): Promise<AnalysisOutcome[]> {
  if (!hasBranchAnalyses(outcomes)) return outcomes
  const number = options.pullRequest.issue_number
  const GitHub = await import('./platforms.js')
  let changed: ChangedLines
  try {
    changed = await readChangedLines(options, GitHub)
  } catch (error) {
    options.log.info(
      `The lines pull request #${number} changes could not be read (${GitHub.githubSaid(error)}): the new code's issues are shown as they are, not narrowed to its lines. Leave githubToken at its default, with permissions pull-requests: read.`
    )
    return outcomes
  }
  return narrowToChangedLines(outcomes, changed, `pull request #${number}`, options.log)
}

/** The pull request's changed lines per file, page by page (at most 30 pages of 100 files). */
async function readChangedLines(
  options: PullRequestLinesOptions,
  { gitHubApiOf, listChangedLines }: typeof GitHubModule
): Promise<ChangedLines> {
  const { pullRequest, token } = options
  if (!token) throw new Error('no GitHub token')
  const api = gitHubApiOf(token, options.env, options.decorateBy)
  if (!api) throw new Error('GITHUB_API_URL is not an http(s) address')
  try {
    const { owner, repo, issue_number: number } = pullRequest
    return await listChangedLines(
      api,
      `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
      number
    )
  } finally {
    api.close()
  }
}
