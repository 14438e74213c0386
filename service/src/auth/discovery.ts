import type { DocumentFetch } from './key-set.js'
import type { ReadDocument } from './remote-json.js'

/** Untrusted text in a log line is cut to this length. */
const MAX_LOGGED_ISSUER = 200

/**
 * OIDC Discovery 1.0 section 4.3: the document's `issuer` must equal the configured issuer
 * exactly, and `jwks_uri` must be an http(s) URL.
 */
export function readDiscovery(issuer: string): ReadDocument<URL> {
  return (document) => {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      return { problem: 'wrong shape: not a JSON object' }
    }
    const { issuer: stated, jwks_uri: jwksUri } = document as Record<string, unknown>
    if (stated !== issuer) {
      const shown =
        typeof stated === 'string'
          ? JSON.stringify(stated.slice(0, MAX_LOGGED_ISSUER))
          : `no string (${stated === null ? 'null' : typeof stated})`
      return {
        problem: `issuer mismatch: discovery says ${shown}, configured ${JSON.stringify(issuer)}`
      }
    }
    if (typeof jwksUri !== 'string') return { problem: 'wrong shape: no jwks_uri' }
    let url: URL
    try {
      url = new URL(jwksUri)
    } catch {
      return { problem: 'wrong shape: jwks_uri is not a URL' }
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return { problem: 'wrong shape: jwks_uri is not an http(s) URL' }
    }
    return { value: url }
  }
}

/** OIDC Discovery 1.0 section 4: the key set URL from the issuer's configuration document. */
export function discoverJwksUrl(issuer: string, fetchDocument: DocumentFetch): Promise<URL> {
  const url = issuer.replace(/\/+$/, '') + '/.well-known/openid-configuration'
  return fetchDocument(url, readDiscovery(issuer))
}
