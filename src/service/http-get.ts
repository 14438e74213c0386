import type { IncomingMessage } from 'node:http'

/**
 * What the key set needs of an HTTP GET: the status, the declared length and the body as it
 * arrives, and a way to stop reading.
 */
export interface HttpReply {
  status: number
  /** The Content-Length header as a number; NaN when there is none. */
  contentLength: number
  body: AsyncIterable<Uint8Array>
  /** Drops the connection: nothing more is read. */
  discard(): void
}

/** A GET of an identity-provider document; tests may wrap the real one. */
export type HttpGet = (url: string, signal: AbortSignal) => Promise<HttpReply>

// node:http and node:https come through getBuiltinModule: an ES import of node:http also
// loads Node's internal fetch implementation (undici: 7–9 MB more at the peak under load,
// and a slower start), which the service does not use.
const clients = {
  'http:': () => process.getBuiltinModule('node:http'),
  'https:': () => process.getBuiltinModule('node:https')
}

/**
 * GET `url` with node:http or node:https. Redirects are not followed (a 3xx is a reply like
 * any other), and the request and its body are aborted with `signal`.
 */
export const httpGet: HttpGet = (url, signal) => {
  const target = new URL(url)
  const client =
    target.protocol === 'http:' || target.protocol === 'https:'
      ? clients[target.protocol]()
      : undefined
  if (client === undefined)
    return Promise.reject(new TypeError(`not an http(s) URL: ${target.protocol}`))
  return new Promise((resolve, reject) => {
    const request = client.get(
      target,
      { headers: { accept: 'application/json' }, signal },
      (response: IncomingMessage) =>
        resolve({
          status: response.statusCode ?? 0,
          contentLength: Number(response.headers['content-length'] ?? NaN),
          body: response,
          discard: () => response.destroy()
        })
    )
    request.once('error', reject)
  })
}
