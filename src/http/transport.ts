/**
 * One request on the wire (the server's GETs, the platforms' and GitHub's requests): the
 * connection (kept alive, one pool per protocol, through HTTPS_PROXY when the environment says
 * so), the private CA, a hard time-out on the whole exchange, and a body read in linear time up
 * to a size limit. Every way it can fail becomes a TransportFailure that names its cause; whether
 * to try again is the retry policy's decision, not this module's.
 *
 * By hand on `node:http`, not `fetch`: fetch's engine, undici, costs 96–108 ms to load, bundled
 * alone, against 7–12 ms for `node:http` (`npm run bench:overhead`, 28 Nov 2026); the command
 * starts in about 1.9 times the floor with this module, and would start in about 3 with undici.
 * Node's own error codes are also what tells a TLS cause, a reset and a body cut off apart.
 */
import * as http from 'node:http'
import { oneLine } from '../untrusted-text.js'
import { ConnectionAgents, type ProxyRoute, type TunnelRefusal } from './connection-agents.js'

/** The largest reply body read: real replies are a few kilobytes. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** A reply read in full. */
export interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/**
 * Why no reply came. `refused`, `dns` and `unreachable` mean nothing answers at that address;
 * `reset`, `truncated` and `timeout` are faults on the way that may heal. The others do not heal
 * by waiting.
 */
type TransportCause =
  | 'refused'
  | 'dns'
  | 'unreachable'
  | 'reset'
  | 'truncated'
  | 'timeout'
  /** The first bytes back were not TLS: a plain-HTTP server or port behind an https:// address. */
  | 'not-tls'
  /** Signed by a CA this process does not trust, or self-signed. */
  | 'certificate-untrusted'
  | 'certificate-expired'
  | 'certificate-not-yet-valid'
  /** The certificate does not name the host of the URL. */
  | 'certificate-name'
  /** Any other TLS failure: the handshake, or a certificate refused for another reason. */
  | 'tls'
  | 'too-large'
  /** The first bytes of the reply are not HTTP: something else answers on that port. */
  | 'not-http'
  /** An HTTP reply Node's parser refused part-way. */
  | 'malformed'
  /** The proxy answered the tunnel's CONNECT with a status, not 200 (407, 403, 502…). */
  | 'proxy-refused'
  | 'other'

export class TransportFailure extends Error {
  constructor(
    readonly reason: TransportCause,
    /** The cause in a few words of one line, without OpenSSL's internals. */
    message: string,
    /** The error code Node gave (ECONNREFUSED, CERT_HAS_EXPIRED...), for the messages. */
    readonly code?: string,
    /**
     * For a certificate that does not name the host: the names it holds, as the server sent
     * them (its subjectAltName, else its subject's CN). Server text, bounded where it is quoted.
     */
    readonly certificateNames?: string,
    /** Node's own error, for a reader with a debugger: its text is never shown. */
    cause?: unknown,
    /**
     * The proxy at fault, when the tunnel through it failed: it answered CONNECT with a status
     * (`proxy-refused`), or could not be reached (`refused`, `dns`, `unreachable`).
     */
    readonly proxy?: ProxyRoute & { status?: number; retryAfter?: string }
  ) {
    super(message, cause === undefined ? undefined : { cause })
  }
}

interface TransportOptions {
  userAgent: string
  /**
   * An HTTP forward proxy every plain-http request goes to, in absolute form (`GET
   * http://host/path`), as Bitbucket Pipelines' proxy for Code Insights takes them; none by
   * default (HTTPS_PROXY and HTTP_PROXY tunnel as usual).
   */
  forwardProxy?: URL
  /** Extra CA (PEM) trusted for these requests only, on top of the usual roots. */
  rootCert: string | undefined
  maxBodyBytes?: number
}

/**
 * Kept-alive connections for one server, through HTTPS_PROXY, HTTP_PROXY and NO_PROXY as every
 * other action (connection-agents.ts); each protocol has its own agent because a kept-alive
 * agent serves only the protocol of its first request (an http:// → https:// redirect would
 * otherwise fail with ERR_INVALID_PROTOCOL).
 */
export class HttpTransport {
  private readonly agents: ConnectionAgents
  private readonly ca: string[] | undefined
  private readonly maxBodyBytes: number

  constructor(private readonly options: TransportOptions) {
    // node:tls only when there is a CA to add: see connection-agents.ts.
    this.ca = options.rootCert
      ? [...process.getBuiltinModule('node:tls').rootCertificates, options.rootCert]
      : undefined
    this.agents = new ConnectionAgents(this.ca)
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES
  }

  /**
   * `method` on `url` with `body` (sent as it is, its length given), and the whole reply read, or
   * a failure within `timeoutMs` (connection, headers and body together). A redirect is a reply
   * like any other: never followed here.
   *
   * @example const reply = await transport.send('PUT', url, { 'content-type': 'application/json' }, '{"body":"…"}', 30_000)
   */
  async send(
    method: Method,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number
  ): Promise<Reply> {
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(), timeoutMs)
    try {
      return await this.exchange(method, url, headers, body, abort.signal)
    } catch (error) {
      if (abort.signal.aborted) {
        throw new TransportFailure('timeout', `no reply within ${seconds(timeoutMs)}`)
      }
      throw error instanceof TransportFailure ? error : describe(error)
    } finally {
      clearTimeout(timer)
    }
  }

  /** Ends the kept-alive connections; the next request opens new ones. */
  close(): void {
    this.agents.destroy()
  }

  private async exchange(
    method: Method,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal
  ): Promise<Reply> {
    const secure = url.protocol === 'https:'
    const forward = !secure ? this.options.forwardProxy : undefined
    const agent = forward ? this.agents.forProxy(forward) : await this.agents.for(url)
    // node:https when a request needs it (see connection-agents.ts).
    const protocol = secure ? process.getBuiltinModule('node:https') : http
    return new Promise<Reply>((resolve, reject) => {
      // Node parses the URL itself: an IPv6 literal ([::1]) loses its brackets as it must.
      const request = protocol.request(
        forward ?? url,
        {
          method,
          agent,
          // Through a forward proxy: the proxy's address, the request's in absolute form.
          ...(forward ? { path: url.href } : {}),
          headers: {
            'user-agent': this.options.userAgent,
            ...(forward ? { host: url.host } : {}),
            ...headers,
            ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) })
          },
          signal,
          ...(secure && this.ca ? { ca: this.ca } : {})
        },
        (message) => {
          readBody(message, this.maxBodyBytes).then(
            (body) => resolve({ status: message.statusCode ?? 0, headers: message.headers, body }),
            reject
          )
        }
      )
      request.on('error', (error) =>
        reject(proxyFailure(this.agents.tunnelRefusal(request), error) ?? error)
      )
      request.end(body)
    })
  }
}

/** A header's first value. */
export function headerValue(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Reads a body into one buffer (chunks kept, joined once), failing past `limit` bytes. */
function readBody(message: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = (): TransportFailure => {
      message.destroy()
      return new TransportFailure(
        'too-large',
        `the reply body is larger than ${megabytes(limit)}, the most that is read`
      )
    }
    const declared = Number(message.headers['content-length'])
    if (declared > limit) {
      reject(tooLarge())
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const fail = (failure: TransportFailure): void => {
      if (settled) return
      settled = true
      reject(failure)
    }
    message.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) fail(tooLarge())
      else chunks.push(chunk)
    })
    message.on('end', () => {
      if (settled) return
      settled = true
      resolve(Buffer.concat(chunks, size))
    })
    // A connection reset or closed before the body is complete: seen at once, not at the
    // time-out. A reset keeps Node's code (ECONNRESET).
    const cutOff = (error?: NodeJS.ErrnoException): void =>
      fail(
        new TransportFailure(
          'truncated',
          `the connection closed after ${size} bytes of the reply body, before its end`,
          error?.code,
          undefined,
          error
        )
      )
    message.on('error', cutOff)
    message.on('close', () => {
      if (!message.complete) cutOff()
    })
  })
}

const CONNECT_CAUSES: Record<string, TransportCause> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset'
}

const CAUSE_WORDS: Partial<Record<TransportCause, string>> = {
  refused: 'connection refused',
  dns: 'host not found (DNS)',
  unreachable: 'host unreachable',
  reset: 'connection reset'
}

/** Node's codes for a certificate that no CA this process trusts vouches for. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED'
])

const CERTIFICATE_CAUSES: Record<string, TransportCause> = {
  CERT_HAS_EXPIRED: 'certificate-expired',
  CERT_NOT_YET_VALID: 'certificate-not-yet-valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate-name',
  HOSTNAME_MISMATCH: 'certificate-name'
}

/** Node's other codes for a certificate refused: a TLS failure of no more precise cause. */
const OTHER_CERTIFICATE_CODES = new Set([
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'UNABLE_TO_GET_CRL',
  'CRL_SIGNATURE_FAILURE',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERR_TLS_CERT_ALTNAME_FORMAT'
])

/**
 * OpenSSL's words when the first bytes back are not a TLS record. On Node 20 and 24 alike, Node
 * gives them as EPROTO with OpenSSL's whole error line when the handshake fails under a pending
 * write (a request's, direct or through a proxy's tunnel), and as ERR_SSL_WRONG_VERSION_NUMBER
 * (and the like) with the reason apart when it fails on a read.
 */
const NOT_TLS_REASONS = new Set([
  'wrong version number',
  'packet length too long',
  'unknown protocol'
])

/** A Node network error as a TransportFailure with its cause in words. */
function describe(error: unknown): TransportFailure {
  const nodeError = error as NodeJS.ErrnoException & {
    reason?: unknown
    bytesParsed?: unknown
    cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } }
  }
  const { code } = nodeError
  const failure = (reason: TransportCause, words: string, names?: string): TransportFailure =>
    new TransportFailure(reason, words, code, names, error)
  const certificateCause = certificateCauseOf(code)
  if (certificateCause) {
    return failure(certificateCause, nodeWords(nodeError), certificateNames(nodeError.cert))
  }
  if (
    code !== undefined &&
    (code === 'EPROTO' || /^ERR_(SSL|TLS)_/.test(code) || OTHER_CERTIFICATE_CODES.has(code))
  ) {
    const reason = openSslReason(nodeError)
    return failure(
      reason && NOT_TLS_REASONS.has(reason) ? 'not-tls' : 'tls',
      reason ?? nodeWords(nodeError)
    )
  }
  // Node's HTTP parser refused the reply: at its first byte it is not HTTP at all; later, it is
  // HTTP gone wrong.
  if (code?.startsWith('HPE_')) {
    return failure(
      nodeError.bytesParsed === 0 ? 'not-http' : 'malformed',
      typeof nodeError.reason === 'string' ? oneLine(nodeError.reason) : nodeWords(nodeError)
    )
  }
  const cause = (code && CONNECT_CAUSES[code]) || 'other'
  const words =
    CAUSE_WORDS[cause] ?? (code ? `${code}: ${nodeWords(nodeError)}` : nodeWords(nodeError))
  return failure(cause, words)
}

/** The causes that mean nothing answers at the proxy's address. */
const PROXY_UNREACHABLE: ReadonlySet<TransportCause> = new Set(['refused', 'dns', 'unreachable'])

/**
 * A tunnel the proxy turned down, as a failure that names the proxy (its origin, never its
 * credentials): the status it answered CONNECT with, or, when it could not be reached, the same
 * cause as a server that cannot be. Any other failure of the CONNECT is undefined: it reads as
 * tunnel says it, a connection reset.
 */
function proxyFailure(
  refusal: TunnelRefusal | undefined,
  error: unknown
): TransportFailure | undefined {
  if (!refusal) return undefined
  const { origin, variable, withCredentials } = refusal
  const route = { origin, variable, withCredentials }
  const proxy = `the proxy ${origin} (${variable})`
  if ('status' in refusal) {
    const { status, retryAfter } = refusal
    const name = http.STATUS_CODES[status]
    return new TransportFailure(
      'proxy-refused',
      `${proxy} answered HTTP ${status}${name ? ` ${name}` : ''} to the tunnel's CONNECT`,
      undefined,
      undefined,
      error,
      { ...route, status, ...(retryAfter === undefined ? {} : { retryAfter }) }
    )
  }
  const cause = describe(refusal.error)
  if (!PROXY_UNREACHABLE.has(cause.reason)) return undefined
  return new TransportFailure(
    cause.reason,
    `${cause.message} at ${proxy}`,
    cause.code,
    undefined,
    refusal.error,
    route
  )
}

/** The certificate causes with words of their own; other certificate codes are plain `tls`. */
function certificateCauseOf(code: string | undefined): TransportCause | undefined {
  if (code === undefined) return undefined
  if (UNTRUSTED_CERTIFICATE.has(code)) return 'certificate-untrusted'
  return CERTIFICATE_CAUSES[code]
}

/**
 * OpenSSL's reason ("wrong version number") from Node's error: its `reason` field when Node
 * gives one, else from OpenSSL's error line in the message
 * (`write EPROTO 80…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/…`).
 */
function openSslReason(error: { message: string; reason?: unknown }): string | undefined {
  if (typeof error.reason === 'string' && error.reason) return oneLine(error.reason)
  const reason = /:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/i.exec(error.message)?.[1]
  return reason ? oneLine(reason) : undefined
}

/** Node's message as one line, OpenSSL's internals (its source paths) left out. */
function nodeWords(error: { message: string; reason?: unknown }): string {
  if (/:error:[0-9A-F]+:/i.test(error.message)) return openSslReason(error) ?? 'TLS error'
  return oneLine(error.message.trim())
}

/** What a certificate says it is for: its subjectAltName, else its subject's CN. */
function certificateNames(
  cert: { subjectaltname?: unknown; subject?: { CN?: unknown } } | undefined
): string | undefined {
  const names = cert?.subjectaltname ?? cert?.subject?.CN
  if (typeof names === 'string') return names
  // Node gives a CN that appears more than once as an array.
  if (Array.isArray(names)) return names.filter((name) => typeof name === 'string').join(', ')
  return undefined
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}
