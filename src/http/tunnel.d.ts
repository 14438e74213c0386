/** The part of the `tunnel` package (CommonJS, without types) that connection-agents.ts uses. */
declare module 'tunnel' {
  import type { Agent } from 'node:http'

  interface TunnelOptions {
    maxSockets?: number
    keepAlive?: boolean
    proxy: { host: string; port: string; proxyAuth?: string }
  }

  const tunnel: {
    httpOverHttp(options: TunnelOptions): Agent
    httpOverHttps(options: TunnelOptions): Agent
    httpsOverHttp(options: TunnelOptions): Agent
    httpsOverHttps(options: TunnelOptions): Agent
  }
  export default tunnel
}
