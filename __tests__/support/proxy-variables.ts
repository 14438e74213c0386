/** The variables that choose a proxy, in both cases, as the toolkit reads them. */
const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy'
]

/**
 * Clears every proxy variable of this process, so a test chooses its own; the function it returns
 * puts them back as they were.
 */
export function clearProxyVariables(): () => void {
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]))
  for (const name of PROXY_VARIABLES) delete process.env[name]
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}
