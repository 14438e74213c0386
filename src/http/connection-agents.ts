/**
 * The kept-alive agents a transport sends its requests through: a direct one per protocol, and
 * one that tunnels through the proxy the environment names (HTTPS_PROXY or HTTP_PROXY, unless
 * NO_PROXY names the host). They are built as `@actions/http-client`'s HttpClient builds its own,
 * from the same proxy rules (`@actions/http-client/lib/proxy`) and the same `tunnel` package, so
 * proxies work as in every other action. Not through HttpClient itself: its module also loads
 * undici, for a fetch dispatcher nothing here uses, and that load is most of what the command
 * costs at start-up beyond node's own (see docs/performance.md).
 */
import * as http from 'node:http'
import type * as https from 'node:https'
import { getProxyUrl } from '@actions/http-client/lib/proxy'

// TLS and the tunnel are loaded when a request needs them, not at start-up: a server on http://
// without a proxy needs neither (node:https, node:tls and tunnel's node:assert cost the command
// several milliseconds at each start). "eager" keeps tunnel inside the one bundle file.
const loadTunnel = async () => (await import(/* webpackMode: "eager" */ 'tunnel')).default
const httpsModule = () => process.getBuiltinModule('node:https')

/** An agent whose options the TLS connections it opens are made with. */
type Agent = http.Agent & { options?: { ca?: https.AgentOptions['ca'] } }

/** The proxy a tunnel goes through, as messages name it: never with its credentials. */
export interface ProxyRoute {
  /** Its origin (`http://proxy.example:3128`), without the credentials its URL may hold. */
  origin: string
  /** The variable that names it: HTTPS_PROXY for an https:// server, HTTP_PROXY for http://. */
  variable: 'HTTPS_PROXY' | 'HTTP_PROXY'
  /** Whether its URL holds credentials (sent to it as Proxy-Authorization). */
  withCredentials: boolean
}

/**
 * How a proxy turned a request's tunnel down: the status it answered CONNECT with (its
 * Retry-After too), or the error that kept the CONNECT from being answered at all.
 */
export type TunnelRefusal = ProxyRoute &
  ({ status: number; retryAfter: string | undefined } | { error: unknown })

/** The refusals seen, by the request whose tunnel it was: read once the request fails. */
const refusals = new WeakMap<http.ClientRequest, TunnelRefusal>()

export class ConnectionAgents {
  private readonly agents = new Map<string, Agent>()

  /**
   * @param ca The CAs to trust (the usual roots and an extra one), or undefined for the usual
   *   roots; a tunnelling agent opens TLS with its own options, so it needs them too.
   */
  constructor(private readonly ca: string[] | undefined) {}

  /**
   * The agent for `url`, one per protocol and route, its connections kept alive: the reads made
   * at once after a gate (new issues, measures, hotspots) each take a connection of their own
   * instead of queuing on one, and requests beyond `MAX_CONNECTIONS` take turns.
   *
   * @example https.request(url, { agent: await agents.for(url) })
   */
  async for(url: URL): Promise<http.Agent> {
    const proxy = getProxyUrl(url)
    const key = `${url.protocol} ${proxy?.hostname ? proxy.href : 'direct'}`
    let agent = this.agents.get(key)
    if (!agent) {
      agent = proxy?.hostname ? await tunnelling(url, proxy) : direct(url)
      if (this.ca && agent.options) agent.options.ca = this.ca
      this.agents.set(key, agent)
    }
    return agent
  }

  /**
   * How the proxy turned `request`'s tunnel down, when it did. `tunnel` fails the request with
   * ECONNRESET and a sentence either way ("tunneling socket could not be established,
   * statusCode=407"): the status and the cause's code are only seen here.
   */
  tunnelRefusal(request: http.ClientRequest): TunnelRefusal | undefined {
    return refusals.get(request)
  }

  /** The kept-alive agent for plain-http requests to a forward proxy. */
  forProxy(proxy: URL): http.Agent {
    const key = `forward ${proxy.href}`
    let agent = this.agents.get(key)
    if (!agent) {
      agent = new http.Agent(OPTIONS)
      this.agents.set(key, agent)
    }
    return agent
  }

  /**
   * Ends the kept-alive connections; the next request opens new ones. A tunnelling agent has no
   * `destroy` (as in HttpClient's `dispose`, it is left to close its own sockets).
   */
  destroy(): void {
    for (const agent of this.agents.values()) {
      if (typeof agent.destroy === 'function') agent.destroy()
    }
    this.agents.clear()
  }
}

/**
 * Connections open at once per agent. One made the reads after a gate queue: 218 ms from the
 * gate's answer to the exit (median, 20 analyses on 9.9) where the slowest read alone took 62 ms
 * (docs/performance.md). Four covers the reads a gate starts at once.
 */
const MAX_CONNECTIONS = 4
const OPTIONS = { keepAlive: true, maxSockets: MAX_CONNECTIONS } as const

function direct(url: URL): Agent {
  return url.protocol === 'https:' ? new (httpsModule().Agent)(OPTIONS) : new http.Agent(OPTIONS)
}

/** A CONNECT tunnel through the proxy, its credentials from the proxy's URL when it has any. */
async function tunnelling(url: URL, proxy: URL): Promise<Agent> {
  const tunnel = await loadTunnel()
  const options = {
    ...OPTIONS,
    proxy: {
      host: proxy.hostname,
      port: proxy.port,
      ...(proxy.username || proxy.password
        ? { proxyAuth: `${proxy.username}:${proxy.password}` }
        : {})
    }
  }
  const overHttps = proxy.protocol === 'https:'
  let agent: Agent
  if (url.protocol === 'https:') {
    agent = overHttps ? tunnel.httpsOverHttps(options) : tunnel.httpsOverHttp(options)
  } else {
    agent = overHttps ? tunnel.httpOverHttps(options) : tunnel.httpOverHttp(options)
  }
  watchConnects(agent as unknown as TunnelInternals, {
    origin: proxy.origin,
    variable: url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY',
    withCredentials: Boolean(proxy.username || proxy.password)
  })
  return agent
}

/** What `watchConnects` uses of a `tunnel` agent (0.0.6): none of it is documented. */
interface TunnelInternals {
  /** Opens a tunnel for the request in `options`, calling `request` at once for its CONNECT. */
  createSocket(this: TunnelInternals, options: { request?: unknown }, onSocket: unknown): void
  /** http.request or https.request, to the proxy. */
  request(options: unknown): http.ClientRequest
}

/**
 * Notes, for each request whose tunnel the proxy turns down, how: the status it answered the
 * CONNECT with, or the CONNECT's own error (the proxy refused the connection, its host not
 * found). The agent makes the CONNECT with its `request`, from `createSocket` and before it
 * returns, for the request in its options; the listeners added here run before tunnel's, which
 * then fails that request. An agent of another shape is left as it is: its failures read as
 * they did (a connection reset).
 */
function watchConnects(agent: TunnelInternals, route: ProxyRoute): void {
  const { createSocket, request } = agent
  if (typeof createSocket !== 'function' || typeof request !== 'function') return
  agent.createSocket = function (options, onSocket) {
    const waiting = options.request
    if (!(waiting instanceof http.ClientRequest)) return createSocket.call(this, options, onSocket)
    this.request = (connectOptions) => {
      const connect = request(connectOptions)
      connect.once('connect', (response: http.IncomingMessage) => {
        if (response.statusCode === 200) return
        const retryAfter = response.headers['retry-after']
        refusals.set(waiting, { ...route, status: response.statusCode ?? 0, retryAfter })
      })
      connect.once('error', (error) => refusals.set(waiting, { ...route, error }))
      return connect
    }
    try {
      createSocket.call(this, options, onSocket)
    } finally {
      this.request = request
    }
  }
}
