import type { Server } from 'node:http'

export type ShutdownOutcome = 'drained' | 'forced'

/**
 * Stops accepting connections, lets requests in flight finish, and closes keep-alive
 * connections as soon as they are idle. After `graceMs` the remaining connections are cut.
 */
export function shutDown(server: Server, graceMs: number): Promise<ShutdownOutcome> {
  return new Promise((resolve) => {
    let outcome: ShutdownOutcome = 'drained'
    // Connections finishing a request later become idle only then; sweep them repeatedly.
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    const cap = setTimeout(() => {
      outcome = 'forced'
      server.closeAllConnections()
    }, graceMs)
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(cap)
      resolve(outcome)
    })
    server.closeIdleConnections()
  })
}
