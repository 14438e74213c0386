/**
 * Real servers on loopback for the cases the simulator does not play: another origin that must
 * receive nothing, a server that stops answering, odd or hostile replies, http and https side by
 * side. Each records what it receives.
 */
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { testCertificates } from './certificates.js'

export interface LoopbackServer {
  /** The server's address, e.g. `http://127.0.0.1:40123` or `https://[::1]:40124`. */
  url: string
  /** Every request received, in order. */
  received: { url: string; headers: IncomingHttpHeaders }[]
  close(): Promise<void>
}

export type Handler = (request: IncomingMessage, response: ServerResponse, count: number) => void

export interface ServerOptions {
  /** https with a certificate of the kit's private CA (see certificates.ts). */
  tls?: boolean
  /** The loopback address to listen on. */
  host?: '127.0.0.1' | '::1'
}

/**
 * Starts a server that answers each request with `handle` (`count` is 1 for the first request).
 * A handler that never ends the reply leaves the request hanging until `close`.
 */
export async function startLoopbackServer(
  handle: Handler,
  { tls = false, host = '127.0.0.1' }: ServerOptions = {}
): Promise<LoopbackServer> {
  const received: LoopbackServer['received'] = []
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    received.push({ url: request.url ?? '', headers: request.headers })
    handle(request, response, received.length)
  }
  const server: Server = tls
    ? createHttpsServer({ key: testCertificates().key, cert: testCertificates().cert }, listener)
    : createHttpServer(listener)
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
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
