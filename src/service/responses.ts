import type { ServerResponse } from 'node:http'
import type { Reply } from './handler.js'

/** The single place that builds the JSON replies and writes replies to the socket. */

export function jsonReply(
  status: number,
  value: unknown,
  headers: Record<string, string> = {}
): Reply {
  return bodyReply(status, Buffer.from(JSON.stringify(value)), headers)
}

/** A body serialised once, e.g. the genre list, and reused for every request. */
export function bodyReply(
  status: number,
  body: Buffer,
  headers: Record<string, string> = {}
): Reply {
  return Object.freeze({
    status,
    headers: Object.freeze({
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
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

/** Spec 4.3 rule 2: an empty reply carrying the CORS headers. */
export function preflightReply(cors: Readonly<Record<string, string>>): Reply {
  return Object.freeze({ status: 204, headers: cors, body: Buffer.alloc(0) })
}

// Each reply's headers merged with the CORS set are built once and reused: a fresh merged
// object per request measurably slows writeHead down.
const merged = new WeakMap<Reply, WeakMap<object, Readonly<Record<string, string>>>>()

/** The reply's headers followed by `extra`, the same object for the same pair. */
export function headersWith(
  reply: Reply,
  extra: Readonly<Record<string, string>>
): Readonly<Record<string, string>> {
  let byExtra = merged.get(reply)
  if (byExtra === undefined) merged.set(reply, (byExtra = new WeakMap()))
  let headers = byExtra.get(extra)
  if (headers === undefined) byExtra.set(extra, (headers = { ...reply.headers, ...extra }))
  return headers
}

/**
 * Writes status and headers in one call (cheaper than setHeader one by one), then the body
 * in the same write; no body for HEAD.
 */
export function writeReply(
  res: ServerResponse,
  method: string,
  reply: Reply,
  headers: Readonly<Record<string, string>>
): void {
  res.writeHead(reply.status, headers)
  res.end(method === 'HEAD' || reply.body.length === 0 ? undefined : reply.body)
}
