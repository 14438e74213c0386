/** `fetch` as the service calls it; tests may inject their own. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>

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
  fetch: Fetch
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
  const stop = new AbortController()
  const signal = AbortSignal.any([options.signal, stop.signal])
  let text: string
  try {
    const response = await options.fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal
    })
    if (response.status !== 200) {
      // An error page is not read at all, however large it is.
      await response.body?.cancel().catch(() => undefined)
      throw new DocumentFetchError(`HTTP ${response.status}`)
    }
    text = await readAtMost(response, maxBytes, stop)
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

async function readAtMost(
  response: Response,
  maxBytes: number,
  stop: AbortController
): Promise<string> {
  const tooLarge = (): DocumentFetchError => {
    stop.abort()
    return new DocumentFetchError(`body larger than ${maxBytes} bytes`)
  }
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function causeOf(error: unknown, options: FetchJsonOptions): DocumentFetchError {
  if (error instanceof DocumentFetchError) return error
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new DocumentFetchError(`timed out after ${options.timeoutMs} ms`)
  }
  // undici: TypeError('fetch failed') with the socket error (ECONNREFUSED, …) as its cause.
  const inner = error instanceof Error ? error.cause : undefined
  const code =
    inner instanceof Error && 'code' in inner && typeof inner.code === 'string'
      ? inner.code
      : error instanceof Error
        ? error.name
        : 'unknown'
  return new DocumentFetchError(`network error (${code})`)
}
