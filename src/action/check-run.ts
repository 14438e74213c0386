/**
 * The action's issues check run (issuesCheckRun): the one driver (src/platforms/decorate.ts) with
 * GitHub's check run alone, one per project whose new issues were read, "Sonar issues: <project>",
 * on the commit analysed (the pull request's head, not the merge commit), every located issue an
 * annotation (src/platforms/github/check-run.ts), concluded `failure` when the gate fails the
 * policy and `neutral` otherwise: the job's own check carries the verdict. Never throws: a token
 * that may not create check runs (a fork's, or without `checks: write`) is one warning.
 */
import type { FailPolicy } from '../fail-policy.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { PlatformRefusal } from '../http/rest-api.js'
import type { FileLink } from '../report/new-issues-block.js'
import type { Sink } from '../sink.js'
import { oneLine } from '../untrusted-text.js'
import type { GitHubAccess, GitHubContext } from './github-context.js'
import type * as GitHubModule from './platforms.js'

interface CheckRunOptions extends GitHubAccess {
  github: GitHubContext
  /** Every text sent (the summary, each annotation's title and message) goes through it. */
  sink: Sink
  policy: FailPolicy
  fileLink?: FileLink | undefined
}

/**
 * One completed check run per project whose new issues were read.
 *
 * @example await createCheckRuns(outcomes, { github, token, env: process.env, log, sink: sinks.checkRun, policy, decorateBy })
 */
export async function createCheckRuns(
  outcomes: readonly AnalysisOutcome[],
  options: CheckRunOptions
): Promise<void> {
  const { github, token, log } = options
  const withIssues = outcomes.filter((outcome) => outcome.read && outcome.result.newIssues?.read)
  if (withIssues.length === 0) return
  const GitHub = await import('./platforms.js')
  const api =
    token && github.repository && github.headSha
      ? GitHub.gitHubApiOf(token, options.env, options.decorateBy)
      : undefined
  if (!token || !github.repository || !github.headSha || !api) {
    log.warning(`No issues check run was created: ${whatIsMissing(token, github)}.`)
    return
  }
  const platform = GitHub.githubPlatform(
    api,
    {
      ...github.repository,
      commit: github.headSha,
      pullRequest: undefined,
      names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event', api: 'GITHUB_API_URL' }
    },
    {
      checkRuns: {
        name: (verdict) => `Sonar issues: ${oneLine(verdict.label, 80)}`,
        passing: 'neutral'
      }
    }
  )
  try {
    await GitHub.decorate(
      {
        ...platform,
        review: undefined,
        noReview: undefined,
        refusal: (error) => refusalWords(error, GitHub)
      },
      withIssues,
      {
        sink: options.sink.hiding([token]),
        policy: options.policy,
        fileLink: options.fileLink,
        commentWhen: 'always',
        inlineLimit: 0,
        inlineSeverity: 'info',
        log
      }
    )
  } finally {
    api.close()
  }
}

/** What the check run lacks, first things first (called once something is). */
function whatIsMissing(token: string | undefined, { repository, headSha }: GitHubContext): string {
  if (!token) return 'no GitHub token (leave githubToken at its default)'
  if (!repository) return 'GITHUB_REPOSITORY is not owner/name'
  if (!headSha) return 'the commit analysed is unknown (GITHUB_SHA)'
  return 'GITHUB_API_URL is not an http(s) address'
}

/** GitHub's refusal, in the action's words: the permission to grant, and the forks' case. */
function refusalWords(
  error: PlatformRefusal,
  { githubSaid, isRateLimit }: typeof GitHubModule
): string {
  if (isRateLimit(error) || error.status === 401) {
    return `Could not create the issues check run (${githubSaid(error)}): ${isRateLimit(error) ? "GitHub's API rate limit was reached" : 'the token was refused; check the githubToken input'}. The job goes on without it.`
  }
  return [
    `The GitHub token may not create check runs (${githubSaid(error)}): the issues check run is left out.`,
    'Grant the job `permissions: checks: write`. Pull requests from forks get a read-only token whatever the workflow asks.'
  ].join('\n')
}
