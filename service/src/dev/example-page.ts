import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Logger } from '../log/logger.js'
import { closeNow, isLocalhost, listenOnLoopback } from './loopback.js'

export const EXAMPLE_PAGE_FILE = new URL(
  '../../../examples/browser-client/index.html',
  import.meta.url
)

/** Where the page's dev token source asks for a token: on the page's own origin. */
export const TOKEN_PATH = '/dev/id-token'

/**
 * Set before the page's own script runs: the page's replaceable token source
 * (`window.__ID_TOKEN_SOURCE__`) then asks this server for a token instead of loading Google
 * sign-in. POST, so that nothing caches or prefetches it.
 */
const TOKEN_SOURCE_SCRIPT = `<script>
      // Dev mode: a token from the local identity provider, no Google sign-in.
      window.__ID_TOKEN_SOURCE__ = async () => {
        const response = await fetch('${TOKEN_PATH}', { method: 'POST' })
        const text = await response.text()
        if (!response.ok) throw new Error('dev token: HTTP ' + response.status + ' — ' + text)
        return text
      }
    </script>`

/**
 * The example page with the dev token source at the end of its head, so it runs before the
 * page's own script in the body. The page's file itself stays as it is in production.
 */
export function withDevTokenSource(page: string): string {
  const headEnd = page.search(/<\/head>/i)
  if (headEnd === -1) {
    throw new Error('examples/browser-client/index.html: no </head> to add the dev token source to')
  }
  return `${page.slice(0, headEnd)}  ${TOKEN_SOURCE_SCRIPT}\n  ${page.slice(headEnd)}`
}

export interface ExamplePageOptions {
  port: number
  /** The setting that chose the port, named if it is taken. */
  variable: string
  /** A fresh token for the page; called once per POST to TOKEN_PATH. */
  mintToken: () => Promise<string>
  /** The page's address as dev mode prints it: a refused request is told to open it. */
  address: () => string
  /** Where a refused token request is logged. */
  logger: Logger
}

export interface RunningExamplePage {
  /** http://127.0.0.1:<port>: the service's ALLOWED_ORIGIN in dev mode. */
  origin: string
  stop(): Promise<void>
}

/**
 * Serves the browser example at `/` and `/index.html`, and fresh dev tokens at TOKEN_PATH, on
 * 127.0.0.1. Tokens go only to a request addressed to this origin by name (the Host header, so
 * a DNS-rebound site cannot ask) and, when it says where it comes from, from this origin; a
 * refusal says in its body and in the log which address to open.
 *
 * The page opened as `localhost` is redirected to the same address on 127.0.0.1: the service
 * allows one origin (ALLOWED_ORIGIN, spec 4.3), and to a browser `localhost` is another one,
 * so a page left there could neither get a token nor read the service's replies.
 */
export async function startExamplePage(options: ExamplePageOptions): Promise<RunningExamplePage> {
  const page = withDevTokenSource(await readFile(EXAMPLE_PAGE_FILE, 'utf8'))
  let origin = ''
  let port = 0
  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500
      res.end()
    })
  })
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store')
    const target = req.url ?? ''
    const path = target.split('?')[0]
    if (path === TOKEN_PATH) {
      if (req.method !== 'POST') return refuse(res, 405, 'POST')
      const refusal =
        `http://${req.headers.host}` !== origin
          ? 'addressed to another host name'
          : req.headers.origin !== undefined && req.headers.origin !== origin
            ? 'sent from another origin'
            : undefined
      if (refusal !== undefined) return refuseToken(res, refusal)
      const token = await options.mintToken()
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      res.end(token)
      return
    }
    if (path !== '/' && path !== '/index.html') return refuse(res, 404)
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'GET, HEAD')
    if (isLocalhost(req.headers.host, port)) {
      // The same path and query on the allowed origin; the target is the page's own path.
      res.statusCode = 307
      res.setHeader('Location', origin + target)
      res.end()
      return
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.end(req.method === 'HEAD' ? undefined : page)
  }
  /** 403, saying what to open; the log says why, with nothing taken from the request. */
  const refuseToken = (res: ServerResponse, because: string): void => {
    const address = options.address()
    options.logger.warn('dev token refused', { because, open: address })
    res.statusCode = 403
    res.setHeader('Content-Type', 'text/plain; charset=utf-8')
    res.end(
      `open the browser example at ${address}, as dev mode printed it: the service accepts ` +
        `calls from ${origin} only (to a browser, localhost and 127.0.0.1 are different origins)`
    )
  }
  origin = await listenOnLoopback(server, options.port, options.variable)
  port = Number(new URL(origin).port)
  return { origin, stop: () => closeNow(server) }
}

function refuse(res: ServerResponse, status: number, allow?: string): void {
  res.statusCode = status
  if (allow !== undefined) res.setHeader('Allow', allow)
  res.end()
}
