/**
 * The token's expiry, as servers send it on authenticated replies
 * (`SonarQube-Authentication-Token-Expiration: 2025-06-01T00:00:00+0000`, for tokens that expire),
 * and the warning the action gives when it is near, as the scanner does: within 7 days.
 */

export const TOKEN_EXPIRATION_HEADER = 'sonarqube-authentication-token-expiration'

/** How near the expiry must be for a warning: the scanner's own threshold. */
const WARN_DAYS_BEFORE_EXPIRY = 7

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The header's date (`yyyy-MM-dd'T'HH:mm:ssZ`, the offset with or without a colon), or undefined
 * when it is not one.
 *
 * @example parseTokenExpiration('2025-06-01T00:00:00+0000') // Date 2025-06-01T00:00:00.000Z
 */
export function parseTokenExpiration(value: string | undefined): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:?\d{2})$/.exec(
    value?.trim() ?? ''
  )
  if (!match) return undefined
  const [, time, zone = 'Z'] = match
  const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const at = Date.parse(`${time}${offset}`)
  return Number.isNaN(at) ? undefined : new Date(at)
}

/**
 * The warning to give for a token that expires at `expiresAt`, or undefined when it is more than
 * 7 days away.
 *
 * @example tokenExpiryWarning(new Date('2025-06-01T00:00:00Z'), Date.parse('2025-05-29T00:00:00Z'))
 * // 'The token expires on 2025-06-01 (in 3 days): …'
 */
export function tokenExpiryWarning(expiresAt: Date, nowEpochMs: number): string | undefined {
  const leftMs = expiresAt.getTime() - nowEpochMs
  if (leftMs > WARN_DAYS_BEFORE_EXPIRY * DAY_MS) return undefined
  const date = expiresAt.toISOString().slice(0, 10)
  const days = Math.floor(leftMs / DAY_MS)
  const when =
    leftMs <= 0
      ? 'has expired'
      : days === 0
        ? 'expires today'
        : `expires in ${days} ${days === 1 ? 'day' : 'days'}`
  return `The token ${when} (${date}): checks with it will fail from then on. Create a new token on the server (My Account → Security) and update the SONAR_TOKEN secret.`
}
