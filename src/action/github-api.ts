/**
 * GitHub's API as the action's GitHub features use it (the pull-request comment, the issues
 * check run, the lines a pull request changes, a fork's pull request): the event's pull request,
 * GitHubApi (the platforms' one REST policy, src/http/rest-api.ts, with GitHub's token header and
 * GraphQL beside it), and GitHub's failures in words, told apart by the fields of the policy's
 * errors (the status, GitHub's words, its rate limit).
 */
import { systemClock, type Clock } from '../clock.js'
import { EVENT_FILE_BYTES, pullRequestOf, quote, readEventFile } from '../github-event.js'
import {
  PlatformError,
  PlatformRefusal,
  RestApi,
  type Method,
  type PlatformAnswer,
  type RestReply
} from '../http/rest-api.js'
import { oneLine } from '../untrusted-text.js'

export { quote }

/** The events whose pull request the action knows. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target']

export const GITHUB_API_LIMITS = {
  /** The event payload file (GitHub caps webhook payloads at 25 MB). */
  eventFileBytes: EVENT_FILE_BYTES,
  /** One reply of the API (100 comments of 65,536 characters, JSON-escaped, fit). */
  replyBytes: 64 * 1024 * 1024,
  /** Tries of one request answered 5xx or 429: Octokit's retry plugin makes 3 retries. */
  tries: 4
} as const

/** Who asks GitHub: the action, its version and Node's. */
const GITHUB_USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`

const DEFAULT_API_URL = 'https://api.github.com'

/** The repository, and the pull request of the event with the commit it is at. */
export interface PullRequest {
  owner: string
  repo: string
  issue_number: number
  headSha: string
  /** When the pull request was last updated (a push to it, among others), as the event says. */
  updatedAt?: string
}

type EventPullRequest = { pullRequest: PullRequest } | { problem: string }

/** The event files read, by path and repository: each is read once per run. */
const eventsRead = new Map<string, Promise<EventPullRequest>>()

/**
 * The pull request of a `pull_request` or `pull_request_target` event, from the event file, and
 * the repository from GITHUB_REPOSITORY; or why it cannot be known, in words. The file is read
 * once however many features ask.
 */
export function eventPullRequest(env: NodeJS.ProcessEnv): Promise<EventPullRequest> {
  const key = `${env['GITHUB_EVENT_PATH'] ?? ''}\n${env['GITHUB_REPOSITORY'] ?? ''}`
  let read = eventsRead.get(key)
  if (!read) {
    read = readEventPullRequest(env)
    eventsRead.set(key, read)
  }
  return read
}

async function readEventPullRequest(env: NodeJS.ProcessEnv): Promise<EventPullRequest> {
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  if (!repository) {
    return {
      problem: `GITHUB_REPOSITORY is not owner/name (${oneLine(env['GITHUB_REPOSITORY'] ?? '')})`
    }
  }
  const file = await readEventFile(env['GITHUB_EVENT_PATH'])
  if ('problem' in file) return file
  const { number, headSha, updatedAt } = pullRequestOf(file.payload)
  if (number === undefined) return { problem: 'the event file names no pull request number' }
  if (headSha === undefined) return { problem: 'the event file names no head commit' }
  return {
    pullRequest: {
      owner: repository[1]!,
      repo: repository[2]!,
      issue_number: number,
      headSha,
      ...(updatedAt === undefined ? {} : { updatedAt })
    }
  }
}

/** The API's address without a trailing slash, or undefined when it is not http(s). */
export function apiBase(value: string | undefined): string | undefined {
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

/**
 * One GitHub API for one feature's requests: the platforms' REST policy (src/http/rest-api.ts:
 * the API's address and nowhere else, no redirect followed, replies bounded, 401/403/404 a
 * PlatformRefusal) with the token in `authorization`, 5xx and 429 tried at most
 * GITHUB_API_LIMITS.tries times (as Octokit's retry plugin does) within the decoration's time,
 * and GraphQL beside it (`/graphql`, or `/api/graphql` on GitHub Enterprise Server).
 *
 * @example const api = new GitHubApi({ token, apiUrl: 'https://api.github.com', deadline })
 */
export class GitHubApi {
  private readonly rest: RestApi
  private readonly graphqlApi: RestApi

  constructor({
    token,
    apiUrl,
    deadline,
    clock = systemClock,
    userAgent = GITHUB_USER_AGENT
  }: {
    token: string
    /** The API's address (apiBase's). */
    apiUrl: string
    /** Clock time the requests end by: the decoration's deadline (src/deadline.ts). */
    deadline: number
    clock?: Clock
    userAgent?: string
  }) {
    const api = (url: string) =>
      new RestApi({
        platform: 'GitHub',
        apiUrl: new URL(url),
        token,
        headers: { authorization: `token ${token}`, 'x-github-api-version': '2022-11-28' },
        redirectAdvice: "Set GITHUB_API_URL to the address GitHub's API answers at.",
        userAgent,
        clock,
        deadline,
        maxTries: GITHUB_API_LIMITS.tries,
        maxReplyBytes: GITHUB_API_LIMITS.replyBytes
      })
    this.rest = api(apiUrl)
    // GitHub Enterprise Server answers REST at /api/v3 and GraphQL at /api/graphql.
    this.graphqlApi = api(apiUrl.replace(/\/api\/v3$/, '/api'))
  }

  /** `method` on `path` (under the API's address), with the query and the JSON body given. */
  request(
    method: Method,
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {}
  ): Promise<RestReply> {
    return this.rest.request(method, path, options)
  }

  /** GraphQL's `data` for `query`; GraphQL's own errors are a PlatformError. */
  async graphql(query: string): Promise<unknown> {
    const reply = (await this.graphqlApi.request('POST', 'graphql', { body: { query } })).body as {
      data?: unknown
      errors?: unknown
    } | null
    if (Array.isArray(reply?.errors) && reply.errors.length > 0) {
      const first = reply.errors[0] as { message?: unknown } | null
      const said = typeof first?.message === 'string' ? first.message : 'an error'
      throw new PlatformError(`GitHub's GraphQL API answered: ${this.rest.said(said)}`)
    }
    return reply?.data
  }

  /** Ends the kept-alive connections. */
  close(): void {
    this.rest.close()
    this.graphqlApi.close()
  }
}

/** A 403 or 404 from GitHub: the token may not write (or see) what was asked. */
export function isRefusal(error: unknown): boolean {
  const status = statusOf(error)
  return (status === 403 || status === 404) && !isRateLimit(error)
}

/** A 403 or 429 that GitHub's rate limit gave. */
export function isRateLimit(error: unknown): boolean {
  const answer = answerOf(error)
  return (
    answer !== undefined && (answer.status === 403 || answer.status === 429) && answer.rateLimited
  )
}

/** What GitHub said, or that it did not reply. */
export function githubSaid(error: unknown): string {
  const answer = answerOf(error)
  if (answer) return `GitHub said: ${answer.status} ${answer.said}`.trimEnd()
  if (error instanceof PlatformError && error.unanswered === undefined) return quote(error)
  const why = error instanceof PlatformError ? error.unanswered : undefined
  return `no reply from GitHub's API: ${why ?? quote(error)}`
}

/** The HTTP status GitHub answered with; undefined when it did not answer. */
export function statusOf(error: unknown): number | undefined {
  return answerOf(error)?.status
}

function answerOf(error: unknown): PlatformAnswer | undefined {
  return error instanceof PlatformRefusal || error instanceof PlatformError
    ? error.answer
    : undefined
}
