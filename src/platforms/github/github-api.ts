/**
 * GitHub's REST API as every GitHub feature asks it (the action's comment, check run and changed
 * lines, the command's decoration of a GitHub pull request from any CI): GitHubApi, the
 * platforms' one REST policy (src/http/rest-api.ts) with GitHub's token header and GraphQL beside
 * it, and GitHub's failures in words, told apart by the fields of the policy's errors (the
 * status, GitHub's words, its rate limit).
 */
import {
  PlatformError,
  PlatformRefusal,
  RestApi,
  type Method,
  type PlatformAnswer,
  type RestReply
} from '../../http/rest-api.js'
import { cut, oneLine, QUOTE_LIMITS, type Clock } from '../review-platform.js'

const GITHUB_API_LIMITS = {
  /** One reply of the API (100 comments of 65,536 characters, JSON-escaped, fit). */
  replyBytes: 64 * 1024 * 1024,
  /** Tries of one request answered 5xx or 429: Octokit's retry plugin makes 3 retries. */
  tries: 4
} as const

/** Who asks GitHub, unless the edge says: the tool and Node's version. */
const GITHUB_USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`

const DEFAULT_API_URL = 'https://api.github.com'

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
    clock,
    userAgent = GITHUB_USER_AGENT
  }: {
    token: string
    /** The API's address (apiBase's). */
    apiUrl: string
    /** Clock time the requests end by: the decoration's deadline (src/deadline.ts). */
    deadline: number
    clock: Clock
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

  /** GraphQL's `data` for `query` and its variables; GraphQL's own errors are a PlatformError. */
  async graphql(query: string, variables?: Record<string, unknown>): Promise<unknown> {
    const body = variables === undefined ? { query } : { query, variables }
    const reply = (await this.graphqlApi.request('POST', 'graphql', { body })).body as {
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

/** An error's message on one line, bounded. */
function quote(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return oneLine(cut(message, QUOTE_LIMITS.long), QUOTE_LIMITS.long)
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
