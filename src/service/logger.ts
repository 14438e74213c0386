export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
type EntryLevel = Exclude<LogLevel, 'silent'>

export type LogFields = Record<string, string | number | boolean | undefined>

/** One JSON object per line. Callers pass fields, never tokens or header values. */
export interface Logger {
  error(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  debug(message: string, fields?: LogFields): void
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void,
  now: () => number = Date.now
): Logger {
  const threshold = LOG_LEVELS.indexOf(level)
  const entry =
    (entryLevel: EntryLevel) =>
    (message: string, fields?: LogFields): void => {
      if (LOG_LEVELS.indexOf(entryLevel) > threshold || threshold === 0) return
      const time = new Date(now()).toISOString()
      write(JSON.stringify({ time, level: entryLevel, msg: message, ...fields }) + '\n')
    }
  return { error: entry('error'), warn: entry('warn'), info: entry('info'), debug: entry('debug') }
}
