import { createSink } from './sink.js'
import { cut, showInvisible } from './untrusted-text.js'
import { msg, type Names, type Said } from './words.js'

/** The log calls the core logic makes; `@actions/core` in the action, a recorder in tests. */
export interface Log {
  info(message: Said): void
  warning(message: Said): void
  notice(message: Said): void
  startGroup(name: string): void
  endGroup(): void
}

/** Where an annotation points, as the runner's annotation commands take it. */
export interface AnnotationWhere {
  title?: string
  /** Relative to the repository root. */
  file?: string
  startLine?: number
  endLine?: number
  /** Only with startLine equal to endLine. */
  startColumn?: number
  endColumn?: number
}

export type AnnotationLevel = 'error' | 'warning' | 'notice'

/** The runner's commands the action writes through: the Log's, and failing the step. */
export interface RunnerCommands {
  info(message: string): void
  warning(message: string, where?: AnnotationWhere): void
  notice(message: string, where?: AnnotationWhere): void
  error(message: string, where?: AnnotationWhere): void
  startGroup(name: string): void
  endGroup(): void
  setFailed(message: string): void
  setSecret(secret: string): void
}

/**
 * How many annotations of each level GitHub shows for one step (10 errors, 10 warnings, and the
 * action keeps notices to 10 too): 30 at most, within the 50 GitHub shows for a whole job.
 */
export const ANNOTATION_LIMITS: Readonly<Record<AnnotationLevel, number>> = {
  error: 10,
  warning: 10,
  notice: 10
}

/** The action's own log: a Log that can also fail the step with a message. */
export interface RunnerLog extends Log {
  /**
   * An annotation of any level, pointing at a file when `where` says; past GitHub's limit for
   * its level it is written as a plain line instead. Returns whether it was an annotation.
   */
  annotate(level: AnnotationLevel, message: Said, where?: AnnotationWhere): boolean
  /** Annotations of each level still shown; one error is always kept for the failure. */
  annotationsLeft(): Record<AnnotationLevel, number>
  fail(message: Said): void
  /**
   * Has the runner mask these, and removes them from every later message itself: a server that
   * echoes the token is not shown, even where no runner masks the log.
   */
  hideSecrets(secrets: readonly string[]): void
}

/** How long one line of the log may be, and how many lines one message may have. */
export const LOG_LIMITS = { lineChars: 4000, messageLines: 100 } as const

/**
 * The runner's log as a Log, and its sink: every message, whatever it quotes, is said in the
 * edge's words (`names`), has every secret removed and goes through `forTheLog` on its way to the
 * runner, so no text the server sends can become a workflow command.
 *
 * @example const log = runnerLog(core, ACTION_NAMES); log.fail(error.message)
 */
export function runnerLog(core: RunnerCommands, names: Names): RunnerLog {
  let sink = createSink({ names, secrets: [] })
  const safe = (message: Said) => forTheLog(sink.text(message))
  const used: Record<AnnotationLevel, number> = { error: 0, warning: 0, notice: 0 }
  // One error is kept for the failure the step may end with.
  const limit = (level: AnnotationLevel) => ANNOTATION_LIMITS[level] - (level === 'error' ? 1 : 0)
  const annotate = (level: AnnotationLevel, message: Said, where?: AnnotationWhere) => {
    if (used[level] >= limit(level)) {
      core.info(
        safe(
          msg`${level} (not annotated: GitHub shows ${ANNOTATION_LIMITS[level]} per step): ${message}`
        )
      )
      return false
    }
    used[level]++
    // Annotations stay one annotation: `@actions/core` escapes their line breaks and properties.
    core[level](safe(message), where && safeWhere(where, sink.text))
    return true
  }
  return {
    info: (message) => core.info(safe(message)),
    warning: (message) => void annotate('warning', message),
    notice: (message) => void annotate('notice', message),
    annotate,
    annotationsLeft: () => ({
      error: limit('error') - used.error,
      warning: limit('warning') - used.warning,
      notice: limit('notice') - used.notice
    }),
    fail: (message) => core.setFailed(safe(message)),
    // A group's name is one line: its line feeds are shown as `\n`.
    startGroup: (name) => core.startGroup(logLine(sink.text(name))),
    endGroup: () => core.endGroup(),
    hideSecrets: (more) => {
      more.forEach((secret) => core.setSecret(secret))
      sink = createSink({ names, secrets: [...sink.secrets, ...more] })
    }
  }
}

/** The annotation's title through the line gate; its file and numbers as the caller checked them. */
function safeWhere(where: AnnotationWhere, text: (value: string) => string): AnnotationWhere {
  return {
    ...where,
    ...(where.title === undefined ? {} : { title: cut(logLine(text(where.title)), 200) }),
    // The file is the checkout's: one whose name held the token would not be placed, nor leak it.
    ...(where.file === undefined ? {} : { file: text(where.file) })
  }
}

/**
 * The one gate between a message and the runner's log. The message keeps its line feeds (our
 * own messages have several lines); each of its lines goes through `logLine`, and a message of
 * more than 100 lines ends with "… N more lines". A lone CR is not a line break here: it is
 * shown as `\r`, so the runner (which also breaks lines at a lone CR) sees exactly these lines.
 *
 * @example forTheLog('PENDING\r::error::x') // 'PENDING\\r::error::x'
 */
export function forTheLog(message: string): string {
  const lines = message.split('\n')
  const shown = lines.slice(0, LOG_LIMITS.messageLines).map(logLine)
  const hidden = lines.length - shown.length
  if (hidden > 0) shown.push(`… ${hidden} more lines`)
  return shown.join('\n')
}

/**
 * One line made safe for the runner, which reads a line as a workflow command when it starts,
 * after white space, with `::`, or when it holds the legacy `##[` anywhere:
 * - every control character but TAB (C0, DEL, C1, CR, LF, U+2028/2029, bidi overrides) is shown
 *   as an escape (`\r`, `\x1B`, `\u202E`);
 * - a line that starts, after white space, with `::` gets a space between the two colons
 *   (`::error::x` → `: :error::x`);
 * - every `##[` gets a space after its first `#` (`##[error]x` → `# #[error]x`);
 * - the line is cut to 4,000 characters, the last an ellipsis.
 *
 * @example logLine('  ::set-output name=a::b ##[error]') // '  : :set-output name=a::b # #[error]'
 */
export function logLine(text: string): string {
  const max = LOG_LIMITS.lineChars
  // Cut before escaping (a huge line costs nothing more) and after (escapes lengthen it).
  const visible = cut(text, max)
    .split('\t')
    .map((part) => showInvisible(part))
    .join('\t')
  return cut(neutraliseCommands(visible), max)
}

function neutraliseCommands(line: string): string {
  // `\s` is every Unicode white space the runner's TrimStart skips.
  return line.replace(/^(\s*):(?=:)/u, '$1: ').replaceAll('##[', '# #[')
}
