import type { ServerResponse } from 'node:http'

/** The single place that builds the JSON replies, so each body and header set exists once. */

const UNAUTHORISED_BODY = Buffer.from(
  JSON.stringify({ httpStatusCode: 401, error: 'Not authorised: could not authenticate user' })
)

/** Spec 4.3 rules 3–5: exactly this body, JSON, and no CORS headers. */
export function sendUnauthorised(res: ServerResponse): void {
  sendBody(res, 401, UNAUTHORISED_BODY)
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendBody(res, status, Buffer.from(JSON.stringify(value)))
}

/** A body serialised once, e.g. the genre list, sent as is on every request. */
export function sendBody(res: ServerResponse, status: number, body: Buffer): void {
  res.statusCode = status
  res.setHeader('Content-Type', 'application/json')
  res.setHeader('Content-Length', body.length)
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

export function sendError(res: ServerResponse, status: number, error: string): void {
  sendJson(res, status, { httpStatusCode: status, error })
}

export function sendNotFound(res: ServerResponse): void {
  sendError(res, 404, 'Not found')
}

export function sendMethodNotAllowed(res: ServerResponse, allow: readonly string[]): void {
  res.setHeader('Allow', allow.join(', '))
  sendError(res, 405, 'Method not allowed')
}

/** No message or stack from the failure reaches the client. */
export function sendInternalError(res: ServerResponse): void {
  sendError(res, 500, 'Internal server error')
}

/** Spec 4.3 rule 2: an empty reply carrying the CORS headers. */
export function sendPreflight(res: ServerResponse, cors: Readonly<Record<string, string>>): void {
  res.statusCode = 204
  for (const [name, value] of Object.entries(cors)) res.setHeader(name, value)
  res.end()
}
