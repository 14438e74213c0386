import { ServiceError } from '../errors.js';
// node:http and node:https come through getBuiltinModule: an ES import of node:http also
// loads Node's internal fetch implementation (undici: 7–9 MB more at the peak under load,
// and a slower start), which the service does not use.
const clients = {
    'http:': () => process.getBuiltinModule('node:http'),
    'https:': () => process.getBuiltinModule('node:https')
};
/**
 * GET `url` with node:http or node:https. Redirects are not followed (a 3xx is a reply like
 * any other), and the request and its body are aborted with `signal`.
 */
export const httpGet = (url, signal) => {
    const target = new URL(url);
    const client = target.protocol === 'http:' || target.protocol === 'https:'
        ? clients[target.protocol]()
        : undefined;
    if (client === undefined)
        return Promise.reject(new TypeError(`not an http(s) URL: ${target.protocol}`));
    return new Promise((resolve, reject) => {
        const request = client.get(target, { headers: { accept: 'application/json' }, signal }, (response) => resolve({
            status: response.statusCode ?? 0,
            contentLength: Number(response.headers['content-length'] ?? NaN),
            body: response,
            discard: () => response.destroy()
        }));
        request.once('error', reject);
    });
};
/** Key sets and discovery documents are a few KiB; nothing an identity provider sends is near this. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/**
 * A fetch of an identity-provider document failed. `reason` is short and safe to log: the
 * HTTP status, time-out, size, "not JSON" or the shape problem; never a body or a token.
 */
export class DocumentFetchError extends ServiceError {
    reason;
    static code = 'DOCUMENT_FETCH_FAILED';
    code = DocumentFetchError.code;
    constructor(reason, options) {
        super(reason, options);
        this.reason = reason;
        this.name = 'DocumentFetchError';
    }
}
/**
 * GETs `url` and returns the JSON document `read` accepts. Anything else — a status other
 * than 200, a time-out, a body over `maxBytes` (the connection is dropped once that much
 * has arrived), a body that is not JSON or not the right shape — throws DocumentFetchError.
 */
export async function fetchJsonDocument(url, read, options) {
    const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
    let text;
    try {
        const reply = await options.get(url, options.signal);
        if (reply.status !== 200) {
            // An error page is not read at all, however large it is.
            reply.discard();
            throw new DocumentFetchError(`HTTP ${reply.status}`);
        }
        text = await readAtMost(reply, maxBytes);
    }
    catch (error) {
        throw causeOf(error, options);
    }
    let document;
    try {
        document = JSON.parse(text);
    }
    catch {
        throw new DocumentFetchError('not JSON');
    }
    const outcome = read(document);
    if ('problem' in outcome)
        throw new DocumentFetchError(outcome.problem);
    return outcome.value;
}
async function readAtMost(reply, maxBytes) {
    const tooLarge = () => {
        reply.discard();
        return new DocumentFetchError(`body larger than ${maxBytes} bytes`);
    };
    if (reply.contentLength > maxBytes)
        throw tooLarge();
    const chunks = [];
    let size = 0;
    for await (const chunk of reply.body) {
        size += chunk.byteLength;
        if (size > maxBytes)
            throw tooLarge();
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
}
function causeOf(error, options) {
    if (error instanceof DocumentFetchError)
        return error;
    // The signal is the time-out: whatever the request or the body reports once it has fired
    // (an AbortError, a reset), the cause is the time-out.
    if (options.signal.aborted)
        return new DocumentFetchError(`timed out after ${options.timeoutMs} ms`, { cause: error });
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string'
        ? error.code
        : error instanceof Error
            ? error.name
            : 'unknown';
    return new DocumentFetchError(`network error (${code})`, { cause: error });
}
