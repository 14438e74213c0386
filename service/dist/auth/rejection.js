import { ServiceError } from '../errors.js';
/**
 * Why a request got the 401 of spec 4.3 rules 3–5, as its log line says it (`"reason"`). The
 * client gets the same 401 body whatever the reason; only the log tells them apart. Keyed by a
 * stable code; the phrases are stable too, since operators search the log for them, and the
 * README lists them with what to do. None holds anything from the request.
 */
export const REJECTION_REASONS = {
    // Rules 3 and 4: the filter's own.
    MISSING: 'missing',
    EMPTY: 'empty',
    // Rule 5: the value is not a verified ID token for CLIENT_ID.
    BEARER_PREFIX: 'a "Bearer " prefix',
    SCHEME_PREFIX: 'an auth scheme prefix',
    NOT_A_JWT: 'not a JWT',
    ALGORITHM_NOT_ALLOWED: 'algorithm not allowed',
    UNSUPPORTED: 'unsupported header',
    UNKNOWN_KEY: 'unknown key',
    AMBIGUOUS_KEY: 'ambiguous key',
    UNUSABLE_KEY: 'unusable key',
    KEY_SET_UNAVAILABLE: 'key set unavailable',
    BAD_SIGNATURE: 'bad signature',
    EXPIRED: 'expired',
    NOT_YET_VALID: 'not yet valid',
    ISSUED_IN_FUTURE: 'issued in the future',
    WRONG_ISSUER: 'wrong issuer',
    WRONG_AUDIENCE: 'wrong audience',
    WRONG_AUTHORISED_PARTY: 'wrong authorised party',
    NO_ISS: 'no "iss" claim',
    NO_AUD: 'no "aud" claim',
    NO_EXP: 'no "exp" claim',
    NO_IAT: 'no "iat" claim',
    NO_SUB: 'no "sub" claim',
    BAD_EXP: '"exp" not a number',
    BAD_IAT: '"iat" not a number',
    BAD_NBF: '"nbf" not a number',
    /** Anything the verifier did not explain; a bug if it shows. */
    NOT_VERIFIED: 'not verified'
};
/**
 * A token did not verify (rule 5). Nothing from the token is in it: why (`rejection`, one of
 * REJECTION_REASONS' codes) and its phrase.
 */
export class InvalidIdTokenError extends ServiceError {
    rejection;
    reason;
    static code = 'ID_TOKEN_INVALID';
    code = InvalidIdTokenError.code;
    constructor(rejection, reason) {
        super(`ID token rejected: ${reason}`);
        this.rejection = rejection;
        this.reason = reason;
        this.name = 'InvalidIdTokenError';
    }
}
// One frozen error per code, made once: a rejected token, however many arrive, then costs no
// new error and no stack capture of the service's own.
const REJECTIONS = new Map(Object.keys(REJECTION_REASONS).map((code) => [
    code,
    Object.freeze(new InvalidIdTokenError(code, REJECTION_REASONS[code]))
]));
/**
 * The error for `code`, the same object every time.
 *
 * @example
 *   throw rejected('EXPIRED') // its reason: 'expired'
 */
export function rejected(code) {
    return REJECTIONS.get(code);
}
/** The log's reason for a verifier's failure: its own when it explains itself. */
export function reasonOf(error) {
    return error instanceof InvalidIdTokenError ? error.reason : REJECTION_REASONS.NOT_VERIFIED;
}
