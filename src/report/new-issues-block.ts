import { bySeverity, countBySeverity, SEVERITY_ORDER, type Finding } from '../findings/finding.js'
import type { NewIssues } from '../gate/new-issues.js'
import type { Sink } from '../sink.js'
import { fittedBlock } from './fitted-block.js'
import { HTML_MARKUP, type Markup } from './markup.js'
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

export interface NewIssuesOptions {
  sink: Sink
  heading: 'h3' | 'h4'
  listed: number
  limit: number
  fileLink?: FileLink | undefined
  markup?: Markup
}

export const SEVERITY_ICONS: Record<Finding['severity'], string> = {
  blocker: '🛑',
  high: '🔴',
  medium: '🟠',
  low: '🟡',
  info: '🔵'
}

/**
 * The "New issues" part of every verdict: how many there are by severity, then the first `listed`,
 * most severe first, each with its file and line (linked to the file at the commit when
 * `fileLink` knows it) and its rule (linked to the issue on the server). In `markup` (HTML blocks
 * by default), through `sink`, within `limit`; nothing when the issues were not asked for.
 *
 * @example newIssuesBlock(result.newIssues, { sink, heading: 'h3', listed: 20, limit: 100_000 })
 */
export function newIssuesBlock(
  newIssues: NewIssues | undefined,
  options: NewIssuesOptions
): string[] {
  const { sink, heading, listed, limit, fileLink, markup = HTML_MARKUP } = options
  const level = heading === 'h3' ? 3 : 4
  if (!newIssues) return []
  if (!newIssues.read) {
    return [
      markup.heading(level, 'New issues'),
      markup.paragraph([
        sink.say(newIssues.reason, (plain) => markup.text(plain, QUOTE_LIMITS.long))
      ])
    ].map((line) => sink.text(line))
  }
  const { findings, total } = newIssues
  const scope = scopeWords(newIssues)
  const title = sink.text(markup.heading(level, `New issues: ${total}`))
  if (total === 0) return [title, sink.text(markup.paragraph([`No open issues ${scope}.`]))]
  const counts = countBySeverity(findings)
  const bySeverityWords = SEVERITY_ORDER.filter((severity) => counts[severity] > 0)
    .map((severity) => `${SEVERITY_ICONS[severity]} ${counts[severity]} ${severity}`)
    .join(' · ')
  const head = [title, sink.text(markup.paragraph([`Open issues ${scope}: ${bySeverityWords}`]))]
  const items = bySeverity(findings)
    .slice(0, listed)
    .map((finding) => markup.list.item(issueItem(finding, fileLink, markup)))
  const list = fittedBlock(sink, items, {
    ...markup.list,
    tail: (more) =>
      markup.list.item(`… and ${more} more: see the server, the SARIF file or the check run`),
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

/** One issue: its severity, its place (linked to the file at the commit), message and rule. */
function issueItem(finding: Finding, fileLink: FileLink | undefined, markup: Markup): string {
  const line = finding.region?.startLine
  const place = finding.file ?? finding.serverPath
  const placeText = place === undefined ? '' : `${place}${line === undefined ? '' : `:${line}`}`
  const link = finding.file !== undefined ? fileLink?.(finding.file, line) : undefined
  const code = markup.code(placeText, QUOTE_LIMITS.long)
  const where = placeText === '' ? '' : `${link ? markup.link(link, code) : code} `
  const rule = markup.text(finding.ruleName ?? finding.rule)
  return `${SEVERITY_ICONS[finding.severity]} ${where}${markup.text(finding.message, QUOTE_LIMITS.long)} (${markup.link(finding.url, rule)})`
}
