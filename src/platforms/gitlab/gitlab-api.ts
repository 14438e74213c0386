/**
 * GitLab's REST API (v4) as the command's merge-request decoration uses it: the platforms' one
 * REST policy (src/http/rest-api.ts) under the address CI_API_V4_URL names, the token in
 * `PRIVATE-TOKEN` (a project, group or personal access token with the `api` scope: GitLab's
 * CI_JOB_TOKEN may write no notes, discussions or statuses), and pages followed by `x-next-page`
 * up to a bound.
 */
import { idOf, type PlatformConnection } from '../review-platform.js'
import { PlatformError, RestApi, type Method, type RestReply } from '../../http/rest-api.js'

const GITLAB_LIMITS = {
  /** Items a page asks for: GitLab's maximum. */
  perPage: 100
} as const

interface GitLabApiOptions extends PlatformConnection {
  /** CI_API_V4_URL: `https://gitlab.example.com/api/v4`. */
  apiUrl: URL
  random?: () => number
}

/** GitLab's reply: its status, its JSON body, and the next page `x-next-page` names. */
type GitLabReply = Pick<RestReply, 'status' | 'body'> & { nextPage: number | undefined }

/**
 * One GitLab instance's API for one run.
 *
 * @example const gitlab = new GitLabApi({ apiUrl: new URL(env.CI_API_V4_URL), token, userAgent, clock, deadline })
 */
export class GitLabApi {
  private readonly rest: RestApi

  constructor(options: GitLabApiOptions) {
    this.rest = new RestApi({
      ...options,
      platform: 'GitLab',
      headers: { 'PRIVATE-TOKEN': options.token },
      redirectAdvice: 'Set CI_API_V4_URL to the address GitLab answers at.'
    })
  }

  close(): void {
    this.rest.close()
  }

  /** `method` on `path` under the API's address (`projects/7/statuses/<sha>`), as RestApi's. */
  async request(
    method: Method,
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {}
  ): Promise<GitLabReply> {
    const reply = await this.rest.request(method, path, options)
    return {
      status: reply.status,
      body: reply.body,
      nextPage: pageNumber(reply.header('x-next-page'))
    }
  }

  /**
   * The token's own user's id (`GET /user`): only what it wrote is ever edited or resolved.
   *
   * @example const me = await gitlab.ownUserId() // 77
   */
  async ownUserId(): Promise<number> {
    const me = idOf((await this.request('GET', 'user')).body)
    if (me === undefined) throw new PlatformError("GitLab did not say who the token's user is.")
    return me
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
        throw new PlatformError(`GitLab's reply to GET ${path} is not a list.`)
      }
      items.push(...(reply.body as unknown[]))
      if (reply.nextPage === undefined || reply.nextPage <= page) return { items, complete: true }
      page = reply.nextPage
    }
    return { items, complete: false }
  }
}

/** `x-next-page`: a page number, or undefined (empty on the last page). */
function pageNumber(value: string | undefined): number | undefined {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined
}
