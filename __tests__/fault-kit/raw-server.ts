/**
 * A TCP server on loopback that reads each request's head and then lets the test write whatever
 * bytes it likes, close or reset the connection: what a broken proxy or a hostile server does and
 * `node:http` will not.
 */
import { createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface RawServer {
  url: string
  /** How many requests arrived. */
  readonly requests: number
  close(): Promise<void>
}

/** Called once per request with its socket and request line; `count` starts at 1. */
export type RawHandler = (socket: Socket, requestLine: string, count: number) => void

export async function startRawServer(handle: RawHandler): Promise<RawServer> {
  let requests = 0
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let head = ''
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1')
      // Every request the action makes is a GET without a body: its head ends the request.
      while (head.includes('\r\n\r\n')) {
        const end = head.indexOf('\r\n\r\n')
        const requestLine = head.slice(0, head.indexOf('\r\n'))
        head = head.slice(end + 4)
        handle(socket, requestLine, ++requests)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

/** A complete reply head; `headers` are written as given. */
export function head(status: number, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return `HTTP/1.1 ${status} Status\r\n${lines.join('')}\r\n`
}
