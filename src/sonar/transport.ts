/**
 * One GET on the wire: the connection (kept alive, one pool per protocol, through HTTPS_PROXY
 * when the environment says so), the private CA, a hard time-out on the whole exchange, and a
 * body read in linear time up to a size limit. Every way it can fail becomes a TransportFailure
 * that names its cause; whether to try again is the retry policy's decision, not this module's.
 */
import * as http from 'node:http'
import { ConnectionAgents } from './connection-agents.js'

/** The largest reply body read: real replies are a few kilobytes. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024

/** A reply read in full. */
export interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/**
 * Why no reply came. `refused`, `dns` and `unreachable` mean nothing answers at that address;
 * `reset`, `truncated` and `timeout` are faults on the way that may heal; `tls`, `too-large`
 * and `malformed` (not valid HTTP) do not.
 */
export type TransportCause =
  | 'refused'
  | 'dns'
  | 'unreachable'
  | 'reset'
  | 'truncated'
  | 'timeout'
  | 'tls'
  | 'too-large'
  | 'malformed'
  | 'other'

export class TransportFailure extends Error {
  constructor(
    readonly reason: TransportCause,
    message: string,
    /** The error code Node gave (ECONNREFUSED, CERT_HAS_EXPIRED...), for the messages. */
    readonly code?: string
  ) {
    super(message)
  }
}

export interface TransportOptions {
  userAgent: string
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
   * GETs `url` and reads the whole body, or fails within `timeoutMs` (connection, headers and
   * body together).
   *
   * @example const reply = await transport.get(new URL('https://sonar.example.com/api/ce/task?id=AY1'), { accept: 'application/json' }, 10_000)
   */
  async get(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<Reply> {
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(), timeoutMs)
    try {
      return await this.exchange(url, headers, abort.signal)
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
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal
  ): Promise<Reply> {
    const secure = url.protocol === 'https:'
    const agent = await this.agents.for(url)
    // node:https when a request needs it (see connection-agents.ts).
    const protocol = secure ? process.getBuiltinModule('node:https') : http
    return new Promise<Reply>((resolve, reject) => {
      // Node parses the URL itself: an IPv6 literal ([::1]) loses its brackets as it must.
      const request = protocol.request(
        url,
        {
          method: 'GET',
          agent,
          headers: { 'user-agent': this.options.userAgent, ...headers },
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
      request.on('error', reject)
      request.end()
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
        `the reply body is larger than ${megabytes(limit)}, the most the action reads`
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
    // time-out.
    const cutOff = (): void =>
      fail(
        new TransportFailure(
          'truncated',
          `the connection closed after ${size} bytes of the reply body, before its end`
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

/** A Node network error as a TransportFailure with its cause in words. */
function describe(error: unknown): TransportFailure {
  const { code, message } = error as NodeJS.ErrnoException
  if (isCertificateError(code)) return new TransportFailure('tls', message, code)
  // Node's HTTP parser refused the reply: the server does not speak HTTP/1.1 properly.
  if (code?.startsWith('HPE_')) {
    return new TransportFailure(
      'malformed',
      `the reply is not valid HTTP (${code}: ${message})`,
      code
    )
  }
  const cause = (code && CONNECT_CAUSES[code]) || 'other'
  const words = CAUSE_WORDS[cause] ?? (code ? `${code}: ${message}` : message)
  return new TransportFailure(cause, words, code)
}

function isCertificateError(code: string | undefined): boolean {
  return code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}
