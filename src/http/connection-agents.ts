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
  if (url.protocol === 'https:') {
    return overHttps ? tunnel.httpsOverHttps(options) : tunnel.httpsOverHttp(options)
  }
  return overHttps ? tunnel.httpOverHttps(options) : tunnel.httpOverHttp(options)
}
