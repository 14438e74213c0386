import { relativePath } from '../http/request.js';
import { reasonOf, REJECTION_REASONS } from './rejection.js';
const ROOT = { rule: 1, kind: 'root' };
const PREFLIGHT = { rule: 2, kind: 'preflight' };
const NO_HEADER = {
    rule: 3,
    kind: 'unauthorised',
    reason: REJECTION_REASONS.MISSING
};
const EMPTY_VALUE = {
    rule: 4,
    kind: 'unauthorised',
    reason: REJECTION_REASONS.EMPTY
};
const authenticated = (subject) => ({ rule: 6, kind: 'handler', subject });
const notVerified = (error) => ({
    rule: 5,
    kind: 'unauthorised',
    reason: reasonOf(error)
});
/**
 * Spec 4.3, in order. Pure apart from the verifier it is given; never throws or rejects,
 * so the filter itself can never produce a 5xx.
 */
export function applyFilter(input, basePath, verify) {
    // 4.3 rule 1: the root target goes to its handler unchanged, no auth, no CORS.
    if (relativePath(input.target, basePath) === '/')
        return ROOT;
    // 4.3 rule 2: OPTIONS gets CORS, no handler.
    if (input.method === 'OPTIONS')
        return PREFLIGHT;
    // 4.3 rule 3: no Authorization header.
    if (input.authorization === undefined)
        return NO_HEADER;
    // 4.3 rule 4: the first value is empty.
    if (input.authorization === '')
        return EMPTY_VALUE;
    // 4.3 rule 5: the raw value must verify as an ID token (no "Bearer" word).
    let verified;
    try {
        verified = verify(input.authorization, input.connection);
    }
    catch (error) {
        return notVerified(error);
    }
    // 4.3 rule 6: the handler runs; its reply gets the CORS headers.
    return typeof verified === 'string'
        ? authenticated(verified)
        : verified.then(authenticated, notVerified);
}
