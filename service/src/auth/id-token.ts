import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { acceptedIssuers } from './issuer.js'

/**
 * Asymmetric signature algorithms only: never `none`, never HS* (a public key used as an
 * HMAC secret would otherwise forge tokens). jose additionally requires the key's own
 * `alg`, when the key set declares one, to equal the token's.
 */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519'
]

/** A token did not verify. `reason` is a short code; nothing from the token is included. */
export class InvalidIdTokenError extends Error {
  constructor(readonly reason: string) {
    super(`ID token rejected: ${reason}`)
    this.name = 'InvalidIdTokenError'
  }
}

export interface VerifiedIdToken {
  subject: string
  /** `exp` in seconds since the epoch. */
  expiresAt: number
}

export type IdTokenVerifier = (token: string) => Promise<VerifiedIdToken>

export interface IdTokenVerifierOptions {
  clientId: string
  issuer: string
  getKey: JWTVerifyGetKey
  clockToleranceSec: number
  now?: () => number
}

export function createIdTokenVerifier(options: IdTokenVerifierOptions): IdTokenVerifier {
  const { clientId, getKey, clockToleranceSec } = options
  const issuer = acceptedIssuers(options.issuer)
  const now = options.now ?? Date.now
  return async (token) => {
    let payload: JWTPayload
    const currentDate = new Date(now())
    try {
      ;({ payload } = await jwtVerify(token, getKey, {
        algorithms: ASYMMETRIC_ALGORITHMS,
        issuer,
        audience: clientId,
        requiredClaims: ['exp', 'iat', 'sub'],
        clockTolerance: clockToleranceSec,
        currentDate
      }))
    } catch (error) {
      // jose's codes name the failed check; its messages are not passed on at all.
      throw new InvalidIdTokenError(codeOf(error))
    }
    // jose checks that iat is a number, but that it is not in the future only together with
    // maxTokenAge; the leeway applies here too. Same code as jose gives for that check.
    if ((payload.iat as number) > Math.floor(currentDate.getTime() / 1000) + clockToleranceSec) {
      throw new InvalidIdTokenError('ERR_JWT_CLAIM_VALIDATION_FAILED')
    }
    // OIDC Core 3.1.3.7: with several audiences, the authorised party must be us.
    if (Array.isArray(payload.aud) && payload.azp !== undefined && payload.azp !== clientId) {
      throw new InvalidIdTokenError('ERR_AZP_MISMATCH')
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new InvalidIdTokenError('ERR_SUB_INVALID')
    }
    return { subject: payload.sub, expiresAt: payload.exp as number }
  }
}

function codeOf(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code
  return 'ERR_VERIFICATION_FAILED'
}
