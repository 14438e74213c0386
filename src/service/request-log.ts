import type { Logger } from './logger.js'

/**
 * One line per request when its reply is written: method, path without the query, status,
 * duration, and the subject when authenticated. Headers are never logged, so the token
 * cannot appear.
 */
export function logRequest(
  logger: Logger,
  method: string,
  path: string,
  status: number,
  startedAt: number,
  subject: string | undefined
): void {
  logger.request(
    method,
    path,
    status,
    Math.round((performance.now() - startedAt) * 100) / 100,
    subject
  )
}
