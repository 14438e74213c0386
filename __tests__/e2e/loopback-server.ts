/**
 * A plain HTTP server on loopback for the cases the simulator does not play: another origin that
 * must receive nothing, a server that stops answering, a server that sends odd text. It records
 * what it receives.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LoopbackServer {
  url: string
  /** Every request received, in order. */
  received: { url: string; headers: IncomingHttpHeaders }[]
  close(): Promise<void>
}

/**
 * Starts a server that answers each request with `handle` (`count` is 1 for the first request).
 * A handler that never ends the reply leaves the request hanging until `close`.
 */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse, count: number) => void
): Promise<LoopbackServer> {
  const received: LoopbackServer['received'] = []
  const server = createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers })
    handle(request, response, received.length)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

/** Replies with JSON. */
export function json(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

/** A loopback port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = await startLoopbackServer(() => {})
  await server.close()
  return Number(new URL(server.url).port)
}
