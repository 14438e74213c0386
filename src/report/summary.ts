import {
  FAIL_ON_ERROR,
  failsUnder,
  policyText,
  statusClass,
  type FailPolicy
} from '../fail-policy.js'
import type { GateResult } from '../gate/check.js'
import type { EvaluatedCondition } from '../gate/evaluate.js'
import { seconds } from '../gate/wait-for-task.js'
import type { Sink } from '../sink.js'
import { QUOTE_LIMITS } from '../untrusted-text.js'
import { analysisWarningText } from './analysis-warning.js'
import { evidenceUrl } from './evidence-link.js'
import { fittedBlock } from './fitted-block.js'
import { newIssuesBlock, type FileLink, type NewIssuesOptions } from './new-issues-block.js'
import { dashboardAddress } from './dashboard-link.js'
import { summaryAddress, summaryCode, summaryText } from './summary-text.js'
import { HTML_MARKUP, type Markup } from './markup.js'
import { whatChangedBlock } from './what-changed-block.js'
import { caycWords, formatValue, metricName, newCodeWords, thresholdWords } from './wording.js'
import { msg, setting, type Said, linesOf, cutSaid } from '../words.js'

/**
 * How much the summary and the messages show. GitHub refuses a step summary over 1 MiB: the
 * summary's sink is built with `bytes` (UTF-8), and the summary stays within it whatever the
 * server sends.
 */
export const SUMMARY_LIMITS = {
  bytes: 1_000_000,
  /** Table rows; past them (or past the room left) "… and N more conditions". */
  rows: 100,
  /** Analysis warnings, in the summary and as annotations. */
  warnings: 20,
  /** Failing conditions listed in the failure message. */
  failuresListed: 20,
  /** Notices where the rule and the server disagree. */
  notices: 10,
  /** The message of a check that could not reach a verdict. */
  messageChars: 4000,
  /** New issues listed, most severe first; the rest are counted. */
  issuesListed: 20
} as const

const HEADLINES: Record<string, string> = {
  OK: '✅ Quality Gate passed',
  WARN: '⚠️ Quality Gate passed with warnings',
  ERROR: '❌ Quality Gate failed',
  NONE: '➖ No Quality Gate'
}

export const STATUS_ICONS: Record<string, string> = { OK: '✅', WARN: '⚠️', ERROR: '❌' }

const STATUS_ORDER: Record<string, number> = { ERROR: 0, WARN: 1 }

/** Failing conditions first, then warning ones, then the rest, each in the server's order. */
export function inStatusOrder(conditions: readonly EvaluatedCondition[]): EvaluatedCondition[] {
  return [...conditions].sort(
    (a, b) => (STATUS_ORDER[a.condition.status] ?? 2) - (STATUS_ORDER[b.condition.status] ?? 2)
  )
}

/** Whether a server sends this status for a gate: OK, WARN, ERROR or NONE. */
export const isKnownStatus = (status: string): boolean => status in HEADLINES

/**
 * The job summary, as HTML blocks (see summary-text.ts for why): verdict, analysis id and time
 * taken, one table row per condition (failing ones first), what changed, the new issues, analysis
 * warnings, dashboard link (linked only when on the server's origin). Every server value goes
 * through `summaryText`, everything through the sink. Within `limit`, the sink's by default.
 *
 * @example await summary.write(renderSummary(result, { sink: sinks.summary }))
 */
export function renderSummary(result: GateResult, options: SectionOptions): string {
  const { sink, section, limit = sink.limit, policy = FAIL_ON_ERROR } = options
  const h = section === undefined ? 'h2' : 'h3'
  const sub = section === undefined ? 'h3' : 'h4'
  const title = section === undefined ? '' : ` · ${summaryText(section)}`
  const said = (lines: readonly Said[]) => lines.map((line) => sink.text(line))
  const head = said([
    msg`<${h}>${headline(result.status, policy)}${title}</${h}>`,
    `<p>${about(result)}</p>`,
    ...gateDetailsBlock(result)
  ])
  const tail = [
    ...warningsBlock(result.taskWarnings, sub, sink, Math.floor(limit / 4)),
    ...said(dashboardBlock(result))
  ]
  const summary = blocks(
    verdictBlocks(result, head, tail, {
      sink,
      limit,
      heading: sub,
      listed: SUMMARY_LIMITS.issuesListed,
      fileLink: options.fileLink,
      conditions: (room) => conditionsBlock(result, sink, room)
    })
  )
  // The parts are bounded; this guard keeps the limit a guarantee, not a sum to trust.
  if (sink.size(summary) <= limit) return summary
  return blocks([head[0]!, '<p>The summary is too large to show: see the log.</p>'])
}

/**
 * A verdict's blocks (the summary's, a comment's): `head`, the conditions, what changed, the new
 * issues, `tail`, each part within its share of `limit`: what changed a sixth of what head and
 * tail leave, the new issues a third of what is left then, the conditions (`conditions(room)`)
 * all the rest.
 */
export function verdictBlocks(
  result: GateResult,
  head: readonly string[],
  tail: readonly string[],
  options: NewIssuesOptions & { conditions: (room: number) => string[] }
): string[] {
  const { sink, markup = HTML_MARKUP, limit } = options
  const size = (lines: readonly string[]) => sink.size(`${lines.join(markup.between)}\n`)
  const share = (parts: readonly string[], divisor: number) =>
    Math.floor((limit - size([...head, ...parts, ...tail])) / divisor)
  const changed = whatChangedBlock(result, { ...options, limit: share([], 6) })
  const issues = newIssuesBlock(result.newIssues, { ...options, limit: share(changed, 3) })
  const conditions = options.conditions(limit - size([...head, ...changed, ...issues, ...tail]))
  return [...head, ...conditions, ...changed, ...issues, ...tail]
}

/** How renderSummary draws a gate: on its own, or as one project's section of several. */
interface SectionOptions {
  /** The summary's sink: its words, its secrets, its limit. */
  sink: Sink
  /** The project's name when it is one section among several (a smaller heading names it). */
  section?: string
  /** The most it may take, in the sink's unit: a share of the sink's limit (default: all of it). */
  limit?: number
  /** Links a new issue's file to the file at the commit analysed, on GitHub. */
  fileLink?: FileLink
  /** The statuses that fail the step (default ERROR alone). */
  policy?: FailPolicy
}

/**
 * The job summary of a check that could not reach a verdict: its message (`messageParagraph`),
 * the whole through the summary's sink.
 *
 * @example await summary.write(renderFailureSummary(error.message, sinks.summary))
 */
export function renderFailureSummary(message: Said, sink: Sink): string {
  const text = messageParagraph(message, SUMMARY_LIMITS.messageChars, sink)
  return sink.text(blocks(['<h2>❌ Quality Gate check failed</h2>', text]))
}

/**
 * Why a check could not reach a verdict, as one paragraph: line by line, cut to `max`
 * characters, each line through the sink and `markup`'s gate.
 *
 * @example messageParagraph(outcome.message, 4000, sink) // '<p>…<br>…</p>'
 */
export function messageParagraph(
  message: Said,
  max: number,
  sink: Sink,
  markup: Markup = HTML_MARKUP
): string {
  const lines = linesOf(cutSaid(message, max))
  return markup.paragraph(lines.map((line) => sink.say(line, (plain) => markup.text(plain, max))))
}

/**
 * The verdict in words with its icon, e.g. "✅ Quality Gate passed"; a WARN or NONE gate that
 * the policy fails on says so ("❌ Quality Gate failed: WARN, which policy names (ERROR,WARN)").
 */
export function headline(
  status: string,
  policy: FailPolicy = FAIL_ON_ERROR,
  markup: Markup = HTML_MARKUP
): Said {
  if (status !== 'ERROR' && failsUnder(status, policy)) {
    const named = statusClass(status) === 'NONE' && status !== 'NONE' ? ' (as NONE)' : ''
    return msg`❌ Quality Gate failed: ${markup.text(status)}${named}, which ${setting('failingStatuses')} names (${policyText(policy)})`
  }
  return (
    HEADLINES[status] ?? `❔ Unknown Quality Gate status ${markup.text(status)}: the check passes`
  )
}

function about(result: GateResult): string {
  const parts = [
    result.projectKey ? `Project ${summaryCode(result.projectKey)}` : undefined,
    result.pullRequest
      ? `pull request ${summaryCode(result.pullRequest)}`
      : result.branch
        ? `branch ${summaryCode(result.branch)}${branchKind(result.branchType)}`
        : undefined,
    `${result.analysisId === undefined ? 'its newest analysis' : `analysis ${summaryCode(result.analysisId)}`}${analysisWords(result)}`,
    result.taskId ? `task ${summaryCode(result.taskId)}` : undefined,
    result.gateFromMeasures
      ? `gate read from the ${result.pullRequest ? "pull request's" : "branch's"} measures (the server has no project_status)`
      : undefined,
    `checked in ${seconds(result.elapsedMs)}`
  ]
  return parts.filter(Boolean).join(' · ')
}

/**
 * Which analysis it is, when it was found by project: its commit and date, and whether a newer
 * one has landed since (its gate is then not the branch's latest).
 */
function analysisWords({ analysis }: GateResult): string {
  if (!analysis) return ''
  if (analysis.basis) return ` (${summaryText(analysis.date)}: ${summaryText(analysis.basis)})`
  const commit = analysis.revision
    ? `of commit ${summaryCode(analysis.revision.slice(0, 7))}`
    : 'of no recorded commit'
  const newer = analysis.newest ? '' : ', a newer one has landed since'
  return ` (${commit}, ${summaryText(analysis.date)}${newer})`
}

/** The branch's type when it says more than "a branch": LONG or SHORT on old servers. */
function branchKind(branchType: string | undefined): string {
  return branchType && branchType !== 'BRANCH' ? ` (${summaryText(branchType)})` : ''
}

/**
 * What the gate reply says beside its conditions: the new code period, Clean as You Code
 * compliance, and conditions the server ignored.
 */
function gateDetailsBlock(result: GateResult): string[] {
  const lines = [
    result.period ? `New code: ${summaryText(newCodeWords(result.period))}` : undefined,
    result.caycStatus
      ? `Clean as You Code: ${summaryText(caycWords(result.caycStatus))}`
      : undefined,
    result.ignoredConditions
      ? 'Some conditions on new code were ignored: the new code has too few lines to judge.'
      : undefined
  ].filter((line) => line !== undefined)
  return lines.length ? [HTML_MARKUP.paragraph(lines)] : []
}

/** An HTML table's lines before its rows, with these column headers, and after them. */
export function htmlTable(headers: readonly string[]): { open: string; close: string } {
  const cells = headers.map((header) => `<th>${header}</th>`).join('')
  return { open: `<table>\n<thead><tr>${cells}</tr></thead>\n<tbody>`, close: '</tbody>\n</table>' }
}

const CONDITIONS_TABLE = htmlTable(['Metric', 'Status', 'Actual', 'Threshold'])

const moreConditions = (more: number): string =>
  `<p>… and ${more} more conditions: see the dashboard or the conditions output.</p>`

/**
 * The conditions table: as many rows as `SUMMARY_LIMITS.rows` and `room` allow, then after the
 * table how many conditions it leaves out.
 */
function conditionsBlock(result: GateResult, sink: Sink, room: number): string[] {
  const { conditions } = result
  if (conditions.length === 0) {
    return [sink.text('<p>The server returned no conditions for this analysis.</p>')]
  }
  const rows = inStatusOrder(conditions)
    .slice(0, SUMMARY_LIMITS.rows)
    .map((evaluated) => tableRow(evaluated, evidenceUrl(result, evaluated.condition)))
  // The note after the table is kept room for, as wide as it can be; each line ends in a line feed.
  const noteRoom = sink.size(sink.text(moreConditions(conditions.length))) + 1
  const table = fittedBlock(sink, rows, { ...CONDITIONS_TABLE, limit: room - noteRoom - 1 })
  const more = conditions.length - table.shown
  return [table.text, ...(more > 0 ? [sink.text(moreConditions(more))] : [])]
}

function tableRow({ condition }: EvaluatedCondition, evidence: string | undefined): string {
  const { status, actualValue } = condition
  const threshold = thresholdWords(condition) ?? 'no threshold sent'
  const icon = STATUS_ICONS[status]
  const name = summaryText(metricName(condition))
  const cells = [
    evidence ? HTML_MARKUP.link(evidence, name) : name,
    `${icon ? `${icon} ` : ''}${summaryText(status)}`,
    summaryText(formatValue(condition, actualValue)),
    summaryText(threshold)
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** The analysis warnings: the first `SUMMARY_LIMITS.warnings` that fit in `room`, then how many more. */
function warningsBlock(
  warnings: readonly string[],
  heading: string,
  sink: Sink,
  room: number
): string[] {
  if (warnings.length === 0) return []
  const title = sink.text(`<${heading}>Analysis warnings</${heading}>`)
  const items = warnings
    .slice(0, SUMMARY_LIMITS.warnings)
    .map((warning) => `<li>${summaryText(analysisWarningText(warning), QUOTE_LIMITS.long)}</li>`)
  const list = fittedBlock(sink, items, {
    ...HTML_MARKUP.list,
    tail: (more) => `<li>… and ${more} more</li>`,
    more: warnings.length - items.length,
    limit: room - sink.size(title) - 2
  })
  return [title, list.text]
}

/** A link on the server's origin; another http(s) address as text; anything else left out. */
function dashboardBlock(result: GateResult): string[] {
  const dashboard = dashboardAddress(result.dashboardUrl, result.serverUrl)
  if (!dashboard) return []
  const address = summaryAddress(dashboard.href)
  return dashboard.onServer
    ? [`<p><a href="${address}">See the analysis on the dashboard</a></p>`]
    : [`<p>Dashboard (not linked: not on the server's origin): <code>${address}</code></p>`]
}

/**
 * The blocks one per line, with no blank line between them: one HTML block for GitHub, which
 * ends at the blank line after it.
 */
export function blocks(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`
}
