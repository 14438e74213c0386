import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { acceptedIssuers } from './issuer.js'
import { KeySetUnavailableError } from './key-set.js'
import { rejected, type InvalidIdTokenError, type RejectionCode } from './rejection.js'

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

/**
 * Verifies one ID token; rejects with the InvalidIdTokenError of its reason (see rejection.ts).
 *
 * @example
 *   const verify = createIdTokenVerifier({ clientId, issuer, getKey, clockToleranceSec: 30 })
 *   const { subject } = await verify(token)
 */
export function createIdTokenVerifier(options: IdTokenVerifierOptions): IdTokenVerifier {
  const { clientId, getKey, clockToleranceSec } = options
  const issuer = acceptedIssuers(options.issuer)
  const now = options.now ?? Date.now
  return async (token) => {
    const shape = shapeProblem(token)
    if (shape !== undefined) throw shape
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
      // jose's error says which check failed; its message is not passed on at all.
      throw rejected(rejectionCodeOf(error))
    }
    // jose checks that iat is a number, but that it is not in the future only together with
    // maxTokenAge; the leeway applies here too.
    if ((payload.iat as number) > Math.floor(currentDate.getTime() / 1000) + clockToleranceSec) {
      throw rejected('ISSUED_IN_FUTURE')
    }
    // OIDC Core 3.1.3.7: with several audiences, the authorised party must be us.
    if (Array.isArray(payload.aud) && payload.azp !== undefined && payload.azp !== clientId) {
      throw rejected('WRONG_AUTHORISED_PARTY')
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') throw rejected('NO_SUB')
    return { subject: payload.sub, expiresAt: payload.exp as number }
  }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9-]*$/
const ONE_CREDENTIAL = /^[ \t]+[^ \t]+$/

/**
 * What the value's shape alone rules out, before jose is asked: an auth scheme before the
 * token (the service takes the raw token, spec 4.3 rule 5), or not the three dot-separated
 * parts of a signed JWT. jose would refuse these too; answering here spares a flood of them
 * its parsing and its error's stack. Nothing of the value goes into the answer.
 */
function shapeProblem(token: string): InvalidIdTokenError | undefined {
  const space = token.search(/[ \t]/)
  const first = space === -1 ? token : token.slice(0, space)
  // "Bearer" alone too: Node drops the space that followed it.
  if (first.length === 6 && first.toLowerCase() === 'bearer') return rejected('BEARER_PREFIX')
  if (space !== -1) {
    return SCHEME.test(first) && ONE_CREDENTIAL.test(token.slice(space))
      ? rejected('SCHEME_PREFIX')
      : rejected('NOT_A_JWT')
  }
  const dot = token.indexOf('.')
  const secondDot = dot === -1 ? -1 : token.indexOf('.', dot + 1)
  if (secondDot === -1 || token.includes('.', secondDot + 1)) return rejected('NOT_A_JWT')
  return undefined
}

/** Claims whose absence or type jose reports by name; any other name is not echoed. */
const MISSING_CLAIM: Readonly<Record<string, RejectionCode>> = {
  iss: 'NO_ISS',
  aud: 'NO_AUD',
  exp: 'NO_EXP',
  iat: 'NO_IAT',
  sub: 'NO_SUB'
}
const NOT_A_NUMBER: Readonly<Record<string, RejectionCode>> = {
  exp: 'BAD_EXP',
  iat: 'BAD_IAT',
  nbf: 'BAD_NBF'
}
const FAILED_CHECK: Readonly<Record<string, RejectionCode>> = {
  iss: 'WRONG_ISSUER',
  aud: 'WRONG_AUDIENCE',
  nbf: 'NOT_YET_VALID',
  iat: 'ISSUED_IN_FUTURE'
}

/** jose's error (or the key set's) as the reason the log gives. */
function rejectionCodeOf(error: unknown): RejectionCode {
  if (error instanceof KeySetUnavailableError) return 'KEY_SET_UNAVAILABLE'
  if (error instanceof errors.JWTClaimValidationFailed) {
    const table =
      error.reason === 'missing'
        ? MISSING_CLAIM
        : error.reason === 'invalid'
          ? NOT_A_NUMBER
          : FAILED_CHECK
    return Object.hasOwn(table, error.claim)
      ? (table[error.claim] as RejectionCode)
      : 'NOT_VERIFIED'
  }
  if (!(error instanceof errors.JOSEError)) return 'NOT_VERIFIED'
  switch (error.code) {
    case 'ERR_JWT_EXPIRED':
      return 'EXPIRED'
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'NOT_A_JWT'
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'ALGORITHM_NOT_ALLOWED'
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'UNSUPPORTED'
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'UNKNOWN_KEY'
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'AMBIGUOUS_KEY'
    case 'ERR_JWK_INVALID':
    case 'ERR_JWKS_INVALID':
      return 'UNUSABLE_KEY'
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'BAD_SIGNATURE'
    default:
      return 'NOT_VERIFIED'
  }
}
