/** Google's ID tokens carry either form in `iss`; every other issuer must match exactly. */
export const GOOGLE_ISSUER = 'https://accounts.google.com'
const GOOGLE_BARE_ISSUER = 'accounts.google.com'
export const GOOGLE_JWKS_URL = new URL('https://www.googleapis.com/oauth2/v3/certs')

/** Returns the issuer as configured, Google's bare form mapped to its URL; undefined if invalid. */
export function normaliseIssuer(value: string): string | undefined {
  if (value === GOOGLE_BARE_ISSUER) return GOOGLE_ISSUER
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : undefined
  } catch {
    return undefined
  }
}

export function isGoogle(issuer: string): boolean {
  return issuer === GOOGLE_ISSUER
}

/** The `iss` values accepted for a configured issuer. */
export function acceptedIssuers(issuer: string): string[] {
  return isGoogle(issuer) ? [GOOGLE_BARE_ISSUER, GOOGLE_ISSUER] : [issuer]
}
