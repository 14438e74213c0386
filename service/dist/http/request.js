// What the edge reads of a request before the filter: the path of its target and the first
// value of a header, both as sent (no normalisation), both run once per request.
/**
 * The path of a request target relative to BASE_PATH, without the query string;
 * undefined when the target lies outside BASE_PATH. No normalisation: `//`, `.` and
 * percent-escapes are compared as sent, so the root is exactly `{BASE_PATH}/`.
 */
export function relativePath(target, basePath) {
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    if (!path.startsWith('/'))
        return undefined;
    if (basePath === '')
        return path;
    if (!path.startsWith(basePath + '/'))
        return undefined;
    return path.slice(basePath.length);
}
/** The path for the request log: the target without its query string. */
export function pathOf(target) {
    const queryAt = target.indexOf('?');
    return queryAt === -1 ? target : target.slice(0, queryAt);
}
/**
 * The first value of a header as received. Node joins or drops repeated headers in
 * `req.headers`, so the spec's "first value" (4.3 rule 4) is read from `rawHeaders`.
 * `name` must be lower case; names are compared ASCII-case-insensitively (RFC 9110 5.1),
 * by hand, without allocating: this runs once per request.
 */
export function firstHeaderValue(rawHeaders, name) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        if (sameName(rawHeaders[i], name))
            return rawHeaders[i + 1];
    }
    return undefined;
}
function sameName(key, name) {
    if (key.length !== name.length)
        return false;
    for (let i = 0; i < key.length; i++) {
        const code = key.charCodeAt(i);
        // Only A–Z fold to a–z: Node refuses non-token header names anyway.
        const lower = code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
        if (lower !== name.charCodeAt(i))
            return false;
    }
    return true;
}
