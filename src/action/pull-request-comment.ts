/**
 * The action's pull-request comment: the one driver (src/platforms/decorate.ts) with the comment
 * alone (`commentOnly`), on GitHub, or on Gitea and Forgejo when their Actions run the action.
 * Those runners set the `GITHUB_*` variables too, GITHUB_API_URL being their own `/api/v1`: the
 * comment goes to their API, never to GitHub's, in Markdown. One comment per project, found again
 * by its marker and the token's own identity, edited in place. Never throws: what goes wrong is
 * one line that says what to do, and the verdict is the gate's.
 */
import { giteaActions, giteaRepository } from '../ci/gitea-repository.js'
import { systemClock } from '../clock.js'
import { quotedSaidOf } from '../errors.js'
import type { FailPolicy } from '../fail-policy.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { PlatformRefusal } from '../http/rest-api.js'
import type { ReviewPlatform } from '../platforms/review-platform.js'
import type { CommentWhen } from '../report/comment-settings.js'
import type { FileLink } from '../report/new-issues-block.js'
import type { Sink } from '../sink.js'
import { oneLine } from '../untrusted-text.js'
import { msg, type Said } from '../words.js'
import { eventPullRequest, PULL_REQUEST_EVENTS, type PullRequest } from './event-pull-request.js'
import type { GitHubAccess } from './github-context.js'
import { USER_AGENT } from './names.js'
import type * as GitHubModule from './platforms.js'

/** On Gitea and Forgejo, the githubToken input (the job's token by default) is the forge's own. */
interface PullRequestCommentOptions extends GitHubAccess {
  /** When each project's comment is written (pullRequestComment): always by default. */
  when?: CommentWhen
  /** The comment's sinks, every token's forms hidden: HTML on GitHub, Markdown on the forges. */
  sinks: { html: Sink; markdown: Sink }
  /** Links a new issue's file to the file at the pull request's head, on GitHub. */
  fileLink?: FileLink | undefined
  /** The statuses that fail the step: a WARN or NONE gate it names is a failed one. */
  policy: FailPolicy
}

/**
 * Each project's comment on the run's pull request; on any other event one line, and nothing
 * sent.
 *
 * @example await commentOnPullRequest(outcomes, { token, env: process.env, log, sinks, policy, decorateBy })
 */
export async function commentOnPullRequest(
  outcomes: readonly AnalysisOutcome[],
  options: PullRequestCommentOptions
): Promise<void> {
  const { log } = options
  try {
    const opened = giteaActions(options.env)
      ? await onForge(options)
      : await onGitHub(options, outcomes.length)
    if (!opened) return
    if ('problem' in opened) {
      log.warning(msg`The pull request was not commented on: ${opened.problem}.`)
      return
    }
    const { platform, secret, markdown } = opened
    const { decorate } = await import('./platforms.js')
    try {
      await decorate(platform, outcomes, {
        sink: (markdown ? options.sinks.markdown : options.sinks.html).hiding([secret]),
        policy: options.policy,
        commentWhen: options.when ?? 'always',
        inlineLimit: 0,
        inlineSeverity: 'info',
        fileLink: markdown ? undefined : options.fileLink,
        log
      })
    } finally {
      platform.close()
    }
  } catch (error) {
    log.warning(
      msg`The pull request was not commented on: ${quotedSaidOf(error)}. The job goes on without it.`
    )
  }
}

/** The platform to comment on, why not (a warning's words), or undefined for a line said. */
type Opened =
  { platform: ReviewPlatform; secret: string; markdown: boolean } | { problem: Said } | undefined

/** GitHub's pull request of a `pull_request` or `pull_request_target` event. */
async function onGitHub(options: PullRequestCommentOptions, count: number): Promise<Opened> {
  const { env, token, log } = options
  const event = env['GITHUB_EVENT_NAME'] ?? ''
  if (!PULL_REQUEST_EVENTS.includes(event)) {
    log.info(
      `The pullRequestComment input does nothing on ${event ? `${oneLine(event)} events` : 'this event'}: it comments on pull_request and pull_request_target events only.`
    )
    return undefined
  }
  if (!token) {
    return {
      problem:
        'no GitHub token. Leave the githubToken input at its default (the job’s token, github.token) or set it to a token that may write pull requests'
    }
  }
  const found = await eventPullRequest(env)
  if ('problem' in found) return found
  if (count === 0) return undefined
  const GitHub = await import('./platforms.js')
  const api = GitHub.gitHubApiOf(token, env, options.decorateBy)
  if (!api) {
    return {
      problem: `GITHUB_API_URL is not an http(s) address (${oneLine(env['GITHUB_API_URL'] ?? '')})`
    }
  }
  const target = found.pullRequest
  const github = GitHub.githubPlatform(api, {
    owner: target.owner,
    repo: target.repo,
    commit: target.headSha,
    pullRequest: target.issue_number,
    names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event file', api: 'GITHUB_API_URL' }
  })
  const platform = commentOnly(github)
  platform.refusal = (error) => refusalWords(error, target, GitHub)
  return { platform, secret: token, markdown: false }
}

/** Gitea's or Forgejo's pull request, when their Actions run the action. */
async function onForge(options: PullRequestCommentOptions): Promise<Opened> {
  const { env, log } = options
  const found = await giteaRepository(env, {})
  if ('missing' in found) return { problem: found.missing }
  if (found.pullRequest === undefined) {
    log.info(
      `The comment is written on pull request events only: ${found.kind} Actions names no pull request here.`
    )
    return undefined
  }
  const secret = options.token ?? found.token
  if (!secret) {
    return {
      problem: `no token. Leave the githubToken input at its default (the job's token), or set it to a ${found.kind} token that may write issues`
    }
  }
  const { giteaPlatform, RestApi } = await import('./platforms.js')
  const rest = new RestApi({
    platform: found.kind,
    apiUrl: found.apiUrl,
    token: secret,
    headers: { authorization: `token ${secret}` },
    redirectAdvice: `GITHUB_API_URL must be the address ${found.kind}'s API answers at.`,
    userAgent: USER_AGENT,
    clock: systemClock,
    deadline: options.decorateBy
  })
  return { platform: commentOnly(giteaPlatform(rest, found)), secret, markdown: true }
}

/**
 * The platform with the pull request's comment alone: the job's own check is the forge's status,
 * the check run and the annotations carry the issues, and the action has narrowed them to the
 * pull request's lines before its summary (src/action/pull-request-lines.ts).
 */
function commentOnly(platform: ReviewPlatform): ReviewPlatform {
  const { review } = platform
  return {
    ...platform,
    setStatus: undefined,
    writeReport: undefined,
    review: review && { ...review, changedLines: undefined, inline: undefined }
  }
}

/**
 * GitHub's refusal, in the action's words: what to grant the job, and the forks' case (their
 * pull requests get a read-only token whatever the workflow asks).
 */
function refusalWords(
  error: PlatformRefusal,
  target: PullRequest,
  { githubSaid, isRateLimit }: typeof GitHubModule
): string {
  const where = `pull request #${target.issue_number}`
  const said = githubSaid(error)
  if (isRateLimit(error)) {
    return `Could not comment on ${where}: GitHub's API rate limit was reached (${said}). The comment is left as it was; the next run updates it.`
  }
  if (error.status === 401) {
    return `The GitHub token was refused when trying to comment on ${where} (${said}): check the githubToken input.`
  }
  return [
    `The GitHub token may not comment on ${where} (${said}).`,
    'Grant the job `permissions: pull-requests: write`.',
    'Pull requests from forks get a read-only token whatever the workflow asks: to comment on them, run on `pull_request_target`, which runs the base branch’s workflow with a writable token (never build or run the fork’s code with it).'
  ].join('\n')
}
