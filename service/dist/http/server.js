import { applyFilter } from '../auth/filter.js';
import { logRequest } from '../log/logger.js';
import { refuseClient } from './refusals.js';
import { firstHeaderValue, pathOf, relativePath } from './request.js';
import { requestIdOf } from './request-id.js';
import { corsHeaders, headerList, INTERNAL_ERROR, preflightReply, UNAUTHORISED, writeReply } from './responses.js';
import { createTurnBatch } from './turn-batch.js';
// node:http comes through getBuiltinModule: its ES import also loads Node's internal fetch
// implementation (undici), which the service does not use (see auth/remote-json.ts).
const { createServer, ServerResponse: ConnectResponse } = process.getBuiltinModule('node:http');
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
function createReplies(allowedOrigin, logger) {
    const cors = corsHeaders(allowedOrigin);
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
    return {
        finish,
        failed: (message, error, exchange) => {
            logger.error(message, errorFields(error, exchange.id));
            finish(exchange, INTERNAL_ERROR);
        }
    };
}
/** The filter of spec 4.3 in front of the routes, for one request and its response. */
function createRequestListener(options) {
    const { basePath, verify, routes } = options;
    const { finish, failed } = createReplies(options.allowedOrigin, options.logger);
    const preflight = preflightReply(corsHeaders(options.allowedOrigin));
    const runHandler = (handler, exchange) => {
        const { method, target, subject } = exchange;
        let reply;
        try {
            reply = handler({ method, path: relativePath(target, basePath), subject });
        }
        catch (error) {
            return failed('handler failed', error, exchange);
        }
        if (reply instanceof Promise) {
            reply.then((value) => finish(exchange, value), (error) => failed('handler failed', error, exchange));
        }
        else {
            finish(exchange, reply);
        }
    };
    const act = (decision, exchange) => {
        switch (decision.kind) {
            case 'root':
                return runHandler(routes.root, exchange);
            case 'preflight':
                return finish(exchange, preflight);
            case 'unauthorised':
                exchange.reason = decision.reason;
                return finish(exchange, UNAUTHORISED);
            case 'handler':
                exchange.subject = decision.subject;
                return runHandler(routes.protected, exchange);
        }
    };
    // Synchronous from request to queued reply when the verifier answers synchronously (a
    // verification-cache hit): no promise is created on that path. The filter's promise never
    // rejects (filter.ts); should a defect make it, the request still gets a reply, a 500, and
    // the process no unhandled rejection, which would stop it.
    return (req, res) => {
        const startedAt = performance.now();
        const id = requestIdOf(req.rawHeaders);
        const method = req.method ?? '';
        const target = req.url ?? '';
        const exchange = {
            res,
            id,
            method,
            target,
            startedAt,
            subject: undefined,
            reason: undefined
        };
        const decision = applyFilter({
            method,
            target,
            authorization: firstHeaderValue(req.rawHeaders, 'authorization'),
            connection: req.socket
        }, basePath, verify);
        if (decision instanceof Promise) {
            decision.then((value) => act(value, exchange), (error) => failed('filter failed', error, exchange));
        }
        else {
            act(decision, exchange);
        }
    };
}
/**
 * CONNECT: Node parses its head, then hands over the bare connection (the `connect` event) and
 * would destroy it unanswered without a listener. It gets a response of its own on that
 * connection and the path of every other request — the filter, then the routes, which allow
 * only GET and HEAD — and the connection is closed once the reply is sent.
 */
function answerConnect(onRequest) {
    return (req, socket) => {
        // Node took its own listeners off the connection when it handed it over.
        socket.on('error', () => socket.destroy());
        const connection = socket;
        const res = new ConnectResponse(req);
        res.shouldKeepAlive = false;
        res.assignSocket(connection);
        // As Node does after a reply with Connection: close: end, and destroy once the reply is
        // out, whether or not the client closes its side (end() alone would wait for that).
        res.on('finish', () => connection.destroySoon());
        onRequest(req, res);
    };
}
export function createServiceServer(options) {
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    const onRequest = createRequestListener(options);
    const server = createServer({
        maxHeaderSize: limits.maxHeaderSize,
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: limits.checkIntervalMs
    }, onRequest);
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    // An Expect other than 100-continue: the spec's filter decides, the expectation is ignored
    // (RFC 9110 10.1.1 allows a 417 but does not require it; without this listener Node sends one).
    server.on('checkExpectation', onRequest);
    server.on('connect', answerConnect(onRequest));
    // Requests Node refuses before they are parsed: its own reply, and a line in the log.
    server.on('clientError', refuseClient(options.logger));
    return server;
}
