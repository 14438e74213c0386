import type { Clock } from '../clock.js'
import { ServerRequestError, TimeoutError, UnsafeRequestError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { BodyProblem, parseJsonBody } from './json-reply.js'
import { isAllowedRedirect, isSameOrigin, serverBase, shownUrl } from './origin.js'
import { decideRetry, type Fault } from './retry-policy.js'
import { HttpTransport, TransportFailure, type Reply } from './transport.js'
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
  /** Largest reply body read (default 10 MB). */
  maxBodyBytes?: number
  random?: () => number
  /** Where retries are reported (one line each). */
  onRetry?: (message: string) => void
}

const MAX_REDIRECTS = 5

/**
 * The least time a request is given, even near or just past the deadline: a poll or gate read
 * that starts then must have a chance to bring a verdict that is there. Nothing runs past
 * deadline + DEADLINE_GRACE_MS: that is the exact bound of the overall time-out.
 */
export const DEADLINE_GRACE_MS = 1000

/** What the caller wants to read, for messages that say what went wrong. */
interface Resource<T> {
  what: string
  /** What to check when the server says 404 or 400. */
  advice: { notFound: string; badRequest: string }
  decode: (body: unknown) => T
}

/**
 * The one HTTP client of the action: Basic auth with the token as user, same-origin rules for the
 * token, per-request time-outs, retries inside the overall deadline, JSON checks, and a message
 * a user can act on for every failure.
 */
export class SonarClient {
  private readonly options: Required<
    Omit<SonarClientOptions, 'token' | 'rootCert' | 'maxBodyBytes'>
  > &
    Pick<SonarClientOptions, 'token'>
  private readonly serverBase: URL
  private readonly transport: HttpTransport
  private readonly rootCertGiven: boolean

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
    this.rootCertGiven = options.rootCert !== undefined
    this.transport = new HttpTransport({
      userAgent: options.userAgent,
      rootCert: options.rootCert,
      maxBodyBytes: options.maxBodyBytes
    })
  }

  /** `GET <taskUrl>`: the compute-engine task the analysis submitted. */
  async getTask(taskUrl: URL, taskId: string): Promise<Task> {
    const task = oneLine(taskId)
    return this.getJson(taskUrl, {
      what: `task ${task}`,
      advice: {
        notFound: `Task ${task} was not found: the report file may come from another server or an earlier run, or the taskId input is wrong. On SonarCloud, also check that the token belongs to the project's organization.`,
        badRequest: `The server refused the request for task ${task}: check the taskId input or the report file's ceTaskId.`
      },
      decode: decodeTask
    })
  }

  /** `GET <server>/api/qualitygates/project_status?analysisId=`: the gate of one analysis. */
  async getProjectStatus(analysisId: string): Promise<ProjectStatus> {
    const url = new URL(
      `api/qualitygates/project_status?analysisId=${encodeURIComponent(analysisId)}`,
      this.serverBase
    )
    const analysis = oneLine(analysisId)
    return this.getJson(url, {
      what: `the quality gate status of analysis ${analysis}`,
      advice: {
        notFound: `Analysis ${analysis} was not found: check the analysisId input, or the analysis was deleted by the server's housekeeping.`,
        badRequest: `The server refused the request for analysis ${analysis}: check the analysisId input.`
      },
      decode: decodeProjectStatus
    })
  }

  /** The task address for a task id on this server: `<server>/api/ce/task?id=<id>`. */
  taskUrl(taskId: string): URL {
    return new URL(`api/ce/task?id=${encodeURIComponent(taskId)}`, this.serverBase)
  }

  /** Ends the kept-alive connections; the client reconnects if used again. */
  close(): void {
    this.transport.close()
  }

  private async getJson<T>(url: URL, resource: Resource<T>): Promise<T> {
    if (!isSameOrigin(url, this.options.serverUrl)) {
      throw new UnsafeRequestError(
        `Refusing to send the token to ${shownUrl(url, 'origin')}: the task address is not on the server ${shownUrl(this.options.serverUrl, 'origin')}. The report file may be tampered with or from another server; set sonarHostUrl to the server you trust to build the task address from it.`
      )
    }
    const { clock, deadline } = this.options
    for (let attempt = 0; ; attempt++) {
      let failed: FailedTry
      try {
        const reply = await this.followRedirects(url, resource)
        if (reply.status >= 200 && reply.status < 300) return decodeJson(url, reply, resource)
        failed = {
          error: explainStatus(reply, url, resource, this.options.token !== undefined),
          fault: {
            kind: 'status',
            status: reply.status,
            retryAfter: headerValue(reply, 'retry-after')
          },
          cause: `HTTP ${reply.status}`
        }
      } catch (error) {
        if (error instanceof DeadlineReached) {
          throw new TimeoutError(
            `The overall time-out (pollingTimeoutSec) ran out while waiting for ${resource.what} from ${shownUrl(url)}.`
          )
        }
        if (error instanceof FailedTryError) failed = error.failed
        else if (error instanceof TransportFailure)
          failed = this.explainTransport(error, url, resource)
        else throw error
      }
      const decision = decideRetry(
        failed.fault,
        attempt,
        deadline - clock.now(),
        this.options.random,
        Date.now()
      )
      if (!decision.retry) {
        if (!decision.why) throw failed.error
        throw new ServerRequestError(`${failed.error.message} ${decision.why}`, failed.error.status)
      }
      this.options.onRetry(
        `${failed.cause} for ${resource.what}; trying again in ${decision.delayMs} ms (try ${attempt + 2}).`
      )
      await clock.sleep(decision.delayMs)
    }
  }

  /** A failure on the way to the server, in words, with how it weighs for retrying. */
  private explainTransport(
    failure: TransportFailure,
    url: URL,
    resource: Resource<unknown>
  ): FailedTry {
    const where = `for ${resource.what} at ${shownUrl(url)}`
    switch (failure.reason) {
      case 'tls':
        return {
          error: new ServerRequestError(
            `Could not reach the server ${where}: ${certificateAdvice(failure.code, this.rootCertGiven)}`
          ),
          fault: { kind: 'final' },
          cause: 'TLS certificate not trusted'
        }
      case 'malformed':
        return {
          error: new ServerRequestError(
            `Could not read the server's reply ${where}: ${failure.message}. Check that sonarHostUrl / the report's serverUrl is the server's own address and what stands in front of it.`
          ),
          fault: { kind: 'final' },
          cause: 'invalid HTTP'
        }
      case 'too-large':
        return {
          error: new ServerRequestError(
            `The server's reply ${where} was refused: ${failure.message}. Check that sonarHostUrl / the report's serverUrl is the server's own address.`
          ),
          fault: { kind: 'final' },
          cause: 'reply too large'
        }
      case 'refused':
      case 'dns':
      case 'unreachable':
        return {
          error: new ServerRequestError(
            `Could not reach the server ${where}: ${failure.message}. Check the address (sonarHostUrl or the report's serverUrl), that the server is running, and HTTPS_PROXY / NO_PROXY when a proxy is in the way.`
          ),
          fault: { kind: 'unreachable' },
          cause: failure.message
        }
      default:
        return {
          error: new ServerRequestError(
            `Could not read the server's reply ${where}: ${failure.message}. Check the network, and HTTPS_PROXY / NO_PROXY when a proxy is in the way.`
          ),
          fault: { kind: 'transient' },
          cause: failure.message
        }
    }
  }

  /** One GET, following same-origin redirects by hand so the token never leaves the server. */
  private async followRedirects(start: URL, resource: Resource<unknown>): Promise<Reply> {
    let url = start
    for (let hop = 0; ; hop++) {
      const reply = await this.send(url)
      const location = headerValue(reply, 'location')
      if (reply.status < 300 || reply.status >= 400 || reply.status === 304 || !location) {
        return reply
      }
      const next = redirectTarget(location, url, resource)
      if (!isAllowedRedirect(url, next)) {
        throw new UnsafeRequestError(
          `Refusing to follow a redirect from ${shownUrl(url, 'origin')} to ${shownUrl(next, 'origin')} with the token: redirects are followed only on the same server (or its https:// address). Set sonarHostUrl to the address the server really answers on.`
        )
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new ServerRequestError(
          `Too many redirects (${MAX_REDIRECTS}) starting at ${shownUrl(start)}: set sonarHostUrl to the address the server really answers on.`,
          reply.status
        )
      }
      url = next
    }
  }

  /** One request, body included, within its time-out and never past deadline + grace. */
  private async send(url: URL): Promise<Reply> {
    const { deadline, clock, requestTimeoutMs, token, userAgent } = this.options
    // Up to the deadline, or 1 s if that is less, but never past deadline + grace.
    const now = clock.now()
    const hardLeftMs = deadline + DEADLINE_GRACE_MS - now
    if (hardLeftMs <= 0) throw new DeadlineReached()
    const leftMs = Math.min(Math.max(deadline - now, DEADLINE_GRACE_MS), hardLeftMs)
    const cutByDeadline = leftMs < requestTimeoutMs
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent }
    if (token !== undefined) headers['authorization'] = basicAuth(token)
    try {
      return await this.transport.get(url, headers, Math.min(leftMs, requestTimeoutMs))
    } catch (error) {
      if (cutByDeadline && error instanceof TransportFailure && error.reason === 'timeout') {
        throw new DeadlineReached()
      }
      throw error
    }
  }
}

/** `Basic base64(token + ':')`: the token as user name with an empty password. */
export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`
}

/** A request the overall deadline cut short: a time-out, not a server fault. */
class DeadlineReached extends Error {}

/** One try that failed: the error to report, how it weighs for retrying, and a short cause. */
interface FailedTry {
  error: ServerRequestError
  fault: Fault
  /** A few words for the retry line: "HTTP 503", "connection refused", "no reply within 10 s". */
  cause: string
}

/** A failed try thrown from deep inside a try (a 2xx body cut off mid-JSON). */
class FailedTryError extends Error {
  constructor(readonly failed: FailedTry) {
    super(failed.error.message)
  }
}

/** A redirect's Location as a URL, or a clear refusal: only http(s) addresses are followed. */
function redirectTarget(location: string, from: URL, resource: Resource<unknown>): URL {
  let next: URL | undefined
  try {
    next = new URL(location, from)
  } catch {
    next = undefined
  }
  const quoted = `"${oneLine(location, QUOTE_LIMITS.short)}"`
  if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
    throw new ServerRequestError(
      `The server redirected the request for ${resource.what} to ${next ? quoted : `${quoted}, which is not an address`}: only http:// and https:// addresses on the same server are followed. Set sonarHostUrl to the address the server really answers on.`
    )
  }
  if (next.username || next.password) {
    throw new UnsafeRequestError(
      `Refusing to follow a redirect to an address with credentials in it (${shownUrl(next, 'origin')}): the action sends only its own token.`
    )
  }
  return next
}

function headerValue(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function certificateAdvice(code: string | undefined, rootCertGiven: boolean): string {
  return rootCertGiven
    ? `TLS certificate not trusted (${code}) even with sonarRootCert: it must hold, as PEM, the CA certificate that issued the server's certificate (or an intermediate of its chain), and the server's certificate must name the host of the URL.`
    : `TLS certificate not trusted (${code}). For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate (PEM).`
}

function decodeJson<T>(url: URL, reply: Reply, resource: Resource<T>): T {
  const from = `for ${resource.what} from ${shownUrl(url)}`
  let json: unknown
  try {
    json = parseJsonBody(reply.body, reply.headers)
  } catch (error) {
    if (!(error instanceof BodyProblem)) throw error
    const failure = new ServerRequestError(`The reply ${from} ${error.message}.`, reply.status)
    if (!error.truncated) throw failure
    throw new FailedTryError({
      error: failure,
      fault: { kind: 'transient' },
      cause: 'truncated body'
    })
  }
  try {
    return resource.decode(json)
  } catch (error) {
    if (!(error instanceof UnexpectedShape)) throw error
    throw new ServerRequestError(
      `Unexpected reply ${from}: ${error.message}. Is this a SonarQube or SonarCloud server?`,
      reply.status
    )
  }
}

function explainStatus(
  reply: Reply,
  url: URL,
  resource: Resource<unknown>,
  tokenSent: boolean
): ServerRequestError {
  const { status } = reply
  const at = `(HTTP ${status} at ${shownUrl(url)})`
  const words = serverWords(reply)
  // The server's own words first: they name the task, the analysis or the permission (a 401's
  // "Authentication required" adds nothing to ours).
  const said = words && status !== 401 ? `The server says: ${words}. ` : ''
  switch (status) {
    case 401:
      return new ServerRequestError(
        `${said}${
          tokenSent
            ? `The server rejected the token ${at}: it is wrong, expired or revoked. Create a user token (My Account → Security) and store it as the SONAR_TOKEN secret.`
            : `The server requires a token ${at} and none was given: set the SONAR_TOKEN environment variable or the sonarToken input.`
        }`,
        status
      )
    case 403:
      return new ServerRequestError(
        `${said}The token may not read ${resource.what} ${at}: its user needs the Browse permission on the project, and Execute Analysis to read analysis tasks. Use a token of such a user, or a project analysis token.`,
        status
      )
    case 404:
      return new ServerRequestError(`${said}${resource.advice.notFound} ${at}`, status)
    case 400:
      return new ServerRequestError(`${said}${resource.advice.badRequest} ${at}`, status)
    default:
      return new ServerRequestError(
        `The server failed to answer for ${resource.what} ${at}${words ? `: ${words}` : ''}.`,
        status
      )
  }
}

/** The most error messages quoted from one reply. */
const MAX_SERVER_MESSAGES = 3

/**
 * The server's own words from `{"errors":[{"msg":"..."}]}`, quoted and bounded; entries that are
 * not of that shape are skipped. undefined when the body holds none.
 */
function serverWords(reply: Reply): string | undefined {
  let body: unknown
  try {
    body = parseJsonBody(reply.body, reply.headers)
  } catch {
    return undefined
  }
  const errors = (body as { errors?: unknown } | null)?.errors
  if (!Array.isArray(errors)) return undefined
  const messages: string[] = []
  for (const entry of errors) {
    const msg = (entry as { msg?: unknown } | null)?.msg
    if (typeof msg === 'string' && msg.trim() !== '') {
      messages.push(`"${oneLine(msg.trim(), QUOTE_LIMITS.long)}"`)
    }
    if (messages.length === MAX_SERVER_MESSAGES) break
  }
  return messages.length ? messages.join('; ') : undefined
}
