import type { Genre } from './genres.js'
import type { Handler } from './handler.js'
import { sendBody, sendJson, sendMethodNotAllowed, sendNotFound } from './responses.js'

const READ_METHODS = ['GET', 'HEAD']

export interface Routes {
  /** Spec 4.3 rule 1: the target `/`, reached without authentication. */
  root: Handler
  /** Everything behind the filter (rule 6). */
  protected: Handler
}

export function createRoutes(genres: readonly Genre[]): Routes {
  // Serialised once: the list does not change while the service runs.
  const genresBody = Buffer.from(JSON.stringify(genres.map(({ id, name }) => ({ id, name }))))
  return {
    root: (req, res) => {
      if (!READ_METHODS.includes(req.method ?? '')) return sendMethodNotAllowed(res, READ_METHODS)
      sendJson(res, 200, { status: 'ok' })
    },
    protected: (req, res, { path }) => {
      if (path !== '/genre') return sendNotFound(res)
      if (!READ_METHODS.includes(req.method ?? '')) return sendMethodNotAllowed(res, READ_METHODS)
      sendBody(res, 200, genresBody)
    }
  }
}
