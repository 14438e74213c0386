import { FAIL_ON_ERROR, failsUnder, type FailPolicy } from '../fail-policy.js'
import { projectName, worstStatus, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { dashboardAddress } from './dashboard-link.js'
import { annotateGate } from './gate-messages.js'
import { HTML_MARKUP } from './markup.js'
import type { FileLink } from './new-issues-block.js'
import {
  blocks,
  headline,
  htmlTable,
  messageParagraph,
  renderSummary,
  SUMMARY_LIMITS
} from './summary.js'
import { summaryText } from './summary-text.js'
import { metricName } from './wording.js'
import { setting, msg, joined, type Said } from '../words.js'

const VERDICTS: Record<string, string> = {
  OK: '✅ passed',
  WARN: '⚠️ passed with warnings',
  ERROR: '❌ failed',
  NONE: '➖ no gate'
}

const OVERVIEW_TABLE = htmlTable(['Project', 'Verdict', 'Failing conditions', 'Analysis'])

/** Failing conditions named in a row of the overview; the rest are counted. */
const FAILURES_NAMED = 3

/**
 * The job summary of several analyses: a verdict for the step, an overview table (project,
 * verdict, failing conditions, link), then one section per project, as renderSummary draws a
 * single one, or the reason it could not be read. Through the summary's sink and within its
 * limit in all: each section gets an equal share of what the overview leaves.
 *
 * @example await summary.write(renderOverviewSummary(outcomes, { sink: sinks.summary }))
 */
export function renderOverviewSummary(
  outcomes: readonly AnalysisOutcome[],
  options: { sink: Sink; fileLink?: FileLink; policy?: FailPolicy }
): string {
  const { sink, policy = FAIL_ON_ERROR } = options
  const unread = outcomes.filter((outcome) => !outcome.read).length
  const statuses = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.status] : []))
  const title =
    unread > 0
      ? `❌ ${unread} of ${outcomes.length} analyses could not be read`
      : msg`${headline(worstFor(statuses, policy), policy)} (${outcomes.length} analyses)`
  const head = [
    msg`<h2>${title}</h2>`,
    OVERVIEW_TABLE.open,
    ...outcomes.map((outcome) => overviewRow(outcome, policy)),
    OVERVIEW_TABLE.close
  ].map((line) => sink.text(line))
  const share = Math.floor((sink.limit - sink.size(blocks(head))) / Math.max(1, outcomes.length))
  const sections = outcomes.map((outcome) =>
    outcome.read
      ? renderSummary(outcome.result, {
          sink,
          section: projectName(outcome),
          limit: share,
          fileLink: options.fileLink,
          policy
        })
      : unreadSection(outcome, share, sink)
  )
  const summary = blocks(head) + sections.join('')
  // The parts are bounded; this guard keeps the limit a guarantee, not a sum to trust.
  if (sink.size(summary) <= sink.limit) return summary
  return blocks([head[0]!, '<p>The summary is too large to show: see the log.</p>'])
}

/**
 * The status the overview's title speaks of: the worst, unless a better one fails the step and
 * the worst does not (policy names NONE, and a WARN gate is the worst).
 */
function worstFor(statuses: readonly string[], policy: FailPolicy): string {
  const worst = worstStatus(statuses)
  if (failsUnder(worst, policy)) return worst
  return statuses.find((status) => failsUnder(status, policy)) ?? worst
}

function overviewRow(outcome: AnalysisOutcome, policy: FailPolicy): Said {
  const project = summaryText(projectName(outcome))
  if (!outcome.read) {
    return `<tr><td>${project}</td><td>❗ not read</td><td>see below</td><td></td></tr>`
  }
  const { result } = outcome
  const failing = result.conditions.filter(({ condition }) => condition.status === 'ERROR')
  const named = failing
    .slice(0, FAILURES_NAMED)
    .map(({ condition }) => summaryText(metricName(condition)))
  if (failing.length > named.length) named.push(`${failing.length - named.length} more`)
  const verdict =
    result.status !== 'ERROR' && failsUnder(result.status, policy)
      ? msg`❌ ${summaryText(result.status)}: fails (${setting('failingStatuses')})`
      : (VERDICTS[result.status] ?? `❔ ${summaryText(result.status)} (unknown: passes)`)
  const dashboard = dashboardAddress(result.dashboardUrl, result.serverUrl)
  const link = dashboard?.onServer ? HTML_MARKUP.link(dashboard.href, 'dashboard') : ''
  const cells = [project, verdict, named.join(', ') || '–', link]
  return msg`<tr>${joined(
    cells.map((cell) => msg`<td>${cell}</td>`),
    ''
  )}</tr>`
}

/**
 * A project that could not be read: its name and the message, line by line, in characters
 * enough to stay within `share` once escaped (eight bytes a character at most).
 */
function unreadSection(
  outcome: AnalysisOutcome & { read: false },
  share: number,
  sink: Sink
): string {
  const heading = `<h3>❗ Not read · ${summaryText(projectName(outcome))}</h3>`
  const room = Math.max(0, Math.min(SUMMARY_LIMITS.messageChars, Math.floor(share / 8) - 200))
  return sink.text(blocks([heading, messageParagraph(outcome.message, room, sink)]))
}

/**
 * The annotations of every gate read (see `annotate`); with several analyses each message
 * starts with its project's name, so an annotation says whose it is.
 */
export function annotateAll(
  outcomes: readonly AnalysisOutcome[],
  log: Log,
  policy: FailPolicy = FAIL_ON_ERROR
): void {
  for (const outcome of outcomes) {
    if (!outcome.read) continue
    const prefix = `${oneLine(projectName(outcome), QUOTE_LIMITS.short)}: `
    const named: Log = {
      info: (message) => log.info(msg`${prefix}${message}`),
      warning: (message) => log.warning(msg`${prefix}${message}`),
      notice: (message) => log.notice(msg`${prefix}${message}`),
      startGroup: (name) => log.startGroup(name),
      endGroup: () => log.endGroup()
    }
    annotateGate(outcome.result, outcomes.length === 1 ? log : named, policy)
  }
}
