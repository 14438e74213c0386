/**
 * A counting proxy on loopback in front of a real server: each tool of the real-server latency
 * bench talks to a proxy of its own, which forwards every request as it came and records its
 * path and when it arrived and was answered, so the bench counts the requests of each tool
 * without telling them apart by their user agents.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request that went through the proxy. */
export interface Forwarded {
  method: string
  /** Path and query, e.g. `/api/ce/task?id=…`. */
  path: string
  status: number
  /** Epoch milliseconds it arrived and its answer was sent on. */
  at: number
  answeredAt: number
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string
  /** Every request since the last `reset`. */
  requests: Forwarded[]
  reset(): void
  close(): Promise<void>
}

/** A proxy on 127.0.0.1:`port` forwarding to `target` (a loopback `http://` address). */
export async function countingProxy(target: string, port: number): Promise<CountingProxy> {
  const upstream = new URL(target)
  const agent = new http.Agent({ keepAlive: true })
  const requests: Forwarded[] = []
  const server = http.createServer((request, response) => {
    const at = Date.now()
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
        agent
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers)
        reply.pipe(response)
        reply.on('end', () =>
          requests.push({
            method: request.method ?? '',
            path: request.url ?? '',
            status: reply.statusCode ?? 0,
            at,
            answeredAt: Date.now()
          })
        )
      }
    )
    forward.on('error', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        status: 502,
        at,
        answeredAt: Date.now()
      })
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
    request.pipe(forward)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    reset: () => requests.splice(0),
    close: () =>
      new Promise((resolve) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
