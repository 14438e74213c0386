import { basicAuth } from '../secrets.js'

/** How the token is sent to the server. */

export type AuthScheme = 'bearer' | 'basic'

/**
 * The Authorization header for the token: `Bearer <token>`, or `Basic base64(token + ':')`, the
 * token as user name with an empty password.
 *
 * @example authorization('squ_abc', 'bearer') // 'Bearer squ_abc'
 */
export function authorization(token: string, scheme: AuthScheme): string {
  return scheme === 'bearer' ? `Bearer ${token}` : basicAuth(token)
}

/** The other scheme, tried once when the server answers 401 to the first. */
export function otherScheme(scheme: AuthScheme): AuthScheme {
  return scheme === 'bearer' ? 'basic' : 'bearer'
}

export const SCHEME_NAMES: Record<AuthScheme, string> = { bearer: 'Bearer', basic: 'Basic' }
