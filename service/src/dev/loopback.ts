import type { Server } from 'node:http'
import { listen } from '../http/listen.js'

/** Dev mode listens here only: nothing it serves is reachable from another machine. */
export const LOOPBACK_HOST = '127.0.0.1'

/**
 * Whether a Host header names this machine's loopback as `localhost` (any case) on `port`.
 * Browsers and curl reach LOOPBACK_HOST by that name too, but to a browser it is an origin of
 * its own, so dev mode's page sends it on to LOOPBACK_HOST (see example-page.ts). `[::1]` is
 * not served at all: dev mode listens on 127.0.0.1 only.
 *
 * @example
 *   isLocalhost('LocalHost:8081', 8081) // true
 */
export function isLocalhost(host: string | undefined, port: number): boolean {
  const expected = `localhost:${port}`
  return host !== undefined && host.length === expected.length && host.toLowerCase() === expected
}

/**
 * Listens on 127.0.0.1:`port` (0: a free port) and resolves with `http://127.0.0.1:<port>`.
 * `variable` is the setting that chose the port, named in the error if it is taken.
 *
 * @example
 *   const origin = await listenOnLoopback(createServer(handler), 0, 'DEV_PAGE_PORT')
 */
export async function listenOnLoopback(
  server: Server,
  port: number,
  variable: string
): Promise<string> {
  const bound = await listen(server, { port, host: LOOPBACK_HOST, portVariable: variable })
  return `http://${LOOPBACK_HOST}:${bound}`
}

/** Closes a server at once: dev mode has no requests worth waiting for. */
export async function closeNow(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}
