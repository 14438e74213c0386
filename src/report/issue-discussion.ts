import type { Finding } from '../findings/finding.js'
import type { Sink } from '../sink.js'
import { cut, QUOTE_LIMITS, wellFormed } from '../untrusted-text.js'
import { SEVERITY_ICONS } from './new-issues-block.js'
import { hiddenLine, HTML_MARKUP, type Markup } from './markup.js'

const ISSUE_MARKER_NAME = 'sonar-issue: '

/**
 * The hidden first line of a discussion about one issue: its key URL-encoded (no key can close
 * the comment or break the line), by which a later run finds the discussion again.
 *
 * @example issueMarker('AYIssue00001') // '<!-- sonar-issue: AYIssue00001 -->'
 */
function issueMarker(key: string, markup: Markup = HTML_MARKUP): string {
  return markup.hidden(
    `${ISSUE_MARKER_NAME}${encodeURIComponent(wellFormed(cut(key, QUOTE_LIMITS.short)))}`
  )
}

/** The issue key a discussion's first note carries in its marker line, if any. */
export function issueKeyOf(body: unknown): string | undefined {
  const key = new RegExp(`^${ISSUE_MARKER_NAME}(\\S*)$`).exec(hiddenLine(body, 0) ?? '')?.[1]
  if (key === undefined) return undefined
  try {
    return decodeURIComponent(key)
  } catch {
    return undefined
  }
}

/**
 * A discussion about one new issue on the line of the diff it stands on: its hidden marker line
 * (by which a later run finds it again: never a second one for the issue, and resolved once the
 * issue is gone), then the issue in one paragraph (severity, message, rule linked to the issue on
 * the server), in `markup`, every server value through its gate, the whole through the sink.
 *
 * @example issueDiscussionBody(finding, sink)
 */
export function issueDiscussionBody(
  finding: Finding,
  sink: Sink,
  markup: Markup = HTML_MARKUP
): string {
  const rule = markup.text(finding.ruleName ?? finding.rule)
  const words = `${SEVERITY_ICONS[finding.severity]} ${markup.strong(markup.text(finding.severityWord))} ${markup.text(finding.message, QUOTE_LIMITS.long)} (${markup.link(finding.url, rule)})`
  return sink.text(
    [issueMarker(finding.key, markup), markup.paragraph([words])].join(markup.between)
  )
}
