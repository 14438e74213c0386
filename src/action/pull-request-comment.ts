import { systemClock } from '../clock.js'
import type { FailPolicy } from '../fail-policy.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import {
  commentBody,
  commentVerdict,
  markerOf,
  outcomeMarker,
  shouldWrite,
  type CommentWhen
} from '../report/pull-request-comment-body.js'
import { ownIdentity } from '../platforms/own-identity.js'
import { setting, msg } from '../words.js'
import type { FileLink } from '../report/new-issues-block.js'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import {
  apiBase,
  GitHubApi,
  GITHUB_API_LIMITS,
  githubSaid,
  isRateLimit,
  isRefusal,
  statusOf
} from '../platforms/github/github-api.js'
import { accountId, ownAccount } from '../platforms/github/github.js'
import { eventPullRequest, PULL_REQUEST_EVENTS, type PullRequest } from './event-pull-request.js'
import { quote } from '../github-event.js'

/** How much of GitHub's replies and the runner's event file the comment reads. */
export const COMMENT_API_LIMITS = {
  ...GITHUB_API_LIMITS,
  /** Pages of comments searched for the marker, 100 comments each. */
  pages: 30,
  perPage: 100
} as const

interface PullRequestCommentOptions {
  /** When each project's comment is written (pullRequestComment): always by default. */
  when?: CommentWhen
  /** The githubToken input: the job's token by default. */
  token: string | undefined
  /** GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY and GITHUB_API_URL are read here. */
  env: NodeJS.ProcessEnv
  log: Log
  /**
   * The comment's sink (HTML, counted in characters, within GitHub's limit): every comment goes
   * through it, with the GitHub token hidden too.
   */
  sink: Sink
  /** Clock time GitHub's requests end by: the decoration's deadline (src/deadline.ts). */
  decorateBy: number
  /** Links a new issue's file to the file at the pull request's head, on GitHub. */
  fileLink?: FileLink
  /** The statuses that fail the step: a WARN or NONE gate it names is a failed one. */
  policy?: FailPolicy
}

/**
 * On `pull_request` and `pull_request_target` events, one comment per project on the pull
 * request: found again by its hidden marker and its author, the token's own account, and
 * updated in place, or created (never another's copy of the marker), one project after
 * the other in the outcomes' order. Never throws: a token that may not comment (a fork's
 * read-only token), a missing event file or an unreachable API is a warning that says what to
 * do. On any other event it logs one line and sends nothing.
 *
 * @example await commentOnPullRequest(outcomes, { token, env: process.env, log, sink: sinks.comment })
 */
export async function commentOnPullRequest(
  outcomes: readonly AnalysisOutcome[],
  options: PullRequestCommentOptions
): Promise<void> {
  const { token, log } = options
  // Every form of both tokens, as written and as the comment escapes it, is removed.
  const sink = options.sink.hiding(token ? [token] : [])
  const say = (message: string) => sink.text(message)
  try {
    await comment(outcomes, { ...options, sink }, (message) => log.warning(say(message)))
  } catch (error) {
    log.warning(
      say(`The pull request was not commented on: ${quote(error)}. The job goes on without it.`)
    )
  }
}

type Warn = (message: string) => void

async function comment(
  outcomes: readonly AnalysisOutcome[],
  options: PullRequestCommentOptions,
  warn: Warn
): Promise<void> {
  const { env, log, token } = options
  const event = env['GITHUB_EVENT_NAME'] ?? ''
  if (!PULL_REQUEST_EVENTS.includes(event)) {
    log.info(
      `The pullRequestComment input does nothing on ${event ? `${oneLine(event)} events` : 'this event'}: it comments on pull_request and pull_request_target events only.`
    )
    return
  }
  if (!token) {
    warn(
      'The pull request was not commented on: no GitHub token. Leave the githubToken input at its default (the job’s token, github.token) or set it to a token that may write pull requests.'
    )
    return
  }
  const found = await eventPullRequest(env)
  if ('problem' in found) {
    warn(`The pull request was not commented on: ${found.problem}.`)
    return
  }
  const target = found.pullRequest
  if (outcomes.length === 0) return
  const apiUrl = apiBase(env['GITHUB_API_URL'])
  if (!apiUrl) {
    warn(
      `The pull request was not commented on: GITHUB_API_URL is not an http(s) address (${oneLine(env['GITHUB_API_URL'] ?? '')}).`
    )
    return
  }

  const api = new GitHubApi({ token, apiUrl, deadline: options.decorateBy, clock: systemClock })
  try {
    await commentEach(api, target, outcomes, options, warn)
  } finally {
    api.close()
  }
}

/** Each outcome's comment, found again or created, one after the other. */
async function commentEach(
  api: GitHubApi,
  target: PullRequest,
  outcomes: readonly AnalysisOutcome[],
  options: PullRequestCommentOptions,
  warn: Warn
): Promise<void> {
  const { sink, fileLink, policy, log } = options
  const markerFor = (outcome: AnalysisOutcome) => sink.text(outcomeMarker(outcome))

  // Read only once a comment carries one of the markers: who may have written it matters then.
  let me: Promise<number | undefined> | undefined
  const identity = () =>
    (me ??= ownIdentity({ info: (line) => log.info(line), warning: warn }, 'GitHub', () =>
      ownAccount(api)
    ))
  let existing: Map<string, { id: number; body: string }>
  try {
    existing = await findComments(api, target, new Set(outcomes.map(markerFor)), identity)
  } catch (error) {
    warn(failureWords('read the comments of', target, error))
    return
  }
  for (const outcome of outcomes) {
    const marker = markerFor(outcome)
    // Within GitHub's limit, as the sink measures what it writes.
    const body = commentBody(outcome, target.headSha, { sink, fileLink, policy })
    const found = existing.get(marker)
    const id = found?.id
    const name = oneLine(projectName(outcome), QUOTE_LIMITS.short)
    const when = options.when ?? 'always'
    if (!shouldWrite(when, commentVerdict(outcome, policy), found?.body)) {
      log.info(
        msg`The comment on pull request #${target.issue_number} for ${name} is left as it is (${setting('comment')}: ${when}).`
      )
      continue
    }
    try {
      const written = await publish(api, target, { id, body })
      // Two outcomes naming one project share one comment: the later one updates it.
      if (written.id !== undefined) existing.set(marker, { id: written.id, body })
      log.info(
        written.updated
          ? `Updated the comment on pull request #${target.issue_number} for ${name}.`
          : `Commented on pull request #${target.issue_number} for ${name}.`
      )
    } catch (error) {
      warn(failureWords(id !== undefined ? 'update its comment on' : 'comment on', target, error))
      // The same token fails the same way for every project: one warning says it.
      if (isRefusal(error)) return
    }
  }
}

/**
 * Updates comment `id` in place, or creates the comment when there is none, or when it was
 * deleted since it was found (a 404 on the update).
 */
async function publish(
  api: GitHubApi,
  target: PullRequest,
  { id, body }: { id: number | undefined; body: string }
): Promise<{ updated: boolean; id: number | undefined }> {
  if (id !== undefined) {
    try {
      await api.request('PATCH', `${repoPath(target)}/issues/comments/${id}`, { body: { body } })
      return { updated: true, id }
    } catch (error) {
      if (statusOf(error) !== 404) throw error
    }
  }
  const { body: reply } = await api.request('POST', commentsPath(target), { body: { body } })
  return { updated: false, id: accountId((reply as { id?: unknown } | undefined)?.id) }
}

/**
 * Our comments, by marker, read a page at a time (at most 30 pages of 100): the first comment
 * carrying the marker whose author is the token's own account, asked of `identity` once a
 * comment carries one. Anyone's copy of a marker is left alone; with the account unknown, none
 * is ours. The next page is asked for by its number, never by the address the reply names: the
 * token goes to the API's address only.
 */
async function findComments(
  api: GitHubApi,
  target: PullRequest,
  markers: ReadonlySet<string>,
  identity: () => Promise<number | undefined>
): Promise<Map<string, { id: number; body: string }>> {
  const found = new Map<string, { id: number; body: string }>()
  for (let page = 1; page <= COMMENT_API_LIMITS.pages && found.size < markers.size; page++) {
    const reply = await api.request('GET', commentsPath(target), {
      query: { per_page: String(COMMENT_API_LIMITS.perPage), page: String(page) }
    })
    const comments: unknown = reply.body
    if (!Array.isArray(comments)) break
    for (const item of comments as unknown[]) {
      const comment = asComment(item)
      const marker = markerOf(comment?.body)
      if (!comment || marker === undefined || !markers.has(marker) || found.has(marker)) continue
      const me = await identity()
      if (me === undefined) return found
      if (comment.author === me) found.set(marker, { id: comment.id, body: comment.body })
    }
    if (comments.length === 0 || !/rel="next"/.test(reply.header('link') ?? '')) break
  }
  return found
}

/** A comment as the listing gives it, its shape checked: the reply is not trusted. */
function asComment(
  item: unknown
): { id: number; body: string; author: number | undefined } | undefined {
  if (typeof item !== 'object' || item === null) return undefined
  const { id, body, user } = item as { id?: unknown; body?: unknown; user?: unknown }
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof body !== 'string') {
    return undefined
  }
  const author =
    typeof user === 'object' && user !== null ? (user as { id?: unknown }).id : undefined
  return { id, body, author: accountId(author) }
}

/** `repos/octo/app`: the pull request's repository under the API. */
function repoPath({ owner, repo }: PullRequest): string {
  return `repos/${owner}/${repo}`
}

/** The pull request's comments (an issue's, to GitHub). */
function commentsPath(target: PullRequest): string {
  return `${repoPath(target)}/issues/${target.issue_number}/comments`
}

/** What went wrong, in words that say what to do. */
function failureWords(doing: string, target: PullRequest, error: unknown): string {
  const where = `pull request #${target.issue_number}`
  const said = githubSaid(error)
  if (isRateLimit(error)) {
    return `Could not ${doing} ${where}: GitHub's API rate limit was reached (${said}). The comment is left as it was; the next run updates it.`
  }
  if (isRefusal(error)) {
    return [
      `The GitHub token may not ${doing} ${where} (${said}).`,
      'Grant the job `permissions: pull-requests: write`.',
      'Pull requests from forks get a read-only token whatever the workflow asks: to comment on them, run on `pull_request_target`, which runs the base branch’s workflow with a writable token (never build or run the fork’s code with it).'
    ].join('\n')
  }
  if (statusOf(error) === 401) {
    return `The GitHub token was refused when trying to ${doing} ${where} (${said}): check the githubToken input.`
  }
  return `Could not ${doing} ${where} (${said}). The job goes on without the comment.`
}
