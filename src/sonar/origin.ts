import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * Where the token may go. The token belongs to one server: it is sent only to that server's
 * origin, and a redirect is followed only to the same origin or to the https:// form of the same
 * host (a server that upgrades plain http).
 */

/** true when `target` is the server's own origin (scheme, host and port). */
export function isSameOrigin(target: URL, server: URL): boolean {
  return target.origin === server.origin
}

/** true when a redirect from `from` to `to` may carry the token. */
export function isAllowedRedirect(from: URL, to: URL): boolean {
  if (isSameOrigin(to, from)) return true
  // http→https of the same host: the server upgrading plain http, whatever port TLS is on.
  return from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname
}

/** The server address ending in '/', so relative API paths append instead of replacing. */
export function serverBase(server: URL): URL {
  return new URL(server.href.endsWith('/') ? server.href : `${server.href}/`)
}

/**
 * A URL as messages show it: never with credentials, on one line of bounded length (a redirect's
 * Location is the server's text). `origin` shows only scheme, host and port.
 *
 * @example shownUrl(new URL('https://u:p@sonar.example.com/api?id=1')) // 'https://sonar.example.com/api?id=1'
 */
export function shownUrl(url: URL, part: 'href' | 'origin' = 'href'): string {
  if (part === 'origin') return oneLine(url.origin, QUOTE_LIMITS.short)
  const bare = new URL(url.href)
  bare.username = ''
  bare.password = ''
  return oneLine(bare.href, QUOTE_LIMITS.long)
}
