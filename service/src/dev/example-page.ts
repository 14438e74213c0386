import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { closeNow, listenOnLoopback } from './loopback.js'

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
        if (!response.ok) throw new Error('dev token: HTTP ' + response.status)
        return response.text()
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
}

export interface RunningExamplePage {
  /** http://127.0.0.1:<port>: the service's ALLOWED_ORIGIN in dev mode. */
  origin: string
  stop(): Promise<void>
}

/**
 * Serves the browser example at `/` and `/index.html`, and fresh dev tokens at TOKEN_PATH, on
 * 127.0.0.1. Tokens go only to a request addressed to this origin by name (the Host header, so
 * a DNS-rebound site cannot ask) and, when it says where it comes from, from this origin.
 */
export async function startExamplePage(options: ExamplePageOptions): Promise<RunningExamplePage> {
  const page = withDevTokenSource(await readFile(EXAMPLE_PAGE_FILE, 'utf8'))
  let origin = ''
  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500
      res.end()
    })
  })
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store')
    const path = (req.url ?? '').split('?')[0]
    if (path === TOKEN_PATH) {
      if (req.method !== 'POST') return refuse(res, 405, 'POST')
      const fromHere = req.headers.origin === undefined || req.headers.origin === origin
      if (`http://${req.headers.host}` !== origin || !fromHere) return refuse(res, 403)
      const token = await options.mintToken()
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      res.end(token)
      return
    }
    if (path !== '/' && path !== '/index.html') return refuse(res, 404)
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'GET, HEAD')
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.end(req.method === 'HEAD' ? undefined : page)
  }
  origin = await listenOnLoopback(server, options.port, options.variable)
  return { origin, stop: () => closeNow(server) }
}

function refuse(res: ServerResponse, status: number, allow?: string): void {
  res.statusCode = status
  if (allow !== undefined) res.setHeader('Allow', allow)
  res.end()
}
