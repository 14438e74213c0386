import type { Genre } from './genres.js'
import type { Handler } from './handler.js'
import { bodyReply, jsonReply, methodNotAllowed, NOT_FOUND } from './responses.js'

const READ_METHODS = ['GET', 'HEAD']

export interface Routes {
  /** Spec 4.3 rule 1: the target `/`, reached without authentication. */
  root: Handler
  /** Everything behind the filter (rule 6). */
  protected: Handler
}

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
