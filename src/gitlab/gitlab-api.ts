/**
 * GitLab's REST API (v4) as the command's merge-request decoration uses it: requests to the
 * address CI_API_V4_URL names and nowhere else, the token in `PRIVATE-TOKEN` (a project, group or
 * personal access token with the `api` scope: GitLab's CI_JOB_TOKEN may write no notes,
 * discussions or statuses), no redirect followed (a redirect could carry the token elsewhere),
 * replies bounded in size, pages followed by `x-next-page` up to a bound, 429 and 5xx tried again
 * after `Retry-After` or a backoff within the overall time-out. 401, 403 and 404 are a
 * GitLabRefusal, never tried again: the caller says once what the token or the merge request
 * lacks.
 */
import type { Clock } from '../clock.js'
import { messageOf } from '../errors.js'
import { redactSecrets, tokenForms } from '../secrets.js'
import { decideRetry } from '../sonar/retry-policy.js'
import { headerValue, HttpTransport } from '../sonar/transport.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

export const GITLAB_LIMITS = {
  /** One reply's body: a page of 100 merge-request diffs fits. */
  replyBytes: 16 * 1024 * 1024,
  /** One try, at most; the overall time-out bounds them all. */
  tryMs: 30_000,
  /** Items a page asks for: GitLab's maximum. */
  perPage: 100
} as const

export interface GitLabApiOptions {
  /** CI_API_V4_URL: `https://gitlab.example.com/api/v4`. */
  apiUrl: URL
  token: string
  userAgent: string
  clock: Clock
  /** Clock time of the overall time-out. */
  deadline: number
  random?: () => number
}

/** GitLab's reply: its status, the headers read, and its JSON body. */
export interface GitLabReply {
  status: number
  body: unknown
  nextPage: number | undefined
}

/** 401, 403 or 404: the token may not do this, or the merge request is not there. */
export class GitLabRefusal extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message)
    this.name = 'GitLabRefusal'
  }
}

/** Any other failure of a GitLab request, in words. */
export class GitLabError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'GitLabError'
  }
}

type Method = 'GET' | 'POST' | 'PUT'

/**
 * One GitLab instance's API for one run.
 *
 * @example const gitlab = new GitLabApi({ apiUrl: new URL(env.CI_API_V4_URL), token, userAgent, clock, deadline })
 */
export class GitLabApi {
  private readonly base: URL
  private readonly forms: string[]

  private readonly transport: HttpTransport

  constructor(private readonly options: GitLabApiOptions) {
    this.base = new URL(options.apiUrl.href.replace(/\/*$/, '/'))
    this.forms = tokenForms(options.token)
    this.transport = new HttpTransport({
      userAgent: options.userAgent,
      rootCert: undefined,
      maxBodyBytes: GITLAB_LIMITS.replyBytes
    })
  }

  /** Ends the kept-alive connections. */
  close(): void {
    this.transport.close()
  }

  /**
   * `method` on `path` (relative to the API's address: `projects/7/statuses/<sha>`), with the
   * query and the JSON body given; tried again on 429 and 5xx while the time-out allows.
   */
  async request(
    method: Method,
    path: string,
    { query, body }: { query?: Record<string, string>; body?: unknown } = {}
  ): Promise<GitLabReply> {
    const url = new URL(path, this.base)
    if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) {
      throw new GitLabError(`Refusing to send the GitLab token outside ${this.base.origin}.`)
    }
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value)
    const { clock, deadline } = this.options
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - clock.now()
      if (remaining <= 0) throw new GitLabError(`GitLab did not answer ${method} ${path} in time.`)
      let status: number
      let retryAfter: string | undefined
      let text: string
      let nextPage: string | null
      try {
        // The one transport (proxies, kept-alive connections, a bounded body); a redirect is a
        // reply like any other, never followed: the token could follow it elsewhere.
        const reply = await this.transport.send(
          method,
          url,
          {
            'PRIVATE-TOKEN': this.options.token,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' })
          },
          body === undefined ? undefined : JSON.stringify(body),
          Math.min(remaining, GITLAB_LIMITS.tryMs)
        )
        status = reply.status
        retryAfter = headerValue(reply, 'retry-after')
        nextPage = headerValue(reply, 'x-next-page') ?? null
        text = reply.body.toString('utf8')
      } catch (error) {
        // No answer, a reply too large: said as it is, the token out of it.
        throw new GitLabError(`GitLab's ${method} ${path} failed: ${this.said(messageOf(error))}`, {
          cause: error
        })
      }
      if (status >= 300 && status < 400) {
        throw new GitLabError(
          `GitLab answered ${status} to ${method} ${path}: a redirect, not followed (the token would go with it). Set CI_API_V4_URL to the address GitLab answers at.`
        )
      }
      if (status >= 200 && status < 300) {
        return { status, body: parse(text), nextPage: pageNumber(nextPage) }
      }
      const said = this.said(errorText(text))
      if (status === 401 || status === 403 || status === 404) {
        throw new GitLabRefusal(`GitLab answered ${status} to ${method} ${path}${said}`, status)
      }
      const decision = decideRetry(
        { kind: 'status', status, retryAfter },
        attempt,
        deadline - clock.now(),
        this.options.random ?? Math.random,
        Date.now()
      )
      if (!decision.retry) {
        throw new GitLabError(
          `GitLab answered ${status} to ${method} ${path}${said}${decision.why ? ` ${decision.why}` : ''}`
        )
      }
      await clock.sleep(decision.delayMs)
    }
  }

  /**
   * The items of a listing, page by page (`per_page` 100, `x-next-page`), at most `maxPages`
   * pages; `complete` is false when GitLab has more.
   */
  async pages(
    path: string,
    query: Record<string, string>,
    maxPages: number
  ): Promise<{ items: unknown[]; complete: boolean }> {
    const items: unknown[] = []
    let page = 1
    for (let read = 0; read < maxPages; read++) {
      const reply = await this.request('GET', path, {
        query: { ...query, per_page: String(GITLAB_LIMITS.perPage), page: String(page) }
      })
      if (!Array.isArray(reply.body)) {
        throw new GitLabError(`GitLab's reply to GET ${path} is not a list.`)
      }
      items.push(...(reply.body as unknown[]))
      if (reply.nextPage === undefined || reply.nextPage <= page) return { items, complete: true }
      page = reply.nextPage
    }
    return { items, complete: false }
  }

  /** A text of GitLab's, on one line, bounded, the token's forms out of it. */
  private said(text: string): string {
    return oneLine(redactSecrets(text, this.forms), QUOTE_LIMITS.long)
  }
}

function parse(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new GitLabError('GitLab answered with a body that is not JSON.')
  }
}

/** GitLab's error body (`{"message": …}` or `{"error": …}`) as a few words after a colon. */
function errorText(text: string): string {
  let message: unknown
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    message = body['message'] ?? body['error']
  } catch {
    return ''
  }
  const words = typeof message === 'string' ? message : message ? JSON.stringify(message) : ''
  return words ? `: ${words}` : ''
}

/** `x-next-page`: a page number, or undefined (empty on the last page). */
function pageNumber(value: string | null): number | undefined {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined
}
