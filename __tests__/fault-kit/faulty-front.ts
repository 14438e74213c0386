/**
 * A server on loopback in front of another (a platform's fake): the requests a test chooses get
 * a fault, every other request is passed to the server behind it and its reply passed back. So a
 * fault reaches every request of a platform's API, or one endpoint alone, while the fake behind
 * answers the rest as the platform would.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { brokenReplies } from './faults.js'

/** The faults a front plays, each as a broken or hostile platform sends it. */
export const FRONT_FAULTS = [
  /** 503 on every try: the platform is down for longer than the command waits. */
  'server-error',
  /** 429 asking to wait a day (`Retry-After: 86400`). */
  'rate-limited',
  /** 200 with an HTML page: a proxy's or a sign-in page. */
  'not-json',
  /** 200 with `{}`: JSON without any field the command reads. */
  'no-fields',
  /** The request is read, and nothing is ever answered. */
  'hang',
  /** A reply's head promises 1,000 bytes; 10 arrive, then the connection is reset. */
  'reset-mid-body',
  401,
  403,
  404
] as const

export type FrontFault = (typeof FRONT_FAULTS)[number]

export interface FaultyFront {
  /** The front's address: `http://127.0.0.1:port`. */
  url: string
  /** How many requests got the fault. */
  readonly faulted: number
  close(): Promise<void>
}

/** Whether a request gets the fault, by its method and path (query included). */
export type FaultTarget = (method: string, path: string) => boolean

/**
 * Starts a front for `behind` (an origin: `http://127.0.0.1:port`) that plays `fault` on the
 * requests `target` names (every request by default).
 *
 * @example const front = await startFaultyFront(fake.origin, 'hang', (method, path) => method === 'POST' && path.endsWith('/notes'))
 */
export async function startFaultyFront(
  behind: string,
  fault: FrontFault,
  target: FaultTarget = () => true
): Promise<FaultyFront> {
  let faulted = 0
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks)
      if (target(request.method ?? 'GET', request.url ?? '/')) {
        faulted++
        play(fault, request, response)
      } else {
        pass(behind, request, body, response)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get faulted() {
      return faulted
    },
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

function play(fault: FrontFault, request: IncomingMessage, response: ServerResponse): void {
  switch (fault) {
    case 'server-error':
      return send(response, 503, JSON.stringify({ message: 'Service Unavailable' }))
    case 'rate-limited':
      return send(response, 429, JSON.stringify({ message: 'Too Many Requests' }), {
        'retry-after': '86400'
      })
    case 'not-json':
      return send(response, 200, '<!DOCTYPE html><html><body>Sign in</body></html>', {
        'content-type': 'text/html'
      })
    case 'no-fields':
      return send(response, 200, '{}')
    case 'hang':
      return
    case 'reset-mid-body':
      return brokenReplies.resetMidBody(request.socket)
    default:
      return send(response, fault, JSON.stringify({ message: `${fault} refused` }))
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(body)
}

/** The request, as it came, to the server behind; its reply, as it comes, back. */
function pass(behind: string, request: IncomingMessage, body: Buffer, response: ServerResponse) {
  const target = new URL(request.url ?? '/', behind)
  const onward = httpRequest(
    target,
    { method: request.method, headers: { ...request.headers, host: target.host } },
    (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers)
      reply.pipe(response)
    }
  )
  onward.on('error', () => response.destroy())
  onward.end(body)
}
