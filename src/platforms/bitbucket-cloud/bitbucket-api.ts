/**
 * Bitbucket Cloud's REST API (2.0) as the command's decoration uses it: the platforms' one REST
 * policy (src/http/rest-api.ts) with the token as a Bearer (a repository or workspace access
 * token), or without one through Bitbucket Pipelines' proxy (plain http to
 * `http://api.bitbucket.org/2.0`, sent to `localhost:29418`, which signs Code Insights requests
 * for the build), and listings followed by the `next` address each page names, which must stay
 * under the API's address, up to a bound.
 */
import type { PlatformConnection } from '../review-platform.js'
import { PlatformError, RestApi } from '../../http/rest-api.js'

interface BitbucketApiOptions extends Omit<PlatformConnection, 'token'> {
  apiUrl: URL
  /** A repository or workspace access token; none: through Bitbucket Pipelines' proxy. */
  token: string | undefined
  /** Bitbucket Pipelines' proxy, which signs Code Insights requests for the build (no token). */
  pipelinesProxy?: URL
  random?: () => number
}

/**
 * One Bitbucket Cloud API for one run.
 *
 * @example const bitbucket = new BitbucketApi({ apiUrl: new URL('https://api.bitbucket.org/2.0'), token, userAgent, clock, deadline })
 */
export class BitbucketApi extends RestApi {
  constructor({ token, pipelinesProxy, ...options }: BitbucketApiOptions) {
    super({
      ...options,
      platform: 'Bitbucket',
      token: token ?? '',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(pipelinesProxy ? { forwardProxy: pipelinesProxy } : {}),
      redirectAdvice: 'Set BITBUCKET_API_URL to the address the API answers at.'
    })
  }

  /**
   * The `values` of a listing, page by page (`pagelen` 100, then each page's `next`), at most
   * `maxPages` pages.
   */
  async pages(path: string, maxPages: number): Promise<unknown[]> {
    const items: unknown[] = []
    let next: string | URL | undefined = path
    let query: Record<string, string> | undefined = { pagelen: '100' }
    for (let read = 0; read < maxPages && next !== undefined; read++) {
      const { body } = await this.request('GET', next, query ? { query } : {})
      const page = (body ?? {}) as { values?: unknown; next?: unknown }
      if (!Array.isArray(page.values)) {
        throw new PlatformError(`Bitbucket's reply to GET ${path} is not a page of values.`)
      }
      items.push(...(page.values as unknown[]))
      next =
        typeof page.next === 'string' && URL.canParse(page.next) ? new URL(page.next) : undefined
      // The next address carries its own query.
      query = undefined
    }
    return items
  }
}
