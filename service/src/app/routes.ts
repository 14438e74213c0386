import { bodyReply, jsonReply, methodNotAllowed, NOT_FOUND, type Reply } from '../http/responses.js'
import type { Genre } from './genres.js'

/** What a handler sees of a request: no socket, so handlers stay pure and easy to test. */
export interface HandlerRequest {
  method: string
  /** The path relative to BASE_PATH without the query; undefined outside BASE_PATH. */
  path: string | undefined
  /** The ID token's `sub`, set when the filter authenticated the request (rule 6). */
  subject: string | undefined
}

/** A throw or rejection becomes a 500 without details. */
export type Handler = (request: HandlerRequest) => Reply | Promise<Reply>

const READ_METHODS = ['GET', 'HEAD']

export interface Routes {
  /** Spec 4.3 rule 1: the target `/`, reached without authentication. */
  root: Handler
  /** Everything behind the filter (rule 6). */
  protected: Handler
}

/** The service's routes; a new one goes into `protected` (behind the filter) or `root`. */
export function createRoutes(genres: readonly Genre[]): Routes {
  // Built once: the list does not change while the service runs.
  const genresReply = bodyReply(200, JSON.stringify(genres.map(({ id, name }) => ({ id, name }))))
  const statusReply = jsonReply(200, { status: 'ok' })
  const readOnly = methodNotAllowed(READ_METHODS)
  return {
    root: ({ method }) => (READ_METHODS.includes(method) ? statusReply : readOnly),
    protected: ({ method, path }) => {
      if (path !== '/genre') return NOT_FOUND
      return READ_METHODS.includes(method) ? genresReply : readOnly
    }
  }
}
