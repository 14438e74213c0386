/**
 * The "New issues" part of the job summary and the pull-request comment: how many there are by
 * severity, then the first ones, most severe first, each with its file and line (linked to the
 * file at the commit on GitHub when the action knows it) and its rule (linked to the issue on
 * the server's origin). HTML blocks, every server value through `summaryText`, every line
 * through the destination's sink.
 */
import { bySeverity, countBySeverity, SEVERITY_ORDER, type Finding } from '../findings/finding.js'
import type { NewIssues } from '../gate/new-issues.js'
import type { Sink } from '../sink.js'
import { fittedBlock } from './fitted-block.js'
import { summaryAddress, summaryText } from './summary-text.js'
import { QUOTE_LIMITS } from '../untrusted-text.js'

/** The address of a checkout file at a line, on GitHub or GitLab, at the commit analysed. */
export type FileLink = (file: string, line: number | undefined) => string | undefined

/**
 * The FileLink of a platform's file view at a commit: each path segment encoded, the line as
 * `#L<n>` (GitHub's and GitLab's anchor).
 *
 * @example fileLinkUnder('https://gitlab.example.com/shop/-/blob/0123abc')('src/a b.ts', 3) // 'https://gitlab.example.com/shop/-/blob/0123abc/src/a%20b.ts#L3'
 */
export function fileLinkUnder(prefix: string): FileLink {
  return (file, line) =>
    `${prefix}/${file.split('/').map(encodeURIComponent).join('/')}${line === undefined ? '' : `#L${line}`}`
}

export const SEVERITY_ICONS: Record<Finding['severity'], string> = {
  blocker: '🛑',
  high: '🔴',
  medium: '🟠',
  low: '🟡',
  info: '🔵'
}

/**
 * The block for one analysis, through `sink`, within `limit` (in the sink's unit) and at most
 * `listed` issues; nothing when the issues were not asked for (an unknown project).
 *
 * @example newIssuesBlock(result.newIssues, { sink, heading: 'h3', listed: 20, limit: 100_000 })
 */
export function newIssuesBlock(
  newIssues: NewIssues | undefined,
  options: {
    sink: Sink
    heading: string
    listed: number
    limit: number
    fileLink?: FileLink
    scope?: string
  }
): string[] {
  const { sink, heading, listed, limit, fileLink } = options
  if (!newIssues) return []
  if (!newIssues.read) {
    return [
      `<${heading}>New issues</${heading}>`,
      `<p>${summaryText(newIssues.reason, QUOTE_LIMITS.long)}</p>`
    ].map((line) => sink.text(line))
  }
  const { findings, total } = newIssues
  const scope = options.scope ?? scopeWords(newIssues)
  const title = sink.text(`<${heading}>New issues: ${total}</${heading}>`)
  if (total === 0) return [title, sink.text(`<p>No open issues ${scope}.</p>`)]
  const counts = countBySeverity(findings)
  const bySeverityWords = SEVERITY_ORDER.filter((severity) => counts[severity] > 0)
    .map((severity) => `${SEVERITY_ICONS[severity]} ${counts[severity]} ${severity}`)
    .join(' · ')
  const head = [title, sink.text(`<p>Open issues ${scope}: ${bySeverityWords}</p>`)]
  const items = bySeverity(findings)
    .slice(0, listed)
    .map((finding) => issueItem(finding, fileLink))
  const list = fittedBlock(sink, items, {
    open: '<ul>',
    close: '</ul>',
    tail: (more) => `<li>… and ${more} more: see the server, the SARIF file or the check run</li>`,
    more: total - items.length,
    // Every line of the block ends in a line feed, the list's last line too.
    limit: limit - sink.size(`${head.join('\n')}\n`) - 1
  })
  return [...head, list.text]
}

function scopeWords(newIssues: NewIssues & { read: true }): string {
  if (newIssues.onLinesOf !== undefined) {
    return `in the new code, on the lines ${newIssues.onLinesOf} changes`
  }
  return newIssues.scope.kind === 'pull-request' ? 'in the pull request' : 'in the new code'
}

function issueItem(finding: Finding, fileLink: FileLink | undefined): string {
  const line = finding.region?.startLine
  const place = finding.file ?? finding.serverPath
  const placeText = place === undefined ? '' : `${place}${line === undefined ? '' : `:${line}`}`
  const link = finding.file !== undefined ? fileLink?.(finding.file, line) : undefined
  const where =
    placeText === ''
      ? ''
      : link
        ? `<a href="${summaryAddress(link)}"><code>${summaryText(placeText, QUOTE_LIMITS.long)}</code></a> `
        : `<code>${summaryText(placeText, QUOTE_LIMITS.long)}</code> `
  const rule = summaryText(finding.ruleName ?? finding.rule)
  return `<li>${SEVERITY_ICONS[finding.severity]} ${where}${summaryText(finding.message, QUOTE_LIMITS.long)} (<a href="${summaryAddress(finding.url)}">${rule}</a>)</li>`
}
