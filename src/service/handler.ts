import type { IncomingMessage, ServerResponse } from 'node:http'

export interface RequestContext {
  /** The path relative to BASE_PATH without the query; undefined outside BASE_PATH. */
  path: string | undefined
  /** The ID token's `sub`, set when the filter authenticated the request (rule 6). */
  subject?: string
}

/** A request handler; a throw or rejection becomes a 500 without details. */
export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext
) => void | Promise<void>
