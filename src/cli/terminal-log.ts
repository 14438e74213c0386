import { LOG_LIMITS, type Log } from '../log.js'
import { createSink } from '../sink.js'
import { cut, showInvisible } from '../untrusted-text.js'
import type { Names, Said } from '../words.js'

/** Where the log goes: standard error, or anything that takes text. */
export interface TextStream {
  write(text: string): unknown
}

/** The command's log: the core's Log, plus the lines only the command's edge writes. */
export interface TerminalLog extends Log {
  /** The check failed, or could not be done: in red when colours are on. */
  error(message: Said): void
  /** A gate passed: in green when colours are on. */
  success(message: Said): void
  /** Removes every form of the token from every later line. */
  hideSecrets(secrets: readonly string[]): void
}

const STYLES = {
  bold: ['\u001b[1m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  cyan: ['\u001b[36m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m']
} as const

type Style = keyof typeof STYLES

/**
 * Whether the log gets colours. FORCE_COLOR decides when it is set (`0` or `false`: none;
 * anything else: colours, even in CI or into a file); else NO_COLOR set to anything but the empty
 * string means none (no-color.org); else none in CI (CI set, as GitLab, Jenkins' pipelines,
 * Azure, Bitbucket and CircleCI set it) and none when TERM is `dumb`; else colours only on a
 * terminal.
 *
 * @example useColor(process.env, process.stderr.isTTY) // false in a CI log
 */
export function useColor(env: NodeJS.ProcessEnv, isTerminal: boolean): boolean {
  const force = env['FORCE_COLOR']
  if (force !== undefined) return !['0', 'false'].includes(force.trim().toLowerCase())
  if (env['NO_COLOR']) return false
  if (env['CI'] && !['0', 'false'].includes(env['CI'].trim().toLowerCase())) return false
  if (env['TERM'] === 'dumb') return false
  return isTerminal
}

/**
 * The command's log on standard error, as a reader in a terminal or a CI log wants it: plain
 * lines, warnings and notices labelled (in colour when `color`), each analysis of several as a
 * heading with its lines indented under it. Every message goes through `forTheTerminal` first,
 * so no text from the server moves the cursor, clears the screen or sets the colours; the
 * colours are the command's own, added after. The log is a sink: each message is said in the
 * command's words (`names`) and has every secret removed before that.
 *
 * @example const log = terminalLog(process.stderr, { color: useColor(process.env, process.stderr.isTTY), names: COMMAND_NAMES })
 */
export function terminalLog(
  out: TextStream,
  { color, names }: { color: boolean; names: Names }
): TerminalLog {
  let sink = createSink({ names, secrets: [] })
  let indent = ''
  const paint = (style: Style, text: string) =>
    color ? `${STYLES[style][0]}${text}${STYLES[style][1]}` : text
  const write = (message: Said, label?: { text: string; style: Style }, style?: Style) => {
    const lines = forTheTerminal(sink.text(message)).split('\n')
    const head = label ? `${paint(label.style, paint('bold', label.text))} ` : ''
    const hanging = ' '.repeat(label ? label.text.length + 1 : 0)
    const shown = lines.map(
      (line, index) =>
        `${indent}${index === 0 ? head : hanging}${style ? paint(style, line) : line}`
    )
    out.write(`${shown.join('\n')}\n`)
  }
  return {
    info: (message) => write(message),
    warning: (message) => write(message, { text: 'warning:', style: 'yellow' }),
    notice: (message) => write(message, { text: 'notice:', style: 'cyan' }),
    error: (message) => write(message, { text: 'error:', style: 'red' }),
    success: (message) => write(message, undefined, 'green'),
    startGroup: (name) => {
      const title = forTheTerminal(sink.text(name)).replace(/\n/g, '\\n')
      out.write(`${paint('bold', `▸ ${title}`)}\n`)
      indent = '  '
    },
    endGroup: () => {
      indent = ''
    },
    hideSecrets: (more) => {
      sink = createSink({ names, secrets: [...sink.secrets, ...more] })
    }
  }
}

/**
 * The one gate between a message and the terminal: the message keeps its line feeds (our own
 * messages have several lines); in each line every control character but TAB, escape sequences
 * included (`\x1B[2J`), and every character that moves text around unseen (CR, U+2028, bidi
 * overrides) is shown as an escape; a line is cut at 4,000 characters, and a message of more
 * than 100 lines ends with "… N more lines".
 *
 * @example forTheTerminal('PENDING\u001b[2J\r') // 'PENDING\\x1B[2J\\r'
 */
export function forTheTerminal(message: string): string {
  const lines = message.split('\n')
  const shown = lines.slice(0, LOG_LIMITS.messageLines).map((line) => {
    const max = LOG_LIMITS.lineChars
    const visible = cut(line, max).split('\t').map(showInvisible).join('\t')
    return cut(visible, max)
  })
  const hidden = lines.length - shown.length
  if (hidden > 0) shown.push(`… ${hidden} more lines`)
  return shown.join('\n')
}
