/** The dashboard address as the action may show it: where it leads, and whether to link it. */
interface DashboardAddress {
  /** An http(s) address, credentials removed. */
  href: string
  /** true when it is on the server's origin: only then does the summary link it. */
  onServer: boolean
}

/** Longer addresses are left out rather than cut: a cut address leads nowhere. */
const MAX_ADDRESS_CHARS = 2000

/**
 * The dashboard address as the log, the outputs and the summary may show it, or undefined when
 * it is not an http(s) address (a `javascript:` one, say) or too long to be real. A user name
 * or password in it is removed: no address with credentials is ever shown or linked.
 *
 * @example dashboardAddress('https://u:p@sonar.example.com/dashboard?id=a', 'https://sonar.example.com/')
 * // { href: 'https://sonar.example.com/dashboard?id=a', onServer: true }
 */
export function dashboardAddress(
  address: string | undefined,
  serverUrl: string | undefined
): DashboardAddress | undefined {
  const url = parse(address)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined
  url.username = ''
  url.password = ''
  if (url.href.length > MAX_ADDRESS_CHARS) return undefined
  return { href: url.href, onServer: url.origin === parse(serverUrl)?.origin }
}

function parse(address: string | undefined): URL | undefined {
  if (address === undefined || address.length > MAX_ADDRESS_CHARS) return undefined
  try {
    return new URL(address)
  } catch {
    return undefined
  }
}
