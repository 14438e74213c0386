import { createReadStream } from 'node:fs'
import type { getOctokit } from '@actions/github'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import {
  commentBody,
  COMMENT_LIMITS,
  markerOf,
  outcomeMarker
} from '../report/pull-request-comment-body.js'
import { summaryForms } from '../report/summary-text.js'
import { redactSecrets } from '../secrets.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/** The events whose pull request gets the comment. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target']

/** How much of GitHub's replies and the runner's event file the comment reads, and how long. */
export const COMMENT_API_LIMITS = {
  /** The event payload file (GitHub caps webhook payloads at 25 MB). */
  eventFileBytes: 25 * 1024 * 1024,
  /** Pages of comments searched for the marker, 100 comments each. */
  pages: 30,
  perPage: 100,
  /** One reply of the API (100 comments of 65,536 characters, JSON-escaped, fit). */
  replyBytes: 64 * 1024 * 1024,
  /** Everything the comment does with GitHub's API, all projects together. */
  totalMs: 120_000
} as const

const DEFAULT_API_URL = 'https://api.github.com'

export interface PullRequestCommentOptions {
  /** The githubToken input: the job's token by default. */
  token: string | undefined
  /** GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY and GITHUB_API_URL are read here. */
  env: NodeJS.ProcessEnv
  log: Log
  /** Every form of the Sonar token: removed from every comment. */
  secrets: readonly string[]
  /** The fetch Octokit sends with (tests); by default `@actions/github`'s, which honours proxies. */
  fetch?: typeof globalThis.fetch
}

/**
 * On `pull_request` and `pull_request_target` events, one comment per project on the pull
 * request: found again by its hidden marker and updated in place, or created, one project after
 * the other in the outcomes' order. Never throws: a token that may not comment (a fork's
 * read-only token), a missing event file or an unreachable API is a warning that says what to
 * do. On any other event it logs one line and sends nothing. `@actions/github` is loaded here
 * only, so a run without the comment never loads it.
 *
 * @example await commentOnPullRequest(outcomes, { token, env: process.env, log, secrets })
 */
export async function commentOnPullRequest(
  outcomes: readonly AnalysisOutcome[],
  options: PullRequestCommentOptions
): Promise<void> {
  const { token, log } = options
  const hidden = [...options.secrets, ...(token ? [token] : [])]
  const say = (message: string) => redactSecrets(message, hidden)
  try {
    await comment(outcomes, options, (message) => log.warning(say(message)))
  } catch (error) {
    log.warning(
      say(`The pull request was not commented on: ${quote(error)}. The job goes on without it.`)
    )
  }
}

type Warn = (message: string) => void

/** Where the comments go. */
interface PullRequest {
  owner: string
  repo: string
  issue_number: number
  headSha: string
}

type Octokit = ReturnType<typeof getOctokit>

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
  const target = await pullRequest(env, warn)
  if (!target || outcomes.length === 0) return
  const apiUrl = apiBase(env['GITHUB_API_URL'])
  if (!apiUrl) {
    warn(
      `The pull request was not commented on: GITHUB_API_URL is not an http(s) address (${oneLine(env['GITHUB_API_URL'] ?? '')}).`
    )
    return
  }

  const octokit = await connect(token, apiUrl, options)
  const signal = AbortSignal.timeout(COMMENT_API_LIMITS.totalMs)
  // Every form of both tokens, as written and as the comment escapes it, is removed.
  const forms = summaryForms([...options.secrets, token])
  const markerFor = (outcome: AnalysisOutcome) => redactSecrets(outcomeMarker(outcome), forms)

  let existing: Map<string, number>
  try {
    existing = await findComments(octokit, target, new Set(outcomes.map(markerFor)), signal)
  } catch (error) {
    warn(failureWords('read the comments of', target, error))
    return
  }
  for (const outcome of outcomes) {
    const marker = markerFor(outcome)
    const body = fitted(outcome, target.headSha, forms)
    const id = existing.get(marker)
    const name = oneLine(projectName(outcome), QUOTE_LIMITS.short)
    try {
      const written = await publish(octokit, target, { id, body, signal })
      // Two outcomes naming one project share one comment: the later one updates it.
      if (written.id !== undefined) existing.set(marker, written.id)
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
  octokit: Octokit,
  target: PullRequest,
  { id, body, signal }: { id: number | undefined; body: string; signal: AbortSignal }
): Promise<{ updated: boolean; id: number | undefined }> {
  const repo = repoOf(target)
  if (id !== undefined) {
    try {
      await octokit.rest.issues.updateComment({
        ...repo,
        comment_id: id,
        body,
        request: { signal }
      })
      return { updated: true, id }
    } catch (error) {
      if (statusOf(error) !== 404) throw error
    }
  }
  const { data } = await octokit.rest.issues.createComment({
    ...repo,
    issue_number: target.issue_number,
    body,
    request: { signal }
  })
  const created: unknown = data?.id
  return { updated: false, id: typeof created === 'number' ? created : undefined }
}

/**
 * The comment's body without a secret, within GitHub's limit even should the redaction lengthen
 * it (a secret shorter than `***`).
 */
function fitted(outcome: AnalysisOutcome, headSha: string, forms: readonly string[]): string {
  const body = redactSecrets(commentBody(outcome, headSha), forms)
  if (body.length <= COMMENT_LIMITS.githubChars) return body
  return redactSecrets(
    commentBody(outcome, headSha, { maxChars: COMMENT_LIMITS.githubChars / 4 }),
    forms
  ).slice(0, COMMENT_LIMITS.githubChars)
}

/**
 * The comments carrying the markers, by marker, read a page at a time (at most 30 pages of
 * 100). A comment by a bot account (the job's token comments as github-actions[bot]) wins over
 * one by a person that happens to carry the marker; the first one wins among equals. The next
 * page is asked for by its number, never by the address the reply names: the token goes to the
 * API's address only.
 */
async function findComments(
  octokit: Octokit,
  target: PullRequest,
  markers: ReadonlySet<string>,
  signal: AbortSignal
): Promise<Map<string, number>> {
  const found = new Map<string, { id: number; byBot: boolean }>()
  const allByBots = () => found.size === markers.size && [...found.values()].every((c) => c.byBot)
  for (let page = 1; page <= COMMENT_API_LIMITS.pages && !allByBots(); page++) {
    const response = await octokit.rest.issues.listComments({
      ...repoOf(target),
      issue_number: target.issue_number,
      per_page: COMMENT_API_LIMITS.perPage,
      page,
      request: { signal }
    })
    const comments: unknown = response.data
    if (!Array.isArray(comments)) break
    for (const item of comments as unknown[]) {
      const comment = asComment(item)
      const marker = markerOf(comment?.body)
      if (!comment || marker === undefined || !markers.has(marker)) continue
      const before = found.get(marker)
      if (!before || (!before.byBot && comment.byBot)) found.set(marker, comment)
    }
    if (comments.length === 0 || !/rel="next"/.test(String(response.headers.link ?? ''))) break
  }
  return new Map([...found].map(([marker, { id }]) => [marker, id]))
}

/** A comment as the listing gives it, its shape checked: the reply is not trusted. */
function asComment(item: unknown): { id: number; body: string; byBot: boolean } | undefined {
  if (typeof item !== 'object' || item === null) return undefined
  const { id, body, user } = item as { id?: unknown; body?: unknown; user?: unknown }
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof body !== 'string') {
    return undefined
  }
  const type =
    typeof user === 'object' && user !== null ? (user as { type?: unknown }).type : undefined
  return { id, body, byBot: type === 'Bot' }
}

/** `@actions/github`, loaded only now, with replies bounded in size and quiet about itself. */
async function connect(
  token: string,
  baseUrl: string,
  options: PullRequestCommentOptions
): Promise<Octokit> {
  const [{ getOctokit }, { defaults }] = await Promise.all([
    import('@actions/github'),
    import('@actions/github/lib/utils')
  ])
  const fetch: typeof globalThis.fetch =
    options.fetch ??
    (defaults.request?.fetch as typeof globalThis.fetch | undefined) ??
    globalThis.fetch
  // Octokit writes its own warnings (a deprecated endpoint...) to the console: they go through
  // the log's gate instead, as information.
  const quiet = {
    debug: () => {},
    info: () => {},
    warn: (message: string) =>
      options.log.info(`GitHub's API: ${oneLine(message, QUOTE_LIMITS.long)}`),
    error: (message: string) =>
      options.log.info(`GitHub's API: ${oneLine(message, QUOTE_LIMITS.long)}`)
  }
  return getOctokit(token, {
    baseUrl,
    log: quiet,
    request: { fetch: boundedFetch(fetch, COMMENT_API_LIMITS.replyBytes), log: quiet }
  })
}

/** A fetch whose replies fail once their body passes `maxBytes`. */
function boundedFetch(fetch: typeof globalThis.fetch, maxBytes: number): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!response.body) return response
    if (Number(response.headers.get('content-length')) > maxBytes) {
      await response.body.cancel()
      throw new Error(`GitHub's API replied with more than ${maxBytes} bytes`)
    }
    let bytes = 0
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength
          if (bytes > maxBytes) {
            controller.error(new Error(`GitHub's API replied with more than ${maxBytes} bytes`))
          } else {
            controller.enqueue(chunk)
          }
        }
      })
    )
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
    Object.defineProperty(bounded, 'url', { value: response.url })
    return bounded
  }
}

/**
 * The pull request and the commit it is at, from the event file, and the repository from
 * GITHUB_REPOSITORY; undefined (after a warning) when either cannot be read.
 */
async function pullRequest(env: NodeJS.ProcessEnv, warn: Warn): Promise<PullRequest | undefined> {
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  if (!repository) {
    warn(
      `The pull request was not commented on: GITHUB_REPOSITORY is not owner/name (${oneLine(env['GITHUB_REPOSITORY'] ?? '')}).`
    )
    return undefined
  }
  const path = env['GITHUB_EVENT_PATH']
  if (!path) {
    warn(
      'The pull request was not commented on: GITHUB_EVENT_PATH is not set, so the pull request is unknown.'
    )
    return undefined
  }
  let payload: unknown
  try {
    payload = JSON.parse(await readBounded(path, COMMENT_API_LIMITS.eventFileBytes))
  } catch (error) {
    warn(
      `The pull request was not commented on: the event file could not be read: ${quote(error)}.`
    )
    return undefined
  }
  const pull = (payload as { pull_request?: { number?: unknown; head?: { sha?: unknown } } } | null)
    ?.pull_request
  const number = pull?.number
  const sha = pull?.head?.sha
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    warn('The pull request was not commented on: the event file names no pull request number.')
    return undefined
  }
  if (typeof sha !== 'string' || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(sha)) {
    warn('The pull request was not commented on: the event file names no head commit.')
    return undefined
  }
  return { owner: repository[1]!, repo: repository[2]!, issue_number: number, headSha: sha }
}

function repoOf({ owner, repo }: PullRequest): { owner: string; repo: string } {
  return { owner, repo }
}

/** The file as UTF-8, or an error when it holds more than `maxBytes`. */
async function readBounded(path: string, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let bytes = 0
  // One byte past the limit tells a file of exactly the limit from a larger one.
  for await (const chunk of createReadStream(path, { end: maxBytes })) {
    chunks.push(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  if (bytes > maxBytes) throw new Error(`it is larger than ${maxBytes} bytes`)
  return Buffer.concat(chunks).toString('utf8')
}

/** The API's address without a trailing slash, or undefined when it is not http(s). */
function apiBase(value: string | undefined): string | undefined {
  const text = value?.trim() || DEFAULT_API_URL
  try {
    const url = new URL(text)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    if (url.username || url.password) return undefined
    return url.href.replace(/\/+$/, '')
  } catch {
    return undefined
  }
}

/** A 403 or 404 from GitHub: the token may not write (or see) the pull request's comments. */
function isRefusal(error: unknown): boolean {
  const status = statusOf(error)
  return (status === 403 || status === 404) && !isRateLimit(error)
}

function isRateLimit(error: unknown): boolean {
  const status = statusOf(error)
  const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers
  return (
    (status === 403 || status === 429) &&
    (headers?.['x-ratelimit-remaining'] === '0' || /rate limit/i.test(messageOf(error)))
  )
}

/** What went wrong, in words that say what to do. */
function failureWords(doing: string, target: PullRequest, error: unknown): string {
  const where = `pull request #${target.issue_number}`
  // Octokit gives a request that got no reply status 500 too: only a reply is GitHub's word.
  const replied = typeof (error as { response?: unknown } | null)?.response === 'object'
  const said = replied
    ? `GitHub said: ${statusOf(error)} ${quote(error)}`
    : `no reply from GitHub's API: ${quote(error)}`
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

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** An error's message fit to quote: one line, cut. The log's gate escapes it. */
function quote(error: unknown): string {
  return oneLine(cut(messageOf(error), QUOTE_LIMITS.long), QUOTE_LIMITS.long)
}
