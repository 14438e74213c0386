import { rootCertificates } from 'node:tls'
import type { IncomingHttpHeaders, RequestOptions } from 'node:http'
import { HttpClient, type HttpClientResponse } from '@actions/http-client'
import type { RequestHandler } from '@actions/http-client/lib/interfaces'
import type { Clock } from '../clock.js'
import { ServerRequestError, TimeoutError, UnsafeRequestError } from '../errors.js'
import { isAllowedRedirect, isSameOrigin, serverBase } from './origin.js'
import { RETRYABLE_STATUSES, retryDelayMs } from './retry-policy.js'
import {
  decodeProjectStatus,
  decodeTask,
  UnexpectedShape,
  type ProjectStatus,
  type Task
} from './types.js'

export interface SonarClientOptions {
  /** The server the token belongs to: only its origin ever receives the token. */
  serverUrl: URL
  token: string | undefined
  /** Extra CA (PEM) trusted for these requests only, on top of the usual roots. */
  rootCert: string | undefined
  userAgent: string
  clock: Clock
  /** Clock time after which no request is started and no retry is waited for. */
  deadline: number
  /** Longest a single request may take, capped by the deadline. */
  requestTimeoutMs?: number
  random?: () => number
  /** Where retries are reported (one line each). */
  onRetry?: (message: string) => void
}

const MAX_REDIRECTS = 5

/**
 * The least time a request is given, even near the deadline: a poll or gate read that starts
 * just before it must still have a chance to bring a verdict that is there.
 */
const MIN_REQUEST_MS = 1000

/** What the caller wants to read, for messages that say what went wrong. */
interface Resource<T> {
  what: string
  notFound: string
  decode: (body: unknown) => T
}

/**
 * The one HTTP client of the action: Basic auth with the token as user, same-origin rules for the
 * token, per-request time-outs, retries inside the overall deadline, JSON checks, and a message
 * a user can act on for every failure.
 */
export class SonarClient {
  private readonly options: Required<Omit<SonarClientOptions, 'token' | 'rootCert'>> &
    Pick<SonarClientOptions, 'token' | 'rootCert'>
  private readonly serverBase: URL
  private http: HttpClient | undefined

  constructor(options: SonarClientOptions) {
    // Defaults by ??, not by spreading: an option passed as undefined still gets its default.
    this.options = {
      ...options,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      random: options.random ?? Math.random,
      onRetry: options.onRetry ?? (() => {})
    }
    // The spec: make the server address end in '/' before appending the API path.
    this.serverBase = serverBase(options.serverUrl)
  }

  /** `GET <taskUrl>`: the compute-engine task the analysis submitted. */
  async getTask(taskUrl: URL, taskId: string): Promise<Task> {
    return this.getJson(taskUrl, {
      what: `task ${taskId}`,
      notFound: `Task ${taskId} was not found: the report file may come from another server or an earlier run, or the taskId input is wrong. On SonarCloud, also check that the token belongs to the project's organization.`,
      decode: decodeTask
    })
  }

  /** `GET <server>/api/qualitygates/project_status?analysisId=`: the gate of one analysis. */
  async getProjectStatus(analysisId: string): Promise<ProjectStatus> {
    const url = new URL(
      `api/qualitygates/project_status?analysisId=${encodeURIComponent(analysisId)}`,
      this.serverBase
    )
    return this.getJson(url, {
      what: `the quality gate status of analysis ${analysisId}`,
      notFound: `Analysis ${analysisId} was not found: check the analysisId input, or the analysis was deleted by the server's housekeeping.`,
      decode: decodeProjectStatus
    })
  }

  /** The task address for a task id on this server: `<server>/api/ce/task?id=<id>`. */
  taskUrl(taskId: string): URL {
    return new URL(`api/ce/task?id=${encodeURIComponent(taskId)}`, this.serverBase)
  }

  private async getJson<T>(url: URL, resource: Resource<T>): Promise<T> {
    if (!isSameOrigin(url, this.options.serverUrl)) {
      throw new UnsafeRequestError(
        `Refusing to send the token to ${url.origin}: the task address is not on the server ${this.options.serverUrl.origin}. The report file may be tampered with or from another server; set sonarHostUrl to the server you trust to build the task address from it.`
      )
    }
    const { clock, deadline } = this.options
    for (let attempt = 0; ; attempt++) {
      let retryAfter: string | undefined
      let failure: ServerRequestError
      try {
        const reply = await this.followRedirects(url)
        if (reply.status >= 200 && reply.status < 300) return decodeJson(url, reply, resource)
        failure = explainStatus(reply, url, resource, this.options.token !== undefined)
        if (!RETRYABLE_STATUSES.has(reply.status)) throw failure
        retryAfter = headerValue(reply, 'retry-after')
      } catch (error) {
        if (error instanceof DeadlineReached) {
          throw new TimeoutError(
            `The overall time-out (pollingTimeoutSec) ran out while waiting for ${resource.what} from ${url.href}.`
          )
        }
        if (!(error instanceof NetworkFailure)) throw error
        failure = new ServerRequestError(
          `Could not reach the server for ${resource.what} at ${url.href}: ${error.message}` +
            (error.retryable
              ? ". Check sonarHostUrl / the report's serverUrl, the network, and HTTPS_PROXY / NO_PROXY when a proxy is in the way."
              : '')
        )
        // An untrusted certificate does not heal by waiting.
        if (!error.retryable) throw failure
      }
      const delay = retryDelayMs(attempt, retryAfter, this.options.random, Date.now())
      if (clock.now() + delay >= deadline) {
        throw new ServerRequestError(
          `${failure.message} Gave up after ${attempt + 1} ${attempt === 0 ? 'try' : 'tries'}: the overall time-out (pollingTimeoutSec) leaves no time for another.`,
          failure.status
        )
      }
      this.options.onRetry(
        `${failure.status ? `HTTP ${failure.status}` : 'No reply'} for ${resource.what}; trying again in ${delay} ms (try ${attempt + 2}).`
      )
      await clock.sleep(delay)
    }
  }

  /** One GET, following same-origin redirects by hand so the token never leaves the server. */
  private async followRedirects(start: URL): Promise<Reply> {
    let url = start
    for (let hop = 0; ; hop++) {
      const reply = await this.send(url)
      const location = headerValue(reply, 'location')
      if (reply.status < 300 || reply.status >= 400 || reply.status === 304 || !location) {
        return reply
      }
      const next = new URL(location, url)
      if (!isAllowedRedirect(url, next)) {
        throw new UnsafeRequestError(
          `Refusing to follow a redirect from ${url.origin} to ${next.origin} with the token: redirects are followed only on the same server (or its https:// address). Set sonarHostUrl to the address the server really answers on.`
        )
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new ServerRequestError(
          `Too many redirects (${MAX_REDIRECTS}) starting at ${start.href}: set sonarHostUrl to the address the server really answers on.`,
          reply.status
        )
      }
      url = next
    }
  }

  /** Ends the kept-alive connections; the client reconnects if used again. */
  close(): void {
    this.http?.dispose()
    this.http = undefined
  }

  /** Polls reuse one kept-alive connection: no new TCP and TLS handshake every second. */
  private connection(): HttpClient {
    this.http ??= new HttpClient(
      this.options.userAgent,
      this.options.rootCert ? [new TrustExtraCa(this.options.rootCert)] : [],
      {
        allowRedirects: false,
        allowRetries: false,
        keepAlive: true,
        socketTimeout: this.options.requestTimeoutMs
      }
    )
    return this.http
  }

  /** One request, body included, with a hard time-out; a network failure becomes a NetworkFailure. */
  private async send(url: URL): Promise<Reply> {
    const remaining = this.options.deadline - this.options.clock.now()
    const cutByDeadline = remaining < this.options.requestTimeoutMs
    const timeoutMs = cutByDeadline
      ? Math.max(remaining, MIN_REQUEST_MS)
      : this.options.requestTimeoutMs
    const client = this.connection()
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.options.token !== undefined) headers['authorization'] = basicAuth(this.options.token)

    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The only way to abandon a request: destroy its sockets. The next one reconnects.
        this.close()
        reject(
          cutByDeadline
            ? new DeadlineReached()
            : new NetworkFailure(`no reply within ${timeoutMs} ms`)
        )
      }, timeoutMs)
    })
    try {
      const reply = client.get(url.href, headers).then(async (response) => ({
        status: response.message.statusCode ?? 0,
        headers: response.message.headers,
        body: await response.readBody()
      }))
      return await Promise.race([reply, timeout])
    } catch (error) {
      if (error instanceof NetworkFailure || error instanceof DeadlineReached) throw error
      const { code } = error as NodeJS.ErrnoException
      if (isCertificateError(code)) {
        throw new NetworkFailure(
          certificateAdvice(code, this.options.rootCert !== undefined),
          false
        )
      }
      throw new NetworkFailure(describeNetworkError(error))
    } finally {
      clearTimeout(timer)
    }
  }
}

/** `Basic base64(token + ':')`: the token as user name with an empty password. */
export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`
}

class NetworkFailure extends Error {
  constructor(
    message: string,
    readonly retryable = true
  ) {
    super(message)
  }
}

/** A request the overall deadline cut short: a time-out, not a server fault. */
class DeadlineReached extends Error {}

/** A reply read in full. */
interface Reply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** Adds the private CA to this client's TLS options only: no global trust store change. */
class TrustExtraCa implements RequestHandler {
  private readonly ca: string[]
  constructor(pem: string) {
    this.ca = [...rootCertificates, pem]
  }
  prepareRequest(options: RequestOptions & { ca?: string[] }): void {
    const { ca } = this
    options.ca = ca
    // Behind HTTPS_PROXY the request goes through a tunnelling agent, which opens the TLS
    // connection with its own options rather than the request's: it needs the CA too. Both
    // kinds of agent belong to this client's HttpClient alone.
    const agent = options.agent as { options?: { ca?: string[] } } | undefined
    if (agent?.options !== undefined) agent.options.ca = ca
  }
  canHandleAuthentication(): boolean {
    return false
  }
  handleAuthentication(): Promise<HttpClientResponse> {
    throw new Error('not used')
  }
}

function headerValue(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function describeNetworkError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ENOTFOUND') return 'host not found'
  if (code === 'ECONNRESET') return 'connection reset'
  return code ? `${code}: ${message}` : message
}

function certificateAdvice(code: string | undefined, rootCertGiven: boolean): string {
  return rootCertGiven
    ? `TLS certificate not trusted (${code}) even with sonarRootCert: it must hold, as PEM, the CA certificate that issued the server's certificate (or an intermediate of its chain), and the server's certificate must name the host of the URL.`
    : `TLS certificate not trusted (${code}). For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate (PEM).`
}

function isCertificateError(code: string | undefined): boolean {
  return code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)
}

function decodeJson<T>(url: URL, reply: Reply, resource: Resource<T>): T {
  const contentType = headerValue(reply, 'content-type') ?? 'no content type'
  let json: unknown
  try {
    json = JSON.parse(reply.body)
  } catch {
    const looksLikeHtml = /^\s*</.test(reply.body)
    throw new ServerRequestError(
      `Expected JSON for ${resource.what} from ${url.href} but got ${contentType}${looksLikeHtml ? ' (an HTML page: a login page or a proxy error page)' : ''}. Check that sonarHostUrl / the report's serverUrl is the server's own address and that no proxy or SSO page stands in front of its Web API.`,
      reply.status
    )
  }
  try {
    return resource.decode(json)
  } catch (error) {
    if (!(error instanceof UnexpectedShape)) throw error
    throw new ServerRequestError(
      `Unexpected reply for ${resource.what} from ${url.href}: ${error.message}. Is this a SonarQube or SonarCloud server?`,
      reply.status
    )
  }
}

function explainStatus(
  { status, body }: Reply,
  url: URL,
  resource: Resource<unknown>,
  tokenSent: boolean
): ServerRequestError {
  const at = `(HTTP ${status} at ${url.href})`
  switch (status) {
    case 401:
      return new ServerRequestError(
        tokenSent
          ? `The server rejected the token ${at}: it is wrong, expired or revoked. Create a user token (My Account → Security) and store it as the SONAR_TOKEN secret.`
          : `The server requires a token ${at} and none was given: set the SONAR_TOKEN environment variable or the sonarToken input.`,
        status
      )
    case 403:
      return new ServerRequestError(
        `The token may not read ${resource.what} ${at}: its user needs the Browse permission on the project, and Execute Analysis to read analysis tasks. Use a token of such a user, or a project analysis token.`,
        status
      )
    case 404:
      return new ServerRequestError(`${resource.notFound} ${at}`, status)
    default: {
      const detail = serverErrorMessage(body)
      return new ServerRequestError(
        `The server failed to answer for ${resource.what} ${at}${detail ? `: ${detail}` : ''}.`,
        status
      )
    }
  }
}

/** SonarQube errors look like {"errors":[{"msg":"..."}]}. */
function serverErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { errors?: { msg?: unknown }[] }
    const messages = parsed.errors?.map((e) => e.msg).filter((m) => typeof m === 'string')
    return messages?.length ? messages.join('; ') : undefined
  } catch {
    return undefined
  }
}
