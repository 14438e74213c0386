/**
 * Azure DevOps's Git REST API as the command's decoration uses it, for one repository: the
 * platforms' one REST policy (src/http/rest-api.ts) under the collection's address, with the
 * pipeline's token as a Bearer and `api-version=7.1` on every request (the fields used are the
 * same in 7.0 and 7.1, Azure DevOps Server's included), and the collection's
 * `_apis/connectionData` (a preview resource: `api-version=7.1-preview`), whose
 * `authenticatedUser.id` is the token's own identity. A token Azure DevOps does not take may
 * answer 203 with a sign-in page: a reply that is not JSON is a refusal too.
 */
import type { PlatformConnection } from '../review-platform.js'
import {
  PlatformError,
  PlatformRefusal,
  RestApi,
  type Method,
  type RestReply
} from '../../http/rest-api.js'

const AZURE_API_VERSION = '7.1'

interface AzureApiOptions extends PlatformConnection {
  /** SYSTEM_COLLECTIONURI: `https://dev.azure.com/{organization}/`. */
  collectionUrl: URL
  /** `{collection}{project}/_apis/git/repositories/{repositoryId}/`, under the collection. */
  repositoryUrl: URL
  /** How the token is sent: the pipeline's as a Bearer (the default), a personal one as Basic. */
  scheme?: 'Bearer' | 'Basic'
  random?: () => number
}

/**
 * One Azure DevOps repository's API for one run.
 *
 * @example const azure = new AzureApi({ repositoryUrl, token, userAgent, clock, deadline })
 */
export class AzureApi {
  private readonly rest: RestApi
  private readonly repository: URL

  constructor(options: AzureApiOptions) {
    this.repository = new URL(options.repositoryUrl.href.replace(/\/*$/, '/'))
    this.rest = new RestApi({
      ...options,
      apiUrl: options.collectionUrl,
      platform: 'Azure DevOps',
      headers: {
        authorization:
          options.scheme === 'Basic'
            ? `Basic ${Buffer.from(`:${options.token}`).toString('base64')}`
            : `Bearer ${options.token}`
      },
      redirectAdvice:
        options.scheme === 'Basic'
          ? 'Check the repository address and AZURE_DEVOPS_TOKEN (a token Azure DevOps does not take is sent to its sign-in page).'
          : 'Check SYSTEM_COLLECTIONURI, and that the pipeline maps SYSTEM_ACCESSTOKEN (a token Azure DevOps does not take is sent to its sign-in page).'
    })
  }

  close(): void {
    this.rest.close()
  }

  /** `method` on `path` under the repository's address, with `api-version`. */
  request(
    method: Method,
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {}
  ): Promise<RestReply> {
    return this.send(method, path, new URL(path, this.repository), options, AZURE_API_VERSION)
  }

  /**
   * The token's own identity: `authenticatedUser.id` of the collection's connection data (the
   * build service's identity for SYSTEM_ACCESSTOKEN), lower-cased, or undefined.
   *
   * @example await azure.ownIdentity() // '5c3a7e2b-…'
   */
  async ownIdentity(): Promise<string | undefined> {
    const path = '_apis/connectionData'
    const { body } = await this.send('GET', path, path, {}, `${AZURE_API_VERSION}-preview`)
    return identityId((body as { authenticatedUser?: unknown } | undefined)?.authenticatedUser)
  }

  private async send(
    method: Method,
    path: string,
    url: string | URL,
    options: { query?: Record<string, string>; body?: unknown },
    version: string
  ): Promise<RestReply> {
    const query = { ...options.query, 'api-version': version }
    const reply = await this.rest.request(method, url, { ...options, query }).catch((error) => {
      // A sign-in page instead of JSON: the token was not taken.
      if (error instanceof PlatformError && /not JSON/.test(error.message)) return undefined
      throw error
    })
    if (reply === undefined || reply.status === 203) {
      throw new PlatformRefusal(`Azure DevOps answered ${method} ${path} with a sign-in page`, 401)
    }
    return reply
  }
}

/** An identity's (or an IdentityRef's) `id`: a GUID, lower-cased to compare. */
export function identityId(identity: unknown): string | undefined {
  const id = (identity as { id?: unknown } | null | undefined)?.id
  return typeof id === 'string' && /^[0-9a-f-]{1,64}$/i.test(id) ? id.toLowerCase() : undefined
}
