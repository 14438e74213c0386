import { FAIL_ON_ERROR, failsUnder, type FailPolicy } from '../fail-policy.js'
import type { EvaluatedCondition } from '../gate/evaluate.js'
import type { GateResult } from '../gate/check.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Sink } from '../sink.js'
import { cut, QUOTE_LIMITS, wellFormed } from '../untrusted-text.js'
import { COMMENT_LIMITS, type CommentWhen } from './comment-settings.js'
import { dashboardAddress } from './dashboard-link.js'
import { evidenceUrl } from './evidence-link.js'
import { fittedBlock } from './fitted-block.js'
import type { FileLink } from './new-issues-block.js'
import { hiddenLine, HTML_MARKUP, type Markup } from './markup.js'
import {
  headline,
  inStatusOrder,
  messageParagraph,
  STATUS_ICONS,
  SUMMARY_LIMITS,
  verdictBlocks
} from './summary.js'
import { describeCondition } from './wording.js'
import { place, msg } from '../words.js'

const MARKER_NAME = 'sonar-quality-gate: '

/**
 * The hidden first line of the comment for a project, in `markup` (an HTML comment by default;
 * a link reference definition in Markdown). The key is URL-encoded, so no key can close the
 * comment (`>` is `%3E`, `"` is `%22`), break its line or hide another marker inside it; it is
 * cut to 1,000 characters first, and a lone surrogate (which encodeURIComponent refuses) becomes
 * U+FFFD.
 *
 * @example commentMarker('my project') // '<!-- sonar-quality-gate: my%20project -->'
 */
export function commentMarker(projectKey: string, markup: Markup = HTML_MARKUP): string {
  const key = wellFormed(cut(projectKey, COMMENT_LIMITS.markerKeyChars))
  return markup.hidden(`${MARKER_NAME}${encodeURIComponent(key)}`)
}

/**
 * The marker of an outcome's comment: its project key, or else where the analysis came from
 * (the report file, or the task or analysis asked for by its id), as the job summary names it.
 */
export function outcomeMarker(outcome: AnalysisOutcome, markup: Markup = HTML_MARKUP): string {
  return commentMarker(projectName(outcome), markup)
}

/**
 * The marker a comment's body carries: its first line when that is a marker, in either markup,
 * as commentBody writes it (a line end stored as CRLF counts as one); otherwise undefined. A
 * marker quoted further down (a reply quoting the comment, say) does not count.
 *
 * @example markerOf(commentBody(outcome, sha, { sink })) === outcomeMarker(outcome) // true
 */
export function markerOf(body: unknown): string | undefined {
  const said = hiddenLine(body, 0)
  if (said === undefined || !new RegExp(`^${MARKER_NAME}\\S*$`).test(said)) return undefined
  return (body as string).split('\n', 1)[0]!.replace(/\r$/, '')
}

/**
 * Whether a comment's body is the comment carrying `marker` (see markerOf).
 *
 * @example carriesMarker(commentBody(outcome, sha, { sink }), outcomeMarker(outcome)) // true
 */
export function carriesMarker(body: unknown, marker: string): boolean {
  return markerOf(body) === marker
}

/** What a comment said of its project: the gate passed, failed (by the policy), or was not read. */
type CommentVerdict = 'passed' | 'failed' | 'unread'

/**
 * The verdict a comment on `outcome` says, under `policy`.
 *
 * @example commentVerdict(outcome, FAIL_ON_ERROR) // 'failed'
 */
export function commentVerdict(
  outcome: AnalysisOutcome,
  policy: FailPolicy = FAIL_ON_ERROR
): CommentVerdict {
  if (!outcome.read) return 'unread'
  return failsUnder(outcome.result.status, policy) ? 'failed' : 'passed'
}

/**
 * Whether to write the project's comment now, given the one found (its body) or none: `always`;
 * `failed` writes no new comment for a passing gate, but still updates one that exists (so it
 * never shows a failure that is gone); `changed` leaves the comment alone while its verdict is
 * the one it already says (its second, hidden line, in either markup).
 *
 * @example shouldWrite('failed', 'passed', undefined) // false
 */
export function shouldWrite(
  when: CommentWhen,
  verdict: CommentVerdict,
  existing: string | undefined
): boolean {
  if (when === 'failed') return existing !== undefined || verdict !== 'passed'
  if (when === 'changed') {
    return existing === undefined || hiddenLine(existing, 1) !== `verdict: ${verdict}`
  }
  return true
}

interface CommentBodyOptions {
  /** The comment's sink: its words, its secrets, its unit (characters, as GitHub counts them). */
  sink: Sink
  /** The markup the platform renders (HTML blocks by default). */
  markup?: Markup
  /** The most it may take, in the sink's unit (default COMMENT_LIMITS.chars, within the sink's limit). */
  limit?: number
  /** Links a new issue's file to the file at the commit, on GitHub. */
  fileLink?: FileLink
  /** The statuses that fail the step (default ERROR alone). */
  policy?: FailPolicy
}

/**
 * The comment for one project, in `markup`: the hidden marker line (by which the next run finds
 * the comment and updates it), the verdict with its icon, the failing (then warning) conditions
 * in words, what changed, the new issues, a link to the analysis when it is on the server's
 * origin, and the commit it is for; for an analysis that could not be read, the reason. Every
 * server value goes through the markup's gate, and everything through the sink. Within `limit`.
 *
 * @example await github.request('POST', commentsPath, { body: { body: commentBody(outcome, sha, { sink }) } })
 */
export function commentBody(
  outcome: AnalysisOutcome,
  commitSha: string,
  options: CommentBodyOptions
): string {
  const { sink, limit = Math.min(COMMENT_LIMITS.chars, sink.limit), markup = HTML_MARKUP } = options
  const said = (lines: readonly string[]) => lines.map((line) => sink.text(line))
  const marker = sink.text(outcomeMarker(outcome, markup))
  // The verdict shown, which `changed` compares (shouldWrite).
  const verdict = markup.hidden(`verdict: ${commentVerdict(outcome, options.policy)}`)
  const project = markup.code(projectName(outcome))
  const commit = `commit ${markup.code(shortSha(commitSha))}`
  // The two hidden lines are the body's first two lines in every markup: one block.
  const hidden = `${marker}\n${verdict}`
  if (!outcome.read) {
    const heading = markup.heading(3, `❗ Quality Gate could not be read · ${project}`)
    const message = messageParagraph(outcome.message, SUMMARY_LIMITS.messageChars, sink, markup)
    const lines = said([heading, message, markup.paragraph([`For ${commit}`])])
    return bounded([hidden, ...lines], sink, limit, markup)
  }
  const { result } = outcome
  const title = sink.text(msg`${headline(result.status, options.policy, markup)} · ${project}`)
  const heading = sink.text(markup.heading(3, title))
  const facts = [
    `For ${commit}`,
    result.analysisId === undefined
      ? 'its newest analysis'
      : `analysis ${markup.code(result.analysisId)}`
  ]
  const tail = said([markup.paragraph([[...facts, ...dashboardLink(result, markup)].join(' · ')])])
  const head = [hidden, heading, sink.text(conditionsIntro(result.conditions, markup))]
  const lines = verdictBlocks(result, head, tail, {
    sink,
    markup,
    limit,
    heading: 'h4',
    listed: COMMENT_LIMITS.issues,
    fileLink: options.fileLink,
    conditions: (room) => conditionsList(result, sink, room, markup)
  })
  return bounded(lines, sink, limit, markup)
}

function conditionsIntro(conditions: readonly EvaluatedCondition[], markup: Markup): string {
  if (conditions.length === 0) {
    return markup.paragraph(['The server returned no conditions for this analysis.'])
  }
  const count = (status: string) =>
    conditions.filter(({ condition }) => condition.status === status).length
  const [failing, warning, total] = [count('ERROR'), count('WARN'), conditions.length]
  if (failing === 0 && warning === 0) {
    return markup.paragraph([
      `${total === 1 ? 'The condition' : `All ${total} conditions`} passed.`
    ])
  }
  const parts = [
    failing > 0 ? `${failing} of ${total} conditions failed` : undefined,
    warning > 0
      ? `${warning}${failing > 0 ? '' : ` of ${total} conditions`} passed with warnings`
      : undefined
  ]
  return markup.paragraph([`${parts.filter(Boolean).join(', ')}:`])
}

/** The failing and warning conditions in words, as many as the limits and `room` allow. */
function conditionsList(result: GateResult, sink: Sink, room: number, markup: Markup): string[] {
  const all = inStatusOrder(result.conditions).filter(
    ({ condition }) => condition.status === 'ERROR' || condition.status === 'WARN'
  )
  if (all.length === 0) return []
  const items = all.slice(0, COMMENT_LIMITS.conditions).map((evaluated) => {
    const icon = STATUS_ICONS[evaluated.condition.status] ?? ''
    const words = markup.text(describeCondition(evaluated), QUOTE_LIMITS.long)
    const evidence = evidenceUrl(result, evaluated.condition)
    return markup.list.item(`${icon} ${evidence ? markup.link(evidence, words) : words}`)
  })
  const list = fittedBlock(sink, items, {
    ...markup.list,
    tail: (more) =>
      markup.list.item(`… and ${more} more: see ${sink.text(place('details'))} or the dashboard`),
    more: all.length - items.length,
    // The list's last line ends in a line feed too.
    limit: room - 1
  })
  return [list.text]
}

/** A link on the server's origin; another http(s) address as code; anything else left out. */
function dashboardLink(
  result: { dashboardUrl: string | undefined; serverUrl: string },
  markup: Markup
): string[] {
  const dashboard = dashboardAddress(result.dashboardUrl, result.serverUrl)
  if (!dashboard) return []
  return dashboard.onServer
    ? [markup.link(dashboard.href, 'See the analysis on the dashboard')]
    : [
        `dashboard (not linked: not on the server's origin) ${markup.code(dashboard.href, Infinity)}`
      ]
}

/** A commit id as GitHub shows it (7 characters); anything else as it is, to be escaped. */
function shortSha(sha: string): string {
  return /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : sha
}

/**
 * The lines (each through the sink already; the hidden lines, then the heading) as one body, or,
 * should they still exceed `limit` (the parts are bounded: this keeps the limit a guarantee, not
 * a sum to trust), the hidden lines and heading alone, cut to the limit should even they exceed it.
 */
function bounded(lines: readonly string[], sink: Sink, limit: number, markup: Markup): string {
  const join = (blocks: readonly string[]) => `${blocks.join(markup.between)}\n`
  const body = join(lines)
  if (sink.size(body) <= limit) return body
  const tooLarge = sink.text(
    markup.paragraph([`The verdict is too large to show here: see ${sink.text(place('details'))}.`])
  )
  return sink.fit([], { head: join([...lines.slice(0, 2), tooLarge]), limit }).text
}
