import { randomBytes } from 'node:crypto';
import { firstHeaderValue } from './request.js';
/** An incoming `X-Request-Id` longer than this is not used. */
export const MAX_REQUEST_ID_LENGTH = 64;
// Ids this process makes: a random prefix, so that two processes (replicas, restarts) make
// different ids, then a counter, so that making one costs next to nothing.
const PREFIX = randomBytes(4).toString('hex');
let made = 0;
/**
 * The id a request's log lines carry. An `X-Request-Id` of 1–64 letters, digits, `.`, `_`,
 * `:` or `-` is used as sent, so that a proxy in front (nginx's `$request_id`, a UUID) and the
 * service log the same id; any other value is the client's text, not logged, and the request
 * gets an id of this process instead: 8 hex digits, `-`, a count (`5f0c2a9e-42`).
 *
 * @example
 *   requestIdOf(['X-Request-Id', 'abc-123']) // 'abc-123'
 *   requestIdOf(['X-Request-Id', 'a\u00e9']) // e.g. '5f0c2a9e-43'
 */
export function requestIdOf(rawHeaders) {
    const sent = firstHeaderValue(rawHeaders, 'x-request-id');
    return sent !== undefined && isPlainId(sent) ? sent : `${PREFIX}-${++made}`;
}
/** By hand rather than by a regular expression: this runs once per request. */
function isPlainId(value) {
    if (value.length === 0 || value.length > MAX_REQUEST_ID_LENGTH)
        return false;
    for (let i = 0; i < value.length; i++) {
        const code = value.charCodeAt(i);
        const plain = (code >= 0x61 && code <= 0x7a) || // a-z
            (code >= 0x41 && code <= 0x5a) || // A-Z
            (code >= 0x30 && code <= 0x3a) || // 0-9 and ':'
            code === 0x2d || // -
            code === 0x2e || // .
            code === 0x5f; // _
        if (!plain)
            return false;
    }
    return true;
}
