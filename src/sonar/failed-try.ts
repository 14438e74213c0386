/**
 * One try that failed, in words a user can act on, with how it weighs for retrying: a status the
 * server answered, or a failure on the way. The server's own words come first where they help.
 */
import { ServerRequestError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { parseJsonBody } from './json-reply.js'
import { shownUrl } from './origin.js'
import type { Fault } from './retry-policy.js'
import { headerValue, type Reply, type TransportFailure } from './transport.js'

/** How messages name what was asked for, and what to check when the server says 404 or 400. */
export interface ResourceWords {
  what: string
  advice: { notFound: string; badRequest: string }
}

/** One try that failed: the error to report, how it weighs for retrying, and a short cause. */
export interface FailedTry {
  error: ServerRequestError
  fault: Fault
  /** A few words for the retry line: "HTTP 503", "connection refused", "no reply within 10 s". */
  cause: string
}

/** A failed try thrown from deep inside a try (a 2xx body cut off mid-JSON). */
export class FailedTryError extends Error {
  constructor(readonly failed: FailedTry) {
    super(failed.error.message)
  }
}

/** A failure on the way to the server, in words, with how it weighs for retrying. */
export function transportFailure(
  failure: TransportFailure,
  url: URL,
  resource: ResourceWords,
  rootCertGiven: boolean
): FailedTry {
  const where = `for ${resource.what} at ${shownUrl(url)}`
  switch (failure.reason) {
    case 'tls':
      return {
        error: new ServerRequestError(
          `Could not reach the server ${where}: ${certificateAdvice(failure.code, rootCertGiven)}`
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

/** A status the server answered instead of the JSON asked for, in words. */
export function statusFailure(
  reply: Reply,
  url: URL,
  resource: ResourceWords,
  /** The schemes the token was sent with ("Bearer and Basic"); undefined without a token. */
  authTried: string | undefined
): FailedTry {
  const retryAfter = headerValue(reply, 'retry-after')
  return {
    error: statusError(reply, url, resource, authTried),
    fault: { kind: 'status', status: reply.status, retryAfter },
    cause: `HTTP ${reply.status}`
  }
}

function statusError(
  reply: Reply,
  url: URL,
  resource: ResourceWords,
  authTried: string | undefined
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
          authTried
            ? `The server rejected the token ${at}, sent with ${authTried} authentication: it is wrong, expired or revoked. Create a user token (My Account → Security) and store it as the SONAR_TOKEN secret.`
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

function certificateAdvice(code: string | undefined, rootCertGiven: boolean): string {
  return rootCertGiven
    ? `TLS certificate not trusted (${code}) even with sonarRootCert: it must hold, as PEM, the CA certificate that issued the server's certificate (or an intermediate of its chain), and the server's certificate must name the host of the URL.`
    : `TLS certificate not trusted (${code}). For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate (PEM).`
}
