import type { HttpGet, HttpReply } from './http-get.js'

/** Key sets and discovery documents are a few KiB; nothing an identity provider sends is near this. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024

/** What a document must look like: its typed value, or the problem for the log. */
export type ReadDocument<T> = (document: unknown) => { value: T } | { problem: string }

/**
 * A fetch of an identity-provider document failed. `reason` is short and safe to log: the
 * HTTP status, time-out, size, "not JSON" or the shape problem; never a body or a token.
 */
export class DocumentFetchError extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'DocumentFetchError'
  }
}

export interface FetchJsonOptions {
  get: HttpGet
  /** Aborts the request and the reading of its body. */
  signal: AbortSignal
  timeoutMs: number
  maxBytes?: number
}

/**
 * GETs `url` and returns the JSON document `read` accepts. Anything else — a status other
 * than 200, a time-out, a body over `maxBytes` (the connection is dropped once that much
 * has arrived), a body that is not JSON or not the right shape — throws DocumentFetchError.
 */
export async function fetchJsonDocument<T>(
  url: string,
  read: ReadDocument<T>,
  options: FetchJsonOptions
): Promise<T> {
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES
  let text: string
  try {
    const reply = await options.get(url, options.signal)
    if (reply.status !== 200) {
      // An error page is not read at all, however large it is.
      reply.discard()
      throw new DocumentFetchError(`HTTP ${reply.status}`)
    }
    text = await readAtMost(reply, maxBytes)
  } catch (error) {
    throw causeOf(error, options)
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new DocumentFetchError('not JSON')
  }
  const outcome = read(document)
  if ('problem' in outcome) throw new DocumentFetchError(outcome.problem)
  return outcome.value
}

async function readAtMost(reply: HttpReply, maxBytes: number): Promise<string> {
  const tooLarge = (): DocumentFetchError => {
    reply.discard()
    return new DocumentFetchError(`body larger than ${maxBytes} bytes`)
  }
  if (reply.contentLength > maxBytes) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of reply.body) {
    size += chunk.byteLength
    if (size > maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function causeOf(error: unknown, options: FetchJsonOptions): DocumentFetchError {
  if (error instanceof DocumentFetchError) return error
  // The signal is the time-out: whatever the request or the body reports once it has fired
  // (an AbortError, a reset), the cause is the time-out.
  if (options.signal.aborted)
    return new DocumentFetchError(`timed out after ${options.timeoutMs} ms`)
  const code =
    error instanceof Error && 'code' in error && typeof error.code === 'string'
      ? error.code
      : error instanceof Error
        ? error.name
        : 'unknown'
  return new DocumentFetchError(`network error (${code})`)
}
