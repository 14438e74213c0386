import type { ServerResponse } from 'node:http'

/** The single place that builds the replies (the 401 among them) and writes them to the socket. */

/** A complete reply, written by the server in one call. */
export interface Reply {
  status: number
  headers: Readonly<Record<string, string>>
  /** JSON text; Content-Length is its UTF-8 byte length. */
  body: string
}

export function jsonReply(
  status: number,
  value: unknown,
  headers: Record<string, string> = {}
): Reply {
  return bodyReply(status, JSON.stringify(value), headers)
}

/**
 * A body serialised once, e.g. the genre list, and reused for every request. It stays a
 * string: Node then sends head and body in one buffer and one write, where a Buffer body
 * goes out as a second chunk.
 */
export function bodyReply(
  status: number,
  body: string,
  headers: Record<string, string> = {}
): Reply {
  return Object.freeze({
    status,
    headers: Object.freeze({
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers
    }),
    body
  })
}

function errorReply(status: number, error: string, headers?: Record<string, string>): Reply {
  return jsonReply(status, { httpStatusCode: status, error }, headers)
}

/** Spec 4.3 rules 3–5: exactly this body, JSON, and no CORS headers. */
export const UNAUTHORISED = errorReply(401, 'Not authorised: could not authenticate user')

export const NOT_FOUND = errorReply(404, 'Not found')

/** No message or stack from the failure reaches the client. */
export const INTERNAL_ERROR = errorReply(500, 'Internal server error')

export function methodNotAllowed(allow: readonly string[]): Reply {
  return errorReply(405, 'Method not allowed', { Allow: allow.join(', ') })
}

/** The four fixed CORS headers of spec 4.3, for preflights and authenticated replies. */
export function corsHeaders(allowedOrigin: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'Access-Control-Allow-Origin': allowedOrigin,
    'Access-Control-Allow-Headers': 'X-Requested-With, Content-Type, Accept, Origin, Authorization',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, PATCH, OPTIONS'
  })
}

/** Spec 4.3 rule 2: an empty reply carrying the CORS headers. */
export function preflightReply(cors: Readonly<Record<string, string>>): Reply {
  return Object.freeze({ status: 204, headers: cors, body: '' })
}

// Each reply's header list, with and without the CORS set appended, is built once and
// reused. writeHead gets a flat [name, value, ...] list: Node walks it by index instead of
// enumerating an object's keys.
const plain = new WeakMap<Reply, readonly string[]>()
const merged = new WeakMap<Reply, WeakMap<object, readonly string[]>>()

function flatten(...sets: Readonly<Record<string, string>>[]): readonly string[] {
  return Object.freeze(sets.flatMap((set) => Object.entries(set).flat()))
}

/** The reply's headers, followed by `extra` when given, as a flat list; the same list for the same pair. */
export function headerList(
  reply: Reply,
  extra?: Readonly<Record<string, string>>
): readonly string[] {
  if (extra === undefined) {
    let list = plain.get(reply)
    if (list === undefined) plain.set(reply, (list = flatten(reply.headers)))
    return list
  }
  let byExtra = merged.get(reply)
  if (byExtra === undefined) merged.set(reply, (byExtra = new WeakMap()))
  let list = byExtra.get(extra)
  if (list === undefined) byExtra.set(extra, (list = flatten(reply.headers, extra)))
  return list
}

/**
 * Writes status and headers in one call (cheaper than setHeader one by one), then the body
 * in the same write; no body for HEAD.
 */
export function writeReply(
  res: ServerResponse,
  method: string,
  reply: Reply,
  headers: readonly string[]
): void {
  res.writeHead(reply.status, headers as string[])
  res.end(method === 'HEAD' || reply.body === '' ? undefined : reply.body)
}
