/**
 * GitHub's REST API as every GitHub feature asks it (the action's comment, check run and changed
 * lines, the command's decoration of a GitHub pull request from any CI): GitHubApi, and GitHub's
 * failures in words, told apart by the fields of the policy's errors (the status, GitHub's words,
 * its rate limit).
 */
import {
  PlatformError,
  PlatformRefusal,
  RestApi,
  type PlatformAnswer
} from '../../http/rest-api.js'
import { cut, oneLine, QUOTE_LIMITS, type PlatformConnection } from '../review-platform.js'

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
 * One GitHub API for one feature's requests: the platforms' REST policy (src/http/rest-api.ts)
 * with the token in `authorization`, 5xx and 429 tried at most GITHUB_API_LIMITS.tries times (as
 * Octokit's retry plugin does) within the decoration's time, and GraphQL beside it (`/graphql`,
 * or `/api/graphql` on GitHub Enterprise Server).
 *
 * @example const api = new GitHubApi({ token, apiUrl: 'https://api.github.com', deadline })
 */
export class GitHubApi extends RestApi {
  private readonly graphqlApi: RestApi

  constructor({
    token,
    apiUrl,
    deadline,
    clock,
    userAgent = GITHUB_USER_AGENT
  }: Omit<PlatformConnection, 'userAgent'> & {
    /** The API's address (apiBase's). */
    apiUrl: string
    userAgent?: string
  }) {
    const options = (url: string) => ({
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
    super(options(apiUrl))
    // GitHub Enterprise Server answers REST at /api/v3 and GraphQL at /api/graphql.
    this.graphqlApi = new RestApi(options(apiUrl.replace(/\/api\/v3$/, '/api')))
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
      throw new PlatformError(`GitHub's GraphQL API answered: ${this.said(said)}`)
    }
    return reply?.data
  }

  override close(): void {
    super.close()
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
