/**
 * What an id or key may look like: task ids, analysis ids and project keys come from inputs, the
 * report file and the server, go back to the server in the next request and into every message.
 */
import { escapeInvisible } from './untrusted-text.js'

/** No server makes a task id, analysis id or project key longer than this (project keys: 400). */
export const MAX_ID_LENGTH = 400

/**
 * Why `value` cannot be an id or key (too long, holding a control character, an invisible
 * format character such as a bidirectional override, or white space), or undefined when it can.
 * Shared by the inputs, the report file and the server's replies, so all refuse the same values.
 *
 * @example idProblem('AY\n1') // 'holds the control character \\n'
 */
export function idProblem(value: string): string | undefined {
  if (value.length > MAX_ID_LENGTH) {
    return `is ${value.length} characters long, more than the ${MAX_ID_LENGTH} an id may have`
  }
  const control = /\p{Cc}/u.exec(value)
  if (control) return `holds the control character ${escapeInvisible(control[0])}`
  const invisible = /[\p{Cf}\p{Zl}\p{Zp}]/u.exec(value)
  if (invisible) return `holds the invisible character ${escapeInvisible(invisible[0])}`
  return /\s/.test(value) ? 'holds white space' : undefined
}
