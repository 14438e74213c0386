export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
type EntryLevel = Exclude<LogLevel, 'silent'>

export type LogFields = Record<string, string | number | boolean | undefined>

/**
 * One JSON object per line. Callers pass fields, never tokens or header values; field names
 * are plain identifiers chosen in code, so they need no escaping.
 */
export interface Logger {
  error(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  debug(message: string, fields?: LogFields): void
  /**
   * The per-request line at `info`: the same text as
   * `info('request', { id, method, path, status, durationMs, sub, reason })`, built without a
   * fields object because it runs once per request.
   */
  request(
    id: string,
    method: string,
    path: string,
    status: number,
    durationMs: number,
    subject: string | undefined,
    reason: string | undefined
  ): void
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void,
  now: () => number = Date.now
): Logger {
  const threshold = LOG_LEVELS.indexOf(level)
  // Many lines share a millisecond under load; format its timestamp once.
  let lastMs = NaN
  let lastTime = ''
  const timestamp = (): string => {
    const ms = now()
    if (ms !== lastMs) {
      lastMs = ms
      lastTime = new Date(ms).toISOString()
    }
    return lastTime
  }
  const entry = (entryLevel: EntryLevel) => {
    const enabled = threshold !== 0 && LOG_LEVELS.indexOf(entryLevel) <= threshold
    const prefix = `","level":"${entryLevel}","msg":`
    return (message: string, fields?: LogFields): void => {
      if (!enabled) return
      // Built by hand rather than by spreading into one object: this runs once per request.
      let line = `{"time":"${timestamp()}${prefix}${JSON.stringify(message)}`
      if (fields !== undefined) {
        for (const name in fields) {
          const value = fields[name]
          if (value === undefined) continue
          line += `,"${name}":${typeof value === 'string' ? JSON.stringify(value) : String(value)}`
        }
      }
      write(line + '}\n')
    }
  }
  const requestEnabled = threshold >= LOG_LEVELS.indexOf('info')
  // Under load most lines share method, path, status and subject (or reason): the text between
  // the id and the duration, and the part after the duration, are escaped and joined once and
  // reused while they repeat.
  let lastMethod = ''
  let lastPath = ''
  let lastStatus = NaN
  let middle = ''
  let lastSubject: string | undefined
  let lastReason: string | undefined
  let tail = '}\n'
  const request: Logger['request'] = (id, method, path, status, durationMs, subject, reason) => {
    if (!requestEnabled) return
    if (method !== lastMethod || path !== lastPath || status !== lastStatus) {
      lastMethod = method
      lastPath = path
      lastStatus = status
      middle = `,"method":${jsonString(method)},"path":${jsonString(path)},"status":${status},"durationMs":`
    }
    if (subject !== lastSubject || reason !== lastReason) {
      lastSubject = subject
      lastReason = reason
      tail =
        (subject === undefined ? '' : `,"sub":${jsonString(subject)}`) +
        (reason === undefined ? '' : `,"reason":${jsonString(reason)}`) +
        '}\n'
    }
    write(
      `{"time":"${timestamp()}","level":"info","msg":"request","id":${jsonString(id)}${middle}${durationMs}${tail}`
    )
  }
  return {
    error: entry('error'),
    warn: entry('warn'),
    info: entry('info'),
    debug: entry('debug'),
    request
  }
}

/**
 * One line per request when its reply is written: its id, method, path without the query,
 * status, duration, and the subject when authenticated or the reason of a 401. Headers are
 * never logged (the id is a checked copy of one, see request-id.ts), so the token cannot
 * appear.
 */
export function logRequest(
  logger: Logger,
  id: string,
  method: string,
  path: string,
  status: number,
  startedAt: number,
  subject: string | undefined,
  reason: string | undefined
): void {
  logger.request(
    id,
    method,
    path,
    status,
    Math.round((performance.now() - startedAt) * 100) / 100,
    subject,
    reason
  )
}

/**
 * A string as a JSON string literal, the same text `JSON.stringify` gives. Paths and
 * subjects rarely need escaping, so a scan for `"`, `\`, control characters and surrogates
 * (which JSON.stringify escapes when unpaired) decides whether the cheap form will do.
 */
export function jsonString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(value)
    }
  }
  return `"${value}"`
}
