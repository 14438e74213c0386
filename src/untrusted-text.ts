/**
 * Text from a server, a report file or an input, made fit to quote inside one of our own
 * messages. Every destination (the runner's log, the job summary, the outputs) has its own gate
 * on top of this one; this one only keeps quoted text to one readable line of bounded length.
 */

/** How long quoted text may be: ids and keys, and free text such as a server's error message. */
export const QUOTE_LIMITS = { short: 200, long: 1000 } as const

/**
 * Control characters, and the Unicode ones that move text around without being seen: line and
 * paragraph separators and all twelve bidirectional controls (Unicode's Bidi_Control: the
 * overrides, which can make a line read backwards, and the marks ALM, LRM and RLM, which reorder
 * numbers and punctuation around them).
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * The character as an escape a reader can see: `\n`, `\x1B`, `\u2028`.
 *
 * @example escapeInvisible('\u001b') // '\\x1B'
 */
export function escapeInvisible(character: string): string {
  const named = NAMED_ESCAPES[character]
  if (named) return named
  const code = character.charCodeAt(0)
  const hex = code.toString(16).toUpperCase()
  return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`
}

/** Every invisible or line-breaking character shown as its escape. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, escapeInvisible)
}

/**
 * Cuts `text` to at most `max` characters, the last of them an ellipsis, without splitting a
 * surrogate pair.
 *
 * @example cut('abcdef', 4) // 'abc…'
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, end)}…`
}

/**
 * Untrusted text as one line of bounded length: cut first (so a huge value costs nothing
 * more), then every control character shown as an escape.
 *
 * @example oneLine('PENDING\n::error::x') // 'PENDING\\n::error::x'
 */
export function oneLine(text: string, max: number = QUOTE_LIMITS.short): string {
  return showInvisible(cut(text, max))
}

/**
 * Text that may be a URL with credentials, fit to quote in an error: everything between the
 * scheme and the last `@` hidden. Text that does not parse as a URL cannot be split into user,
 * password and path reliably, so this hides more rather than less.
 *
 * @example hideCredentials('https://user:pass@host/x') // 'https://***@host/x'
 */
export function hideCredentials(text: string): string {
  return text.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i,
    (_, scheme?: string) => `${scheme ?? ''}***@`
  )
}

/** The text with every lone surrogate replaced by U+FFFD, as String#toWellFormed does. */
export function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD'
  )
}
