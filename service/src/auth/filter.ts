import { relativePath } from '../http/request.js'
import { reasonOf, REJECTION_REASONS, type RejectionReason } from './rejection.js'

/** What the filter of spec 4.3 decides for one request; the server acts on it. */
export type FilterDecision =
  | { rule: 1; kind: 'root' }
  | { rule: 2; kind: 'preflight' }
  | { rule: 3 | 4 | 5; kind: 'unauthorised'; reason: RejectionReason }
  | { rule: 6; kind: 'handler'; subject: string }

export interface FilterInput {
  method: string
  target: string
  /** The first Authorization value as received, undefined when the header is absent. */
  authorization: string | undefined
  /** Identifies the connection the request came on (its socket), for the verifier. */
  connection?: object
}

/**
 * Gives the subject of a valid ID token, or throws/rejects, with an InvalidIdTokenError whose
 * reason the request's log line gives (any other error logs as "not verified"). It may answer
 * synchronously (a verification-cache hit), so the common case costs no promise. `connection`
 * identifies where the token came from (see verification-cache.ts); a verifier may ignore it.
 */
export type TokenVerifier = (token: string, connection?: object) => string | Promise<string>

const ROOT: FilterDecision = { rule: 1, kind: 'root' }
const PREFLIGHT: FilterDecision = { rule: 2, kind: 'preflight' }
const NO_HEADER: FilterDecision = {
  rule: 3,
  kind: 'unauthorised',
  reason: REJECTION_REASONS.MISSING
}
const EMPTY_VALUE: FilterDecision = {
  rule: 4,
  kind: 'unauthorised',
  reason: REJECTION_REASONS.EMPTY
}
const authenticated = (subject: string): FilterDecision => ({ rule: 6, kind: 'handler', subject })
const notVerified = (error: unknown): FilterDecision => ({
  rule: 5,
  kind: 'unauthorised',
  reason: reasonOf(error)
})

/**
 * Spec 4.3, in order. Pure apart from the verifier it is given; never throws or rejects,
 * so the filter itself can never produce a 5xx.
 */
export function applyFilter(
  input: FilterInput,
  basePath: string,
  verify: TokenVerifier
): FilterDecision | Promise<FilterDecision> {
  // 4.3 rule 1: the root target goes to its handler unchanged, no auth, no CORS.
  if (relativePath(input.target, basePath) === '/') return ROOT
  // 4.3 rule 2: OPTIONS gets CORS, no handler.
  if (input.method === 'OPTIONS') return PREFLIGHT
  // 4.3 rule 3: no Authorization header.
  if (input.authorization === undefined) return NO_HEADER
  // 4.3 rule 4: the first value is empty.
  if (input.authorization === '') return EMPTY_VALUE
  // 4.3 rule 5: the raw value must verify as an ID token (no "Bearer" word).
  let verified: string | Promise<string>
  try {
    verified = verify(input.authorization, input.connection)
  } catch (error) {
    return notVerified(error)
  }
  // 4.3 rule 6: the handler runs; its reply gets the CORS headers.
  return typeof verified === 'string'
    ? authenticated(verified)
    : verified.then(authenticated, notVerified)
}
