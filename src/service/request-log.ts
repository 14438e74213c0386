import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from './logger.js'
import { pathOf } from './target.js'

/**
 * One line per request once the response is done or the connection dropped: method,
 * path without the query, status, duration, and the subject when authenticated.
 * Headers are never logged, so the token cannot appear.
 */
export function logRequestWhenDone(
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
  subjectOf: () => string | undefined
): void {
  const started = performance.now()
  res.once('close', () => {
    logger.info('request', {
      method: req.method,
      path: pathOf(req.url ?? ''),
      status: res.statusCode,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      sub: subjectOf(),
      aborted: res.writableFinished ? undefined : true
    })
  })
}
