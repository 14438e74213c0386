/**
 * Every failure the action and the command report is one of these. Each carries a stable `code`
 * (one of ErrorCode, also on the class as a static, as jose's errors do) so tests and callers
 * can tell them apart without matching on words, a message a user can act on, and the failure
 * it wraps as its `cause`. No message ever contains the token.
 */
import { oneLine, QUOTE_LIMITS } from './untrusted-text.js'
import { Message, Reference, textOf, type Said } from './words.js'

/**
 * Every code an error of the family carries: each is the static `code` of one class, whose
 * comment says what it means (UsageError and ResultFileError are the command's, in src/cli/).
 * Adding one makes the command's exit-code table (src/cli/exit-codes.ts) choose its exit code.
 */
export type ErrorCode =
  | 'ERR_SETTINGS'
  | 'ERR_USAGE'
  | 'ERR_REPORT_FILE'
  | 'ERR_RESULT_FILE'
  | 'ERR_UNSAFE_REQUEST'
  | 'ERR_SERVER_REQUEST'
  | 'ERR_TASK_FAILED'
  | 'ERR_NO_ANALYSIS'
  | 'ERR_TIMEOUT'
  /** Not an error of the family: something unforeseen (see codeOf). */
  | 'ERR_UNEXPECTED'

/**
 * The root of the family, the action's and the command's alike: a failure the product knows and
 * explains in words, with a stable code. Each subclass fixes its code.
 */
export class ExplainedError extends Error {
  readonly code: ErrorCode
  /** What the error says, for a sink to say in its edge's words (`message` holds it as text). */
  readonly said: Said

  constructor(code: ErrorCode, said: Said, options?: ErrorOptions) {
    super(textOf(said), options)
    this.name = new.target.name
    this.code = code
    this.said = said
  }

  /** The settings it names, by key, in the order it names them: what it is about. */
  get settings(): string[] {
    const named = this.said instanceof Message ? this.said.parts : [this.said]
    const keys = named.flatMap((part) => (part instanceof Reference ? [part.key] : []))
    return [...new Set(keys)]
  }
}

/** A member of the family made of its message alone: its code is its class's static `code`. */
abstract class CodedError extends ExplainedError {
  declare static readonly code: ErrorCode

  constructor(message: Said, options?: ErrorOptions) {
    super(new.target.code, message, options)
  }
}

/** An input or environment variable is missing or malformed. */
export class SettingsError extends CodedError {
  static override readonly code = 'ERR_SETTINGS'
  declare readonly code: typeof SettingsError.code
}

/** The scanner's report-task.txt is missing or does not say what the action needs. */
export class ReportFileError extends CodedError {
  static override readonly code = 'ERR_REPORT_FILE'
  declare readonly code: typeof ReportFileError.code
  /** The report file it is about, as given or found at a default location; none when none was. */
  file: string | undefined
}

/** The action refused to do something unsafe (send the token to another origin). */
export class UnsafeRequestError extends CodedError {
  static override readonly code = 'ERR_UNSAFE_REQUEST'
  declare readonly code: typeof UnsafeRequestError.code
}

/** What is known of a request that failed, besides its message and status. */
type ServerRequestFailure = ErrorOptions &
  Partial<Pick<ServerRequestError, 'nodeCode' | 'analysisToken' | 'noReply' | 'origin'>>

/** The server could not be reached or answered something other than the JSON we asked for. */
export class ServerRequestError extends ExplainedError {
  static readonly code = 'ERR_SERVER_REQUEST'
  declare readonly code: typeof ServerRequestError.code
  /** HTTP status, or undefined when no reply came (network error, time-out). */
  readonly status: number | undefined
  /** Node's error code when no reply came (ECONNREFUSED, EPROTO, CERT_HAS_EXPIRED...). */
  readonly nodeCode: string | undefined
  /** The kind of analysis token a 403 refused ('a global analysis token (sqa_…)'). */
  readonly analysisToken: string | undefined
  /** Nothing answered, or the connection broke before a reply: a server restarting looks so. */
  readonly noReply: boolean
  /** The origin of the server asked (`https://sonar.example.com`), when the request was made. */
  readonly origin: string | undefined

  constructor(
    message: Said,
    status?: number,
    { nodeCode, analysisToken, noReply, origin, ...options }: ServerRequestFailure = {}
  ) {
    super(ServerRequestError.code, message, options)
    this.status = status
    this.nodeCode = nodeCode
    this.analysisToken = analysisToken
    this.noReply = noReply ?? false
    this.origin = origin
  }
}

/** The analysis task ended FAILED or CANCELED on the server. */
export class TaskFailedError extends CodedError {
  static override readonly code = 'ERR_TASK_FAILED'
  declare readonly code: typeof TaskFailedError.code
}

/**
 * The project has no analysis of the branch, pull request or commit asked for that can be
 * checked, and none is queued or running.
 */
export class AnalysisNotFoundError extends CodedError {
  static override readonly code = 'ERR_NO_ANALYSIS'
  declare readonly code: typeof AnalysisNotFoundError.code
}

/** The overall time-out ran out before the verdict was known. */
export class TimeoutError extends CodedError {
  static override readonly code = 'ERR_TIMEOUT'
  declare readonly code: typeof TimeoutError.code
}

/**
 * The code of any thrown value: its own for an error of the family, ERR_UNEXPECTED for
 * anything else.
 *
 * @example codeOf(new TimeoutError('…')) // 'ERR_TIMEOUT'; codeOf(new TypeError('…')) // 'ERR_UNEXPECTED'
 */
export function codeOf(error: unknown): ErrorCode {
  return error instanceof ExplainedError ? error.code : 'ERR_UNEXPECTED'
}

/**
 * Any thrown value as an Error: itself when it is one, else an Error whose message is the value
 * as text and whose cause is the value.
 *
 * @example asError('boom').message // 'boom'
 */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error), { cause: error })
}

/**
 * `saidOf` fit to quote in a line of ours: a foreign error's text on one line and bounded; a
 * Message of ours as it is.
 */
export function quotedSaidOf(error: unknown): Said {
  const said = saidOf(error)
  return typeof said === 'string' ? oneLine(said, QUOTE_LIMITS.long) : said
}

/**
 * What an error says, for a sink: the Message of an error that keeps one (the family's, a reply's
 * BodyProblem), else its message as text.
 *
 * @example log.fail(saidOf(error))
 */
export function saidOf(error: unknown): Said {
  const said: unknown = (error as { said?: unknown } | null | undefined)?.said
  return said instanceof Message ? said : messageOf(error)
}

/**
 * The message of any thrown value: an Error's message, or the value as text.
 *
 * @example messageOf(new Error('no such file')) // 'no such file'; messageOf(42) // '42'
 */
export function messageOf(error: unknown): string {
  return asError(error).message
}
