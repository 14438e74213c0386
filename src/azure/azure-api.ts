/**
 * Azure DevOps's Git REST API as the command's decoration uses it, for one repository: the
 * platforms' one REST policy (src/platform/rest-api.ts: the repository's API address only, no
 * redirect, replies bounded, 429 and 5xx tried again after Retry-After, 401/403/404 a
 * PlatformRefusal) with the pipeline's token as a Bearer and `api-version=7.1` on every request
 * (the fields used are the same in 7.0 and 7.1, Azure DevOps Server's included). A token Azure
 * DevOps does not take may answer 203 with a sign-in page: a reply that is not JSON is a
 * refusal too.
 */
import type { Clock } from '../clock.js'
import {
  PlatformError,
  PlatformRefusal,
  RestApi,
  type Method,
  type RestReply
} from '../platform/rest-api.js'

export const AZURE_API_VERSION = '7.1'

export interface AzureApiOptions {
  /** `{collection}{project}/_apis/git/repositories/{repositoryId}/`. */
  repositoryUrl: URL
  token: string
  userAgent: string
  clock: Clock
  deadline: number
  random?: () => number
}

/**
 * One Azure DevOps repository's API for one run.
 *
 * @example const azure = new AzureApi({ repositoryUrl, token, userAgent, clock, deadline })
 */
export class AzureApi {
  private readonly rest: RestApi

  constructor(options: AzureApiOptions) {
    this.rest = new RestApi({
      ...options,
      apiUrl: options.repositoryUrl,
      platform: 'Azure DevOps',
      headers: { authorization: `Bearer ${options.token}` },
      redirectAdvice:
        'Check SYSTEM_COLLECTIONURI, and that the pipeline maps SYSTEM_ACCESSTOKEN (a token Azure DevOps does not take is sent to its sign-in page).'
    })
  }

  close(): void {
    this.rest.close()
  }

  /** `method` on `path` under the repository's address, with `api-version`. */
  async request(
    method: Method,
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {}
  ): Promise<RestReply> {
    let reply: RestReply
    try {
      reply = await this.rest.request(method, path, {
        ...options,
        query: { ...options.query, 'api-version': AZURE_API_VERSION }
      })
    } catch (error) {
      // A sign-in page instead of JSON: the token was not taken.
      if (error instanceof PlatformError && /not JSON/.test(error.message)) {
        throw new PlatformRefusal(
          `Azure DevOps answered ${method} ${path} with a sign-in page`,
          401
        )
      }
      throw error
    }
    if (reply.status === 203) {
      throw new PlatformRefusal(`Azure DevOps answered ${method} ${path} with a sign-in page`, 401)
    }
    return reply
  }
}
