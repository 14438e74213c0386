import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Handler, Routes } from '../app/routes.js'
import { applyFilter, type FilterDecision, type TokenVerifier } from '../auth/filter.js'
import { logRequest, type LogFields, type Logger } from '../log/logger.js'
import { firstHeaderValue, pathOf, relativePath } from './request.js'
import { requestIdOf } from './request-id.js'
import {
  corsHeaders,
  headerList,
  INTERNAL_ERROR,
  preflightReply,
  UNAUTHORISED,
  writeReply,
  type Reply
} from './responses.js'
import { createTurnBatch } from './turn-batch.js'

// node:http comes through getBuiltinModule: its ES import also loads Node's internal fetch
// implementation (undici), which the service does not use (see auth/remote-json.ts).
const { createServer } = process.getBuiltinModule('node:http')

/** One request on its way from the filter to its reply. */
interface Exchange {
  res: ServerResponse
  /** Its log lines' id (request-id.ts). */
  id: string
  method: string
  target: string
  startedAt: number
  /** Set when the filter authenticated the request (rule 6). */
  subject: string | undefined
  /** Set when the filter refused it (rules 3–5): why, for its log line. */
  reason: string | undefined
}

/** A reply waiting for the end of the event-loop turn (see turn-batch.ts). */
interface PendingReply {
  exchange: Exchange
  reply: Reply
}

export interface ServerLimits {
  /** Larger request heads get Node's own 431 reply. */
  maxHeaderSize: number
  /** Time to receive the complete request head (then 408). */
  headersTimeoutMs: number
  /** Time to receive the complete request (then 408). */
  requestTimeoutMs: number
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number
  /** How often Node checks the two time-outs above (its default is 30 s, too coarse). */
  checkIntervalMs: number
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxHeaderSize: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000
}

export interface ServiceServerOptions {
  basePath: string
  allowedOrigin: string
  verify: TokenVerifier
  routes: Routes
  logger: Logger
  limits?: Partial<ServerLimits>
}

/** What is logged of a failure: its class name only, never a message that might carry data. */
function errorFields(error: unknown, id?: string): LogFields {
  return { id, error: error instanceof Error ? error.name : 'unknown' }
}

export function createServiceServer(options: ServiceServerOptions): Server {
  const { basePath, verify, routes, logger } = options
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  const cors = corsHeaders(options.allowedOrigin)
  const preflight = preflightReply(cors)

  // Replies are mostly constants: remember the header list of the last reply with CORS,
  // so that the common case (the same reply again) costs no lookup.
  let lastReply: Reply | undefined
  let lastHeaders: readonly string[] = []
  const withCors = (reply: Reply): readonly string[] => {
    if (reply !== lastReply) {
      lastHeaders = headerList(reply, cors)
      lastReply = reply
    }
    return lastHeaders
  }

  const write = ({ exchange, reply }: PendingReply): void => {
    const { res, id, method, target, startedAt, subject, reason } = exchange
    try {
      // Spec 4.3 rule 6: whatever the handler answers, its reply carries the CORS headers.
      writeReply(res, method, reply, subject === undefined ? headerList(reply) : withCors(reply))
    } catch (error) {
      // Only a broken reply object can get here; the connection is all that is left to close.
      replyFailed(error)
      res.destroy()
    }
    logRequest(logger, id, method, pathOf(target), reply.status, startedAt, subject, reason)
  }
  const replyFailed = (error: unknown): void => logger.error('reply failed', errorFields(error))
  const send = createTurnBatch(write, replyFailed)

  const finish = (exchange: Exchange, reply: Reply): void => send({ exchange, reply })

  const handlerFailed = (error: unknown, exchange: Exchange): void => {
    logger.error('handler failed', errorFields(error, exchange.id))
    finish(exchange, INTERNAL_ERROR)
  }

  // The filter's promise never rejects (filter.ts). Should a defect make it, the request still
  // gets a reply, a 500, and the process no unhandled rejection, which would stop it.
  const filterFailed = (error: unknown, exchange: Exchange): void => {
    logger.error('filter failed', errorFields(error, exchange.id))
    finish(exchange, INTERNAL_ERROR)
  }

  const runHandler = (handler: Handler, exchange: Exchange): void => {
    const { method, target, subject } = exchange
    let reply: Reply | Promise<Reply>
    try {
      reply = handler({ method, path: relativePath(target, basePath), subject })
    } catch (error) {
      return handlerFailed(error, exchange)
    }
    if (reply instanceof Promise) {
      reply.then(
        (value) => finish(exchange, value),
        (error: unknown) => handlerFailed(error, exchange)
      )
    } else {
      finish(exchange, reply)
    }
  }

  const act = (
    decision: FilterDecision,
    res: ServerResponse,
    id: string,
    method: string,
    target: string,
    startedAt: number
  ): void => {
    const subject = decision.kind === 'handler' ? decision.subject : undefined
    const reason = decision.kind === 'unauthorised' ? decision.reason : undefined
    const exchange: Exchange = { res, id, method, target, startedAt, subject, reason }
    switch (decision.kind) {
      case 'root':
        return runHandler(routes.root, exchange)
      case 'preflight':
        return finish(exchange, preflight)
      case 'unauthorised':
        return finish(exchange, UNAUTHORISED)
      case 'handler':
        return runHandler(routes.protected, exchange)
    }
  }

  // Synchronous from request to queued reply when the verifier answers synchronously (a
  // verification-cache hit): no promise is created on that path.
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const startedAt = performance.now()
    const id = requestIdOf(req.rawHeaders)
    const method = req.method ?? ''
    const target = req.url ?? ''
    const decision = applyFilter(
      {
        method,
        target,
        authorization: firstHeaderValue(req.rawHeaders, 'authorization'),
        connection: req.socket
      },
      basePath,
      verify
    )
    if (decision instanceof Promise) {
      decision.then(
        (value) => act(value, res, id, method, target, startedAt),
        (error: unknown) =>
          filterFailed(error, {
            res,
            id,
            method,
            target,
            startedAt,
            subject: undefined,
            reason: undefined
          })
      )
    } else {
      act(decision, res, id, method, target, startedAt)
    }
  }

  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs
    },
    onRequest
  )
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  return server
}
