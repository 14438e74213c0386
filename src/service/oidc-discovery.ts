import { KeySetUnavailableError } from './key-set.js'

type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** OIDC Discovery 1.0 section 4: the key set URL from the issuer's configuration document. */
export async function discoverJwksUrl(issuer: string, fetch: Fetch): Promise<URL> {
  const url = issuer.replace(/\/+$/, '') + '/.well-known/openid-configuration'
  const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual' })
  const document: unknown = await response.json()
  const jwksUri =
    typeof document === 'object' && document !== null && 'jwks_uri' in document
      ? document.jwks_uri
      : undefined
  if (typeof jwksUri !== 'string') throw new KeySetUnavailableError('no jwks_uri in discovery')
  return new URL(jwksUri)
}
