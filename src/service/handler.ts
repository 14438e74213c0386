/** What a handler sees of a request: no socket, so handlers stay pure and easy to test. */
export interface HandlerRequest {
  method: string
  /** The path relative to BASE_PATH without the query; undefined outside BASE_PATH. */
  path: string | undefined
  /** The ID token's `sub`, set when the filter authenticated the request (rule 6). */
  subject: string | undefined
}

/** A complete reply, written by the server in one call. */
export interface Reply {
  status: number
  headers: Readonly<Record<string, string>>
  /** JSON text; Content-Length is its UTF-8 byte length. */
  body: string
}

/** A throw or rejection becomes a 500 without details. */
export type Handler = (request: HandlerRequest) => Reply | Promise<Reply>
