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

/** The analysis tokens' prefixes (SonarQube 9.5 and later), and what each is. */
const ANALYSIS_TOKENS: Record<string, string> = {
  sqa_: 'a global analysis token (sqa_…)',
  sqp_: 'a project analysis token (sqp_…)'
}

/**
 * What kind of analysis token the token is, in words; undefined for a user token or one without
 * a known prefix. A real server lets an analysis token submit analyses and read their tasks and
 * gates, and refuses it (403) what needs Browse: a project's analyses, background tasks, measures
 * and hotspots.
 *
 * @example analysisTokenKind('sqa_0123') // 'a global analysis token (sqa_…)'
 */
export function analysisTokenKind(token: string | undefined): string | undefined {
  return token === undefined ? undefined : ANALYSIS_TOKENS[token.slice(0, 4)]
}
