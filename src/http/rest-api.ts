/**
 * A code platform's REST API (GitHub, GitLab, Bitbucket, Azure DevOps) as the decoration uses it, one
 * policy for all of them: requests to the API's address and nowhere else (a path or an address a
 * reply names that leaves it is refused before anything is sent), the token in the headers the
 * platform reads and out of every message, no redirect followed (it could carry the token
 * elsewhere), replies bounded in size, JSON in and out, 429 and 5xx tried again after
 * `Retry-After` or a backoff within the overall time-out (the server's retry policy). 401, 403
 * and 404 are a PlatformRefusal, never tried again: the caller says once what the token or the
 * pull request lacks. The one transport carries it (proxies honoured, one kept-alive connection).
 */
import type { Clock } from '../clock.js'
import { messageOf } from '../errors.js'
import { redactSecrets, tokenForms } from '../secrets.js'
import { afterLastTry, decideRetry } from './retry-policy.js'
import { headerValue, HttpTransport, type Method } from './transport.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { textOf } from '../words.js'

export const REST_LIMITS = {
  /** One reply's body: a page of 100 merge-request diffs fits. */
  replyBytes: 16 * 1024 * 1024,
  /** One try, at most; the overall time-out bounds them all. */
  tryMs: 30_000
} as const

interface RestApiOptions {
  /** The platform's name in messages: `GitLab`, `Bitbucket`, `Azure DevOps`. */
  platform: string
  /** The API's address: every request goes under it. */
  apiUrl: URL
  /** The token: sent in `headers`, hidden from every message ('' when the route needs none). */
  token: string
  /** A forward proxy for plain-http requests (Bitbucket Pipelines' proxy), when used. */
  forwardProxy?: URL
  /** The headers that carry the token: `{ 'PRIVATE-TOKEN': token }`, `{ authorization: … }`. */
  headers: Record<string, string>
  /** What to set when the API answers with a redirect (the address variable). */
  redirectAdvice: string
  userAgent: string
  clock: Clock
  /** Clock time of the overall time-out. */
  deadline: number
  random?: () => number
  /** Tries of one request at most, however much time is left; by default as many as it allows. */
  maxTries?: number
  /** One reply's body at most; by default REST_LIMITS.replyBytes. */
  maxReplyBytes?: number
}

/** The platform's reply: its status, its headers, and its JSON body. */
export interface RestReply {
  status: number
  body: unknown
  header(name: string): string | undefined
}

/** What the platform answered to a request it did not carry out. */
export interface PlatformAnswer {
  status: number
  /** Its own words (`message` or `error` of its body), on one line, the token out of them; or ''. */
  said: string
  /** Its rate limit said so: no request left (`x-ratelimit-remaining: 0`), or its words. */
  rateLimited: boolean
}

/** 401, 403 or 404: the token may not do this, or what it names is not there. */
export class PlatformRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly answer: PlatformAnswer = { status, said: '', rateLimited: false }
  ) {
    super(message)
    this.name = 'PlatformRefusal'
  }
}

/** Any other failure of a platform's request, in words. */
export class PlatformError extends Error {
  /** What the platform answered, when it answered (a 429 or 5xx tried no more). */
  readonly answer: PlatformAnswer | undefined
  /** Why no answer came (the transport's words, the token out of them), when none came. */
  readonly unanswered: string | undefined

  constructor(
    message: string,
    options: { cause?: unknown; answer?: PlatformAnswer; unanswered?: string } = {}
  ) {
    super(message, { cause: options.cause })
    this.name = 'PlatformError'
    this.answer = options.answer
    this.unanswered = options.unanswered
  }
}

export type { Method }

/** A request's query, its JSON body, and whether its reply is text (a diff) rather than JSON. */
interface RequestOptions {
  query?: Record<string, string>
  body?: unknown
  text?: boolean
}

/**
 * One platform instance's API for one run.
 *
 * @example const api = new RestApi({ platform: 'GitLab', apiUrl, token, headers: { 'PRIVATE-TOKEN': token }, redirectAdvice: 'Set CI_API_V4_URL …', userAgent, clock, deadline })
 */
export class RestApi {
  readonly base: URL
  private readonly forms: string[]
  private readonly transport: HttpTransport

  constructor(private readonly options: RestApiOptions) {
    this.base = new URL(options.apiUrl.href.replace(/\/*$/, '/'))
    this.forms = tokenForms(options.token)
    this.transport = new HttpTransport({
      userAgent: options.userAgent,
      rootCert: undefined,
      maxBodyBytes: options.maxReplyBytes ?? REST_LIMITS.replyBytes,
      ...(options.forwardProxy ? { forwardProxy: options.forwardProxy } : {})
    })
  }

  /** Ends the kept-alive connections. */
  close(): void {
    this.transport.close()
  }

  /**
   * `method` on `path` (relative to the API's address, or an address a reply named, which must
   * be under it), with the query and the JSON body given; tried again on 429 and 5xx while the
   * time-out allows. With `text`, the reply's body is its text (a diff), not JSON.
   */
  async request(
    method: Method,
    path: string | URL,
    { query, body, text: asText }: RequestOptions = {}
  ): Promise<RestReply> {
    const { platform, clock, deadline } = this.options
    const url = new URL(path, this.base)
    if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) {
      throw new PlatformError(`Refusing to send the ${platform} token outside ${this.base.href}.`)
    }
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value)
    const shown = `${method} ${this.said(url.pathname.slice(this.base.pathname.length))}`
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - clock.now()
      if (remaining <= 0) throw new PlatformError(`${platform} did not answer ${shown} in time.`)
      let reply
      try {
        // A redirect is a reply like any other, never followed: the token could follow it.
        reply = await this.transport.send(
          method,
          url,
          {
            ...this.options.headers,
            accept: asText ? 'text/plain' : 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' })
          },
          body === undefined ? undefined : JSON.stringify(body),
          Math.min(remaining, REST_LIMITS.tryMs)
        )
      } catch (error) {
        // No answer, a reply too large: said as it is, the token out of it.
        const unanswered = this.said(messageOf(error))
        throw new PlatformError(`${platform}'s ${shown} failed: ${unanswered}`, {
          cause: error,
          unanswered
        })
      }
      const { status } = reply
      const text = reply.body.toString('utf8')
      if (status >= 300 && status < 400) {
        throw new PlatformError(
          `${platform} answered ${status} to ${shown}: a redirect, not followed (the token would go with it). ${this.options.redirectAdvice}`
        )
      }
      if (status >= 200 && status < 300) {
        return {
          status,
          body: asText ? text : parse(text, platform),
          header: (name) => headerValue(reply, name)
        }
      }
      const said = this.said(errorText(text))
      const answer: PlatformAnswer = {
        status,
        said,
        rateLimited: headerValue(reply, 'x-ratelimit-remaining') === '0' || /rate limit/i.test(said)
      }
      const words = `${platform} answered ${status} to ${shown}${said ? `: ${said}` : ''}`
      if (status === 401 || status === 403 || status === 404) {
        throw new PlatformRefusal(words, status, answer)
      }
      const decision =
        attempt + 1 >= (this.options.maxTries ?? Infinity)
          ? { retry: false as const, why: `Gave up after ${attempt + 1} tries.` }
          : decideRetry(
              { kind: 'status', status, retryAfter: headerValue(reply, 'retry-after') },
              attempt,
              deadline - clock.now(),
              this.options.random ?? Math.random,
              Date.now(),
              `the decoration's time (the overall time-out, or its allowance past the check)`
            )
      if (!decision.retry) {
        throw new PlatformError(textOf(afterLastTry(words, decision.why)), { answer })
      }
      await clock.sleep(decision.delayMs)
    }
  }

  /** A text of the platform's, on one line, bounded, the token's forms out of it. */
  said(text: string): string {
    return oneLine(redactSecrets(text, this.forms), QUOTE_LIMITS.long)
  }
}

function parse(text: string, platform: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new PlatformError(`${platform} answered with a body that is not JSON.`)
  }
}

/** The platform's error body (`{"message": …}`, `{"error": …}`) as a few words, or ''. */
function errorText(text: string): string {
  let message: unknown
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    message = body['message'] ?? body['error']
  } catch {
    return ''
  }
  return typeof message === 'string' ? message : message ? JSON.stringify(message) : ''
}
