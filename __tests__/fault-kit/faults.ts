/**
 * The faults the kit plays, by name: broken connections and bodies for the raw server, and
 * hostile payloads for any server. Each is what a broken proxy, a flaky network or a hostile
 * server really sends.
 */
import type { Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { head } from './raw-server.js'

const JSON_TYPE = { 'content-type': 'application/json' }

/** Writes a whole JSON reply on a kept-alive connection. */
export function replyJson(socket: Socket, body: unknown, status = 200): void {
  const text = JSON.stringify(body)
  socket.write(head(status, { ...JSON_TYPE, 'content-length': Buffer.byteLength(text) }) + text)
}

/** Connection faults and odd bodies, written on the raw server's socket. */
export const brokenReplies = {
  /** The head promises 1000 bytes; 10 arrive, then the server closes the connection. */
  closeMidBody(socket: Socket): void {
    socket.end(head(200, { ...JSON_TYPE, 'content-length': 1000 }) + '{"task":{"')
  },
  /** The head promises 1000 bytes; 10 arrive, then the connection is reset. */
  resetMidBody(socket: Socket): void {
    socket.write(head(200, { ...JSON_TYPE, 'content-length': 1000 }) + '{"task":{"', () =>
      socket.resetAndDestroy()
    )
  },
  /** No length, no chunks: the body ends when the connection closes, half-way through the JSON. */
  halfJsonThenClose(socket: Socket, body: unknown): void {
    const text = JSON.stringify(body)
    socket.end(head(200, { ...JSON_TYPE, connection: 'close' }) + text.slice(0, text.length / 2))
  },
  /** A chunked body that never ends: 64 KiB chunks for as long as the client reads. */
  endlessBody(socket: Socket): void {
    socket.write(head(200, { ...JSON_TYPE, 'transfer-encoding': 'chunked' }))
    const chunk = `10000\r\n${'['.repeat(0x10000)}\r\n`
    const pump = (): void => {
      while (!socket.destroyed && socket.write(chunk));
      if (!socket.destroyed) socket.once('drain', pump)
    }
    pump()
  },
  /** A body that trickles: one byte every `everyMs`, forever. */
  tricklingBody(socket: Socket, everyMs: number): void {
    socket.write(head(200, { ...JSON_TYPE, 'content-length': 1000 }))
    const timer = setInterval(() => {
      if (socket.destroyed) clearInterval(timer)
      else socket.write(' ')
    }, everyMs)
    socket.on('close', () => clearInterval(timer))
  },
  /** Headers that promise a body larger than the action reads. */
  announcedHuge(socket: Socket): void {
    socket.write(head(200, { ...JSON_TYPE, 'content-length': 50 * 1024 * 1024 }))
  },
  /** A redirect whose Location is written exactly as given. */
  redirect(socket: Socket, location: string, status = 302): void {
    socket.write(head(status, { location, 'content-length': 0 }))
  },
  /** A status with a Retry-After header written exactly as given. */
  retryAfter(socket: Socket, value: string, status = 429): void {
    socket.write(head(status, { 'retry-after': value, 'content-length': 0 }))
  },
  /** A JSON body compressed with gzip, with or without saying so. */
  gzipped(socket: Socket, body: unknown, { announced }: { announced: boolean }): void {
    const bytes = gzipSync(JSON.stringify(body))
    const headers = { ...JSON_TYPE, 'content-length': bytes.length }
    socket.write(head(200, announced ? { ...headers, 'content-encoding': 'gzip' } : headers))
    socket.write(bytes)
  },
  /** Raw bytes as the body, with an exact length. */
  bytes(socket: Socket, body: Buffer | string, status = 200): void {
    const bytes = Buffer.from(body)
    socket.write(head(status, { ...JSON_TYPE, 'content-length': bytes.length }))
    socket.write(bytes)
  }
}

/** JSON nested `depth` levels deep: `[[[…]]]`. */
export function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth)
}

/**
 * Strings a hostile server puts in any text field: workflow commands, a lone CR, Markdown and
 * HTML, a link, bidirectional overrides.
 */
export const HOSTILE_STRINGS = [
  'PENDING\n::error::injected by the server',
  'x\r::set-output name=status::OK',
  '  ::add-mask::visible',
  'text ##[error]legacy command',
  '\u001b[31mred\u001b[0m and a NUL \u0000',
  'ok\r## ✅ Quality Gate passed',
  '<img src=x onerror=alert(1)><script>alert(2)</script>',
  '[click](javascript:alert(3)) and https://evil.example/phish',
  '`code` | pipe | *bold* _it_',
  'right-to-left \u202eevil\u202c override'
]
