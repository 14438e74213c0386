import { shownUrl } from '../sonar/origin.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

// A link as SonarQube writes it in a warning: <a href="https://docs…">the documentation</a>.
const LINK = /<a\s[^>]*?href="([^"]*)"[^>]*>([^<]*)<\/a>/gi
const TAG = /<[^>]*>/g

/**
 * A task warning as plain text on one line: its links become "text (address)", any other tag
 * is dropped, the result is cut to 1,000 characters and its control characters are shown as
 * escapes (a line break in it must not start a line of an annotation). The destination (log or
 * summary) escapes it for itself.
 *
 * @example analysisWarningText('see <a href="https://docs.example/x">the docs</a>.')
 * // 'see the docs (https://docs.example/x).'
 */
export function analysisWarningText(warning: string): string {
  // Cut first: the patterns then run over a bounded text.
  const text = cut(warning, 2 * QUOTE_LIMITS.long)
    .replace(LINK, (_, href: string, words: string) => `${words} (${address(href)})`)
    .replace(TAG, '')
  return oneLine(text, QUOTE_LIMITS.long)
}

/** The link's address without credentials, or as written when it is not a full URL. */
function address(href: string): string {
  try {
    return shownUrl(new URL(href))
  } catch {
    return href
  }
}
