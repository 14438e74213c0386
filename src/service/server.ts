import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { applyFilter, type TokenVerifier } from './auth-filter.js'
import { corsHeaders } from './cors.js'
import { firstHeaderValue } from './first-header.js'
import type { Handler, RequestContext } from './handler.js'
import type { Logger } from './logger.js'
import { logRequestWhenDone } from './request-log.js'
import { sendInternalError, sendPreflight, sendUnauthorised } from './responses.js'
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

  const runHandler = async (
    handler: Handler,
    req: IncomingMessage,
    res: ServerResponse,
    context: RequestContext
  ): Promise<void> => {
    try {
      await handler(req, res, context)
    } catch (error) {
      logger.error('handler failed', { error: error instanceof Error ? error.name : 'unknown' })
      if (res.headersSent) res.destroy()
      else sendInternalError(res)
    }
  }

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let subject: string | undefined
    logRequestWhenDone(req, res, logger, () => subject)
    const target = req.url ?? ''
    const decision = await applyFilter(
      {
        method: req.method ?? '',
        target,
        authorization: firstHeaderValue(req.rawHeaders, 'authorization')
      },
      basePath,
      verify
    )
    const path = relativePath(target, basePath)
    switch (decision.kind) {
      case 'root':
        return runHandler(routes.root, req, res, { path })
      case 'preflight':
        return sendPreflight(res, cors)
      case 'unauthorised':
        return sendUnauthorised(res)
      case 'handler':
        subject = decision.subject
        for (const [name, value] of Object.entries(cors)) res.setHeader(name, value)
        return runHandler(routes.protected, req, res, { path, subject })
    }
  }

  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs
    },
    (req, res) => {
      // The filter and runHandler never reject; this is the last line of defence.
      onRequest(req, res).catch(() => {
        if (!res.headersSent) sendInternalError(res)
      })
    }
  )
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  return server
}
