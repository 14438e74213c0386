export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
type EntryLevel = Exclude<LogLevel, 'silent'>

import { jsonString } from './json-string.js'

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
   * `info('request', { method, path, status, durationMs, sub })`, built without a fields
   * object because it runs once per request.
   */
  request(
    method: string,
    path: string,
    status: number,
    durationMs: number,
    subject: string | undefined
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
  // Under load most lines carry the same subject: escape it once.
  let lastSubject = ''
  let lastSubjectJson = '""'
  const request: Logger['request'] = (method, path, status, durationMs, subject) => {
    if (!requestEnabled) return
    let sub = ''
    if (subject !== undefined) {
      if (subject !== lastSubject) {
        lastSubject = subject
        lastSubjectJson = jsonString(subject)
      }
      sub = `,"sub":${lastSubjectJson}`
    }
    write(
      `{"time":"${timestamp()}","level":"info","msg":"request","method":${jsonString(method)},` +
        `"path":${jsonString(path)},"status":${status},"durationMs":${durationMs}${sub}}\n`
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
