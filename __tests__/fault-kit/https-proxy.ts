/**
 * An HTTPS_PROXY on loopback that tunnels every CONNECT to one local port, whatever host was
 * asked, so a name only the proxy knows reaches the test's server and the request cannot go
 * direct. It records each CONNECT's target, sets HTTPS_PROXY while it runs, and puts the
 * variable back when closed.
 */
import { createServer, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface HttpsProxy {
  /** The proxy's address, as HTTPS_PROXY holds it. */
  url: string
  /** Every CONNECT target asked, in order (`host:port`). */
  connects: string[]
  /** Ends the tunnels, stops the proxy and restores HTTPS_PROXY. */
  close(): Promise<void>
}

export async function startHttpsProxy(upstreamPort: number): Promise<HttpsProxy> {
  const connects: string[] = []
  const tunnels = new Set<Socket>()
  const saved = process.env['HTTPS_PROXY']
  const proxy = createServer()
  proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    connects.push(request.url ?? '')
    tunnels.add(client)
    const upstream = connect(upstreamPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    tunnels.add(upstream)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  process.env['HTTPS_PROXY'] = url
  return {
    url,
    connects,
    close: async () => {
      if (saved === undefined) delete process.env['HTTPS_PROXY']
      else process.env['HTTPS_PROXY'] = saved
      // Tunnels are no longer the HTTP server's connections: end them by hand.
      for (const socket of tunnels) socket.destroy()
      await new Promise<void>((resolve) => proxy.close(() => resolve()))
    }
  }
}
