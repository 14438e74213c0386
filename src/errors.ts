/**
 * Every failure the action reports is one of these. Each carries a stable `code` so tests and
 * callers can tell them apart without matching on words, and a message a user can act on.
 * No message ever contains the token.
 */
export class ActionError extends Error {
  readonly code: string

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** An input or environment variable is missing or malformed. */
export class SettingsError extends ActionError {
  constructor(message: string) {
    super('ERR_SETTINGS', message)
  }
}

/** The scanner's report-task.txt is missing or does not say what the action needs. */
export class ReportFileError extends ActionError {
  constructor(message: string) {
    super('ERR_REPORT_FILE', message)
  }
}

/** The action refused to do something unsafe (send the token to another origin). */
export class UnsafeRequestError extends ActionError {
  constructor(message: string) {
    super('ERR_UNSAFE_REQUEST', message)
  }
}

/** The server could not be reached or answered something other than the JSON we asked for. */
export class ServerRequestError extends ActionError {
  /** HTTP status, or undefined when no reply came (network error, time-out). */
  readonly status: number | undefined
  /** Node's error code when no reply came (ECONNREFUSED, EPROTO, CERT_HAS_EXPIRED...). */
  readonly nodeCode: string | undefined

  /** @param cause The failure on the way, when no reply came: its `code` is kept as `nodeCode`. */
  constructor(message: string, status?: number, cause?: Error & { code?: string | undefined }) {
    super('ERR_SERVER_REQUEST', message, cause ? { cause } : undefined)
    this.status = status
    this.nodeCode = cause?.code
  }
}

/** The analysis task ended FAILED or CANCELED on the server. */
export class TaskFailedError extends ActionError {
  constructor(message: string) {
    super('ERR_TASK_FAILED', message)
  }
}

/** The overall time-out ran out before the verdict was known. */
export class TimeoutError extends ActionError {
  constructor(message: string) {
    super('ERR_TIMEOUT', message)
  }
}

/** The quality gate is ERROR and `failOnError` is true. */
export class QualityGateFailure extends ActionError {
  constructor(message: string) {
    super('ERR_QUALITY_GATE', message)
  }
}

/** The runner's output file (GITHUB_OUTPUT) could not take the step's outputs. */
export class OutputFileError extends ActionError {
  constructor(message: string) {
    super('ERR_OUTPUT_FILE', message)
  }
}
