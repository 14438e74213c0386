/**
 * The one way a file that must be small is read (the report file, the CA file, the event file):
 * opened without waiting (O_NONBLOCK: a named pipe with no writer opens at once), checked on the
 * opened handle to be a regular file (so it cannot be swapped between the check and the read),
 * and read up to one byte past the limit, whatever its size says (files in /proc say 0, a sparse
 * file says terabytes, and a file may grow while it is read). It never throws: each caller words
 * the outcome in its own message.
 *
 * The calls are the synchronous ones: such a file is a few kilobytes, and five trips through
 * libuv's thread pool (open, stat, two reads, close; the first starts the pool's threads) made
 * the action 1.6–2.6 ms slower to start (docs/performance.md).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'

const CHUNK_BYTES = 64 * 1024

/** What a path is when it is not a regular file, in words for a message. */
type NotAFile = 'a directory' | 'a named pipe (FIFO)' | 'a device' | 'a socket' | 'not a file'

/** How reading a bounded file ended. */
export type BoundedFile =
  /** The whole file, at most the limit. */
  | { outcome: 'read'; bytes: Buffer }
  /** Nothing at that path (ENOENT). */
  | { outcome: 'missing'; error: NodeJS.ErrnoException }
  /** The path could not be opened or read for another reason: its permissions, say. */
  | { outcome: 'unreadable'; error: unknown }
  /** A directory, a named pipe, a device or a socket: never read. */
  | { outcome: 'not-a-file'; kind: NotAFile }
  /** Larger than the limit: reading stopped one byte past it. */
  | { outcome: 'too-large' }

/**
 * Reads `file` whole when it is a regular file of at most `maxBytes`.
 *
 * @example const read = await readBoundedFile('.scannerwork/report-task.txt', 64 * 1024) // { outcome: 'read', bytes }
 */
export async function readBoundedFile(file: string, maxBytes: number): Promise<BoundedFile> {
  let fd
  try {
    // O_NONBLOCK does not exist on Windows, where opening a pipe does not block either.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? { outcome: 'missing', error: error as NodeJS.ErrnoException }
      : { outcome: 'unreadable', error }
  }
  try {
    const kind = notRegular(fstatSync(fd))
    if (kind) return { outcome: 'not-a-file', kind }
    // Read in chunks, so a large limit costs memory only for what the file holds; one byte past
    // the limit tells a file at the limit from a larger one.
    const chunks: Buffer[] = []
    let length = 0
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - length))
      const bytesRead = readSync(fd, chunk, 0, chunk.length, length)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      length += bytesRead
      if (length > maxBytes) return { outcome: 'too-large' }
    }
    return { outcome: 'read', bytes: Buffer.concat(chunks, length) }
  } catch (error) {
    return { outcome: 'unreadable', error }
  } finally {
    try {
      closeSync(fd)
    } catch {
      // A failure to close a file that was read changes nothing of what was read.
    }
  }
}

/** What a non-regular file is, for the message; undefined for a regular file. */
function notRegular(stats: Stats): NotAFile | undefined {
  if (stats.isFile()) return undefined
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return 'not a file'
}
