/**
 * The loopback ports of one server: its web server, its search engine's HTTP and transport ports
 * and its embedded database, four in a row from a base, so several servers run side by side.
 */
import { createServer } from 'node:net'
import { HarnessFailure } from './failure.js'

export interface ServerPorts {
  web: number
  search: number
  searchTransport: number
  database: number
}

/** Ports `base` to `base + 3`. */
export function portsFrom(base: number): ServerPorts {
  return { web: base, search: base + 1, searchTransport: base + 2, database: base + 3 }
}

/** Fails, naming the port, when one of them is already taken on 127.0.0.1. */
export async function checkPortsFree(ports: ServerPorts, step: string): Promise<void> {
  for (const [use, port] of Object.entries(ports)) {
    if (!(await isFree(port))) {
      throw new HarnessFailure(
        step,
        `port ${port} (${use}) on 127.0.0.1 is taken by another process: stop it (ss -ltnp 'sport = :${port}' names it) or set REAL_SERVER_PORT_BASE to a free range`
      )
    }
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}
