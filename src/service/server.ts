import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { applyFilter, type FilterDecision, type TokenVerifier } from './auth-filter.js'
import { corsHeaders } from './cors.js'
import { firstHeaderValue } from './first-header.js'
import type { Handler, Reply } from './handler.js'
import type { Logger } from './logger.js'
import { logRequest } from './request-log.js'
import { INTERNAL_ERROR, preflightReply, UNAUTHORISED, writeReply } from './responses.js'
import type { Routes } from './routes.js'
import { relativePath } from './target.js'

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

export function createServiceServer(options: ServiceServerOptions): Server {
  const { basePath, verify, routes, logger } = options
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  const cors = corsHeaders(options.allowedOrigin)
  const preflight = preflightReply(cors)

  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    startedAt: number,
    reply: Reply,
    subject?: string
  ): void => {
    try {
      // 4.3 rule 6: whatever the handler answers, its reply carries the CORS headers.
      writeReply(res, reply, subject === undefined ? undefined : cors)
    } catch (error) {
      // Only a broken reply object can get here; the connection is all that is left to close.
      logger.error('reply failed', { error: error instanceof Error ? error.name : 'unknown' })
      res.destroy()
    }
    logRequest(logger, req.method ?? '', req.url ?? '', reply.status, startedAt, subject)
  }

  const runHandler = (
    handler: Handler,
    req: IncomingMessage,
    res: ServerResponse,
    startedAt: number,
    subject?: string
  ): void => {
    const failed = (error: unknown): void => {
      logger.error('handler failed', { error: error instanceof Error ? error.name : 'unknown' })
      finish(req, res, startedAt, INTERNAL_ERROR, subject)
    }
    let reply: Reply | Promise<Reply>
    try {
      reply = handler({
        method: req.method ?? '',
        path: relativePath(req.url ?? '', basePath),
        subject
      })
    } catch (error) {
      return failed(error)
    }
    if (reply instanceof Promise) {
      reply.then((value) => finish(req, res, startedAt, value, subject), failed)
    } else {
      finish(req, res, startedAt, reply, subject)
    }
  }

  const act = (
    decision: FilterDecision,
    req: IncomingMessage,
    res: ServerResponse,
    startedAt: number
  ): void => {
    switch (decision.kind) {
      case 'root':
        return runHandler(routes.root, req, res, startedAt)
      case 'preflight':
        return finish(req, res, startedAt, preflight)
      case 'unauthorised':
        return finish(req, res, startedAt, UNAUTHORISED)
      case 'handler':
        return runHandler(routes.protected, req, res, startedAt, decision.subject)
    }
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const startedAt = performance.now()
    const decision = applyFilter(
      {
        method: req.method ?? '',
        target: req.url ?? '',
        authorization: firstHeaderValue(req.rawHeaders, 'authorization')
      },
      basePath,
      verify
    )
    // The filter never rejects; a cache hit decides synchronously.
    if (decision instanceof Promise) decision.then((value) => act(value, req, res, startedAt))
    else act(decision, req, res, startedAt)
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
