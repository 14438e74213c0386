/**
 * One try that failed, in words a user can act on, with how it weighs for retrying: a status the
 * server answered, or a failure on the way. The server's own words come first where they help.
 */
import { ServerRequestError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { parseJsonBody } from './json-reply.js'
import { shownUrl } from './origin.js'
import type { Fault } from '../http/retry-policy.js'
import { headerValue, type Reply, type TransportFailure } from '../http/transport.js'
import { setting, settingOrVariable, theVariableOrSetting, msg, type Said } from '../words.js'

/** How messages name what was asked for, and what to check when the server says 404 or 400. */
export interface ResourceWords {
  what: string
  notFound: Said
  badRequest: Said
  /** Said instead of notFound when the server has no such address ("Unknown url : /api/…"). */
  unknownUrl?: Said
}

/** One try that failed: the error to report, how it weighs for retrying, and a short cause. */
export interface FailedTry {
  error: ServerRequestError
  fault: Fault
  /** A few words for the retry line: "HTTP 503", "connection refused", "no reply within 10 s". */
  cause: string
}

/** How one kind of failure on the way reads, and how it weighs for retrying. */
interface TransportWords {
  /** The message's start: the server could not be reached, its reply read, or was refused. */
  opening: 'reach' | 'read' | 'refused'
  /** How it weighs for retrying; 'final' (waiting does not fix it) when not said. */
  fault?: 'unreachable' | 'transient'
  /** A few words for the retry line; the failure's own message when undefined. */
  cause?: string
  /** The rest of the message: what happened and what to do. */
  says(failure: TransportFailure, url: URL, rootCertGiven: boolean): Said
}

const HOST = msg`${setting('host')} (or the report's serverUrl)`
const OWN_ADDRESS = msg`Check that ${setting('host')} / the report's serverUrl is the server's own address`
const PROXY = 'HTTPS_PROXY / NO_PROXY when a proxy is in the way'
const UNREACHABLE: TransportWords = {
  opening: 'reach',
  fault: 'unreachable',
  says: (failure) =>
    msg`${withNodeCode(failure)}. Check the address (${setting('host')} or the report's serverUrl), that the server is running, and ${PROXY}.`
}
const BROKEN: TransportWords = {
  opening: 'read',
  fault: 'transient',
  says: (failure) => `${withNodeCode(failure)}. Check the network, and ${PROXY}.`
}

/** Each cause of TransportFailure in words; those not named are BROKEN (they may heal). */
const TRANSPORT_WORDS: Partial<Record<TransportFailure['reason'], TransportWords>> = {
  'not-tls': {
    opening: 'reach',
    cause: 'not TLS',
    says: (failure) =>
      msg`it does not speak TLS there (${codeFirst(failure)}): a plain-HTTP server or port answers at this https:// address. Use http:// instead of https:// in ${HOST}, or the port where the server speaks HTTPS.`
  },
  'certificate-untrusted': {
    opening: 'reach',
    cause: 'TLS certificate not trusted',
    says: (failure, _, rootCertGiven) => certificateAdvice(failure.code, rootCertGiven)
  },
  'certificate-expired': {
    opening: 'reach',
    cause: 'TLS certificate expired',
    says: (failure) =>
      `the server's TLS certificate has expired (${failure.code}). Renew it on the server; if it was renewed, check that this machine's clock is right.`
  },
  'certificate-not-yet-valid': {
    opening: 'reach',
    cause: 'TLS certificate not valid yet',
    says: (failure) =>
      `the server's TLS certificate is not valid yet (${failure.code}). Check that this machine's clock is right, and the certificate's start date on the server.`
  },
  'certificate-name': {
    opening: 'reach',
    cause: 'TLS certificate for another host',
    says: (failure, url) =>
      msg`the server's TLS certificate does not name ${url.hostname} (${failure.code})${namesHeld(failure.certificateNames)}. Use a host name the certificate holds in ${HOST}, or have the certificate reissued to name ${url.hostname}.`
  },
  tls: {
    opening: 'reach',
    cause: 'TLS failed',
    says: (failure) =>
      msg`TLS failed (${codeFirst(failure)}). Check that ${HOST} is the server's HTTPS address, and what the server (or what stands in front of it) requires: the action speaks TLS 1.2 and 1.3 and sends no client certificate.`
  },
  'not-http': {
    opening: 'read',
    cause: 'not HTTP',
    says: (failure) =>
      msg`the reply is not HTTP (${codeFirst(failure)}): something other than a web server answers on that port. Check the port in ${HOST}; for the server's HTTPS port, use https://.`
  },
  malformed: {
    opening: 'read',
    cause: 'invalid HTTP',
    says: (failure) =>
      msg`the reply is not valid HTTP (${codeFirst(failure)}). ${OWN_ADDRESS} and what stands in front of it.`
  },
  'too-large': {
    opening: 'refused',
    cause: 'reply too large',
    says: (failure) => msg`${failure.message}. ${OWN_ADDRESS}.`
  },
  refused: UNREACHABLE,
  dns: UNREACHABLE,
  unreachable: UNREACHABLE
}

/**
 * A failure on the way to the server, in words, with how it weighs for retrying. A failure that
 * waiting does not fix fails at once, on one line that names the fix. Every message keeps Node's
 * code, as does the error (`nodeCode`), and the error's cause is the transport's failure.
 */
export function transportFailure(
  failure: TransportFailure,
  url: URL,
  resource: ResourceWords,
  rootCertGiven: boolean
): FailedTry {
  const where = `for ${resource.what} at ${shownUrl(url)}`
  if (failure.proxy) return proxyFailure(failure, failure.proxy, url, where)
  const words = TRANSPORT_WORDS[failure.reason] ?? BROKEN
  const fault = words.fault ?? 'final'
  const opening = {
    reach: `Could not reach the server ${where}: `,
    read: `Could not read the server's reply ${where}: `,
    refused: `The server's reply ${where} was refused: `
  }[words.opening]
  const error = new ServerRequestError(
    msg`${opening}${words.says(failure, url, rootCertGiven)}`,
    undefined,
    {
      nodeCode: failure.code,
      cause: failure,
      origin: url.origin,
      ...(fault === 'final' ? {} : { noReply: true })
    }
  )
  return { error, fault: { kind: fault }, cause: words.cause ?? failure.message }
}

/**
 * A tunnel the proxy turned down, in words that name the proxy (never its credentials) and what
 * to do. A status it answered weighs as a server's would: 407 and 403 fail at once, a 502, 503 or
 * 504 (the proxy could not reach the server, or is failing) is tried again. Without a status the
 * proxy could not be reached (the transport names the proxy for nothing else), which weighs as a
 * server that cannot be.
 */
function proxyFailure(
  failure: TransportFailure,
  proxy: NonNullable<TransportFailure['proxy']>,
  url: URL,
  where: string
): FailedTry {
  // The server's origin, as every ServerRequestError keeps it; the proxy's is in the words.
  const origin = url.origin
  const bypass = `if the server needs no proxy, add ${url.hostname} to NO_PROXY`
  if (proxy.status !== undefined) {
    const { status } = proxy
    const error = new ServerRequestError(
      msg`The proxy refused the tunnel to the server ${where}: ${failure.message}. ${proxyAdvice(proxy, url, bypass)}`,
      undefined,
      { cause: failure, origin, ...(status >= 500 ? { noReply: true } : {}) }
    )
    const fault: Fault = { kind: 'status', status, retryAfter: proxy.retryAfter }
    return { error, fault, cause: `proxy HTTP ${status}` }
  }
  const error = new ServerRequestError(
    `Could not reach the proxy on the way to the server ${where}: ${withNodeCode(failure)}. Check the proxy's address in ${proxy.variable}, and that the proxy is running; ${bypass}.`,
    undefined,
    { nodeCode: failure.code, cause: failure, origin, noReply: true }
  )
  return { error, fault: { kind: 'unreachable' }, cause: failure.message }
}

/** What to do about a proxy's answer to CONNECT. */
function proxyAdvice(
  { status, variable, withCredentials }: NonNullable<TransportFailure['proxy']>,
  url: URL,
  bypass: string
): Said {
  if (status === 407) {
    return withCredentials
      ? `It refused the credentials ${variable} gives: check the user and the password in it (http://user:password@host:port).`
      : `It asks for credentials: give them in ${variable}, as http://user:password@host:port.`
  }
  if (status === 403) {
    return `It does not let this machine reach ${url.host}: have the proxy allow that host, or, ${bypass}.`
  }
  if (status !== undefined && status >= 500) {
    return msg`The proxy could not connect to ${url.host}, or is failing: check that ${HOST} is the server's address as the proxy reaches it, and the proxy itself; ${bypass}.`
  }
  return `Check the proxy ${variable} names; ${bypass}.`
}

/** Node's code before the failure's words: "EPROTO: wrong version number". */
function codeFirst({ code, message }: TransportFailure): string {
  return code ? `${code}: ${message}` : message
}

/**
 * The failure's words with Node's code, when they do not hold it already: "connection refused
 * (ECONNREFUSED)", "host not found (DNS, ENOTFOUND)".
 */
function withNodeCode({ message, code }: TransportFailure): string {
  if (!code || message.includes(code)) return message
  return message.endsWith(')') ? `${message.slice(0, -1)}, ${code})` : `${message} (${code})`
}

/** The names a certificate holds, quoted: server text, one line and bounded. */
function namesHeld(names: string | undefined): string {
  return names ? `: it names "${oneLine(names, QUOTE_LIMITS.short)}"` : ''
}

/** A status the server answered instead of the JSON asked for, in words. */
export function statusFailure(
  reply: Reply,
  url: URL,
  resource: ResourceWords,
  /** The schemes the token was sent with ("Bearer and Basic"); undefined without a token. */
  authTried: string | undefined,
  /** What analysis token the token is (`analysisTokenKind`); undefined for a user token. */
  analysisToken?: string
): FailedTry {
  return {
    error: statusError(reply, url, resource, authTried, analysisToken),
    fault: { kind: 'status', status: reply.status, retryAfter: headerValue(reply, 'retry-after') },
    cause: `HTTP ${reply.status}`
  }
}

function statusError(
  reply: Reply,
  url: URL,
  resource: ResourceWords,
  authTried: string | undefined,
  analysisToken: string | undefined
): ServerRequestError {
  const { status } = reply
  const at = `(HTTP ${status} at ${shownUrl(url)})`
  const words = serverWords(reply)
  // The server's own words first: they name the task, the analysis or the permission (a 401's
  // "Authentication required" adds nothing to ours).
  const said = words && status !== 401 ? `The server says: ${words}. ` : ''
  const failed = (message: Said, fields: { analysisToken?: string } = {}) =>
    new ServerRequestError(message, status, { ...fields, origin: url.origin })
  switch (status) {
    case 401:
      return failed(
        msg`${said}${
          authTried
            ? `The server rejected the token ${at}, sent with ${authTried} authentication: it is wrong, expired or revoked. Create a user token (My Account → Security) and store it as the SONAR_TOKEN secret.`
            : msg`The server requires a token ${at} and none was given: set ${theVariableOrSetting('token')}.`
        }`
      )
    case 403:
      // A real server refuses analysis tokens what needs Browse, whatever their user may do.
      if (analysisToken) {
        return failed(
          `${said}The token may not read ${resource.what} ${at}: it is ${analysisToken}. SonarQube lets analysis tokens submit analyses and read their tasks and gates (a project analysis token its own project's only), and refuses them what needs Browse: a project's analyses, background tasks, measures and hotspots. Use a user token (squ_…, My Account → Security) of a user with the Browse permission on the project.`,
          { analysisToken }
        )
      }
      return failed(
        `${said}The token may not read ${resource.what} ${at}: its user needs the Browse permission on the project, and Execute Analysis to read analysis tasks. Use a token of such a user, or a project analysis token.`
      )
    case 404: {
      // A server without the address answers in these words (SonarQube 10.7, recorded).
      const noSuchAddress = words?.startsWith('"Unknown url') === true
      const advice = (noSuchAddress && resource.unknownUrl) || resource.notFound
      return failed(msg`${said}${advice} ${at}`)
    }
    case 400:
      return failed(msg`${said}${resource.badRequest} ${at}`)
    default:
      return failed(
        `The server failed to answer for ${resource.what} ${at}${words ? `: ${words}` : ''}.`
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

function certificateAdvice(code: string | undefined, rootCertGiven: boolean): Said {
  if (rootCertGiven) {
    return msg`TLS certificate not trusted (${code}) even with ${setting('rootCert')}: it must hold, as PEM, the CA certificate that issued the server's certificate (or an intermediate of its chain), and the server's certificate must name the host of the URL.`
  }
  return code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
    ? msg`TLS certificate not trusted (${code}): the server's certificate is self-signed. Set ${settingOrVariable('rootCert')} to that certificate (PEM), or give the server one that a CA issued.`
    : msg`TLS certificate not trusted (${code}). For a server behind a private CA, set ${settingOrVariable('rootCert')} to that CA's certificate (PEM).`
}
