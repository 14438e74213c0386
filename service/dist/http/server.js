import { applyFilter } from '../auth/filter.js';
import { logRequest } from '../log/logger.js';
import { firstHeaderValue, pathOf, relativePath } from './request.js';
import { requestIdOf } from './request-id.js';
import { corsHeaders, headerList, INTERNAL_ERROR, preflightReply, UNAUTHORISED, writeReply } from './responses.js';
import { createTurnBatch } from './turn-batch.js';
// node:http comes through getBuiltinModule: its ES import also loads Node's internal fetch
// implementation (undici), which the service does not use (see auth/remote-json.ts).
const { createServer } = process.getBuiltinModule('node:http');
export const DEFAULT_LIMITS = {
    maxHeaderSize: 16 * 1024,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    checkIntervalMs: 1_000
};
/** What is logged of a failure: its class name only, never a message that might carry data. */
function errorFields(error, id) {
    return { id, error: error instanceof Error ? error.name : 'unknown' };
}
export function createServiceServer(options) {
    const { basePath, verify, routes, logger } = options;
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    const cors = corsHeaders(options.allowedOrigin);
    const preflight = preflightReply(cors);
    // Replies are mostly constants: remember the header list of the last reply with CORS,
    // so that the common case (the same reply again) costs no lookup.
    let lastReply;
    let lastHeaders = [];
    const withCors = (reply) => {
        if (reply !== lastReply) {
            lastHeaders = headerList(reply, cors);
            lastReply = reply;
        }
        return lastHeaders;
    };
    const write = ({ exchange, reply }) => {
        const { res, id, method, target, startedAt, subject, reason } = exchange;
        try {
            // Spec 4.3 rule 6: whatever the handler answers, its reply carries the CORS headers.
            writeReply(res, method, reply, subject === undefined ? headerList(reply) : withCors(reply));
        }
        catch (error) {
            // Only a broken reply object can get here; the connection is all that is left to close.
            replyFailed(error);
            res.destroy();
        }
        logRequest(logger, id, method, pathOf(target), reply.status, startedAt, subject, reason);
    };
    const replyFailed = (error) => logger.error('reply failed', errorFields(error));
    const send = createTurnBatch(write, replyFailed);
    const finish = (exchange, reply) => send({ exchange, reply });
    const handlerFailed = (error, exchange) => {
        logger.error('handler failed', errorFields(error, exchange.id));
        finish(exchange, INTERNAL_ERROR);
    };
    // The filter's promise never rejects (filter.ts). Should a defect make it, the request still
    // gets a reply, a 500, and the process no unhandled rejection, which would stop it.
    const filterFailed = (error, exchange) => {
        logger.error('filter failed', errorFields(error, exchange.id));
        finish(exchange, INTERNAL_ERROR);
    };
    const runHandler = (handler, exchange) => {
        const { method, target, subject } = exchange;
        let reply;
        try {
            reply = handler({ method, path: relativePath(target, basePath), subject });
        }
        catch (error) {
            return handlerFailed(error, exchange);
        }
        if (reply instanceof Promise) {
            reply.then((value) => finish(exchange, value), (error) => handlerFailed(error, exchange));
        }
        else {
            finish(exchange, reply);
        }
    };
    const act = (decision, res, id, method, target, startedAt) => {
        const subject = decision.kind === 'handler' ? decision.subject : undefined;
        const reason = decision.kind === 'unauthorised' ? decision.reason : undefined;
        const exchange = { res, id, method, target, startedAt, subject, reason };
        switch (decision.kind) {
            case 'root':
                return runHandler(routes.root, exchange);
            case 'preflight':
                return finish(exchange, preflight);
            case 'unauthorised':
                return finish(exchange, UNAUTHORISED);
            case 'handler':
                return runHandler(routes.protected, exchange);
        }
    };
    // Synchronous from request to queued reply when the verifier answers synchronously (a
    // verification-cache hit): no promise is created on that path.
    const onRequest = (req, res) => {
        const startedAt = performance.now();
        const id = requestIdOf(req.rawHeaders);
        const method = req.method ?? '';
        const target = req.url ?? '';
        const decision = applyFilter({
            method,
            target,
            authorization: firstHeaderValue(req.rawHeaders, 'authorization'),
            connection: req.socket
        }, basePath, verify);
        if (decision instanceof Promise) {
            decision.then((value) => act(value, res, id, method, target, startedAt), (error) => filterFailed(error, {
                res,
                id,
                method,
                target,
                startedAt,
                subject: undefined,
                reason: undefined
            }));
        }
        else {
            act(decision, res, id, method, target, startedAt);
        }
    };
    const server = createServer({
        maxHeaderSize: limits.maxHeaderSize,
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: limits.checkIntervalMs
    }, onRequest);
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    return server;
}
