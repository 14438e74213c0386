import type { Duplex } from 'node:stream'
import type { Logger } from '../log/logger.js'
import { requestIdOf } from './request-id.js'

// Requests Node refuses itself — bytes that are not HTTP, a head over maxHeaderSize, a head
// or body that does not arrive in time — reach the server as a 'clientError', never as a
// request. Without a listener Node writes its own reply and closes the connection; with one,
// that is the listener's job. This one writes the very bytes Node writes, in the same case,
// and adds what Node does not: the request's log line.

/** What Node replies to a refused request, and why, in the request's log line. */
interface Refusal {
  status: number
  /** Node's own reply, byte for byte (lib/_http_server.js). */
  reply: string
  /** Undefined for an error of the connection itself (a reset): that is no request. */
  reason: string | undefined
}

const nodeReply = (statusLine: string): string =>
  `HTTP/1.1 ${statusLine}\r\nConnection: close\r\n\r\n`

const BAD_REQUEST = nodeReply('400 Bad Request')
const HEAD_TOO_LARGE: Refusal = {
  status: 431,
  reply: nodeReply('431 Request Header Fields Too Large'),
  reason: 'head too large'
}
const EXTENSIONS_TOO_LARGE: Refusal = {
  status: 413,
  reply: nodeReply('413 Payload Too Large'),
  reason: 'chunk extensions too large'
}
const timedOut = (reason: string): Refusal => ({
  status: 408,
  reply: nodeReply('408 Request Timeout'),
  reason
})
const HEAD_TIMED_OUT = timedOut('head not received in time')
const BODY_TIMED_OUT = timedOut('body not received in time')
const REQUEST_TIMED_OUT = timedOut('request not received in time')
const MALFORMED: Refusal = { status: 400, reply: BAD_REQUEST, reason: 'malformed request' }
const CONNECTION_ERROR: Refusal = { status: 400, reply: BAD_REQUEST, reason: undefined }

/** What Node keeps on the connection (internal, so read defensively and only to choose words). */
interface NodeConnection {
  /** The connection's parser; its `incoming` is the request whose head it has read. */
  parser?: { incoming?: object | null } | null
  /** The response in flight, until it is sent; `_headerSent` once its first bytes are out. */
  _httpMessage?: { _headerSent?: boolean } | null
}

/** A time-out before the head is in is the head's (headersTimeout), after it the body's. */
function timeOutOf(connection: NodeConnection): Refusal {
  const parser = connection.parser
  if (parser === undefined || parser === null) return REQUEST_TIMED_OUT
  return parser.incoming ? BODY_TIMED_OUT : HEAD_TIMED_OUT
}

function refusalOf(code: unknown, connection: NodeConnection): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') return HEAD_TOO_LARGE
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return EXTENSIONS_TOO_LARGE
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return timeOutOf(connection)
  // llhttp's parse errors: a method, target, version, header or chunk it cannot read.
  if (typeof code === 'string' && code.startsWith('HPE_')) return MALFORMED
  return CONNECTION_ERROR
}

/**
 * The 'clientError' listener: Node's reply (unless a reply of this connection has begun to go
 * out, as Node checks, so as not to corrupt it), the connection destroyed, and one line
 * `{"msg":"request","id":…,"status":431,"reason":"head too large"}` — no method, path or
 * other byte of what was sent, which is what could not be read.
 */
export function refuseClient(logger: Logger) {
  return (error: Error & { code?: unknown }, socket: Duplex): void => {
    const connection = socket as NodeConnection
    const refusal = refusalOf(error.code, connection)
    const replying = socket.writable && connection._httpMessage?._headerSent !== true
    if (replying) socket.write(refusal.reply)
    socket.destroy(error)
    if (refusal.reason === undefined) return
    // The status only when it was sent: a reply already going out was left alone.
    const status = replying ? refusal.status : undefined
    logger.info('request', { id: requestIdOf([]), status, reason: refusal.reason })
  }
}
