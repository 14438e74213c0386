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
import { newIssuesBlock, type FileLink } from './new-issues-block.js'
import { hiddenLine, HTML_MARKUP, type Markup } from './markup.js'
import { headline, SUMMARY_LIMITS } from './summary.js'
import { whatChangedBlock } from './what-changed-block.js'
import { describeCondition } from './wording.js'
import { place, msg, linesOf, cutSaid } from '../words.js'

/**
 * The pull-request comment of one project. GitHub renders a comment as it renders the job
 * summary (Markdown with raw HTML), so the comment is written the same way: HTML blocks with
 * every server value through `summaryText` (see summary-text.ts for why). Its first line is a
 * hidden marker naming the project, by which the next run finds the comment and updates it.
 */

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

/** The comment's second line, hidden: the verdict it shows, for `changed`. */
function verdictLine(verdict: CommentVerdict, markup: Markup = HTML_MARKUP): string {
  return markup.hidden(`verdict: ${verdict}`)
}

/** The verdict an existing comment says on its second line, in either markup. */
function saidVerdict(existing: string): string | undefined {
  return /^verdict: (passed|failed|unread)$/.exec(hiddenLine(existing, 1) ?? '')?.[1]
}

/**
 * Whether to write the project's comment now, given the one found (its body) or none: `always`;
 * `failed` writes no new comment for a passing gate, but still updates one that exists (so it
 * never shows a failure that is gone); `changed` leaves the comment alone while its verdict is
 * the one it already says.
 *
 * @example shouldWrite('failed', 'passed', undefined) // false
 */
export function shouldWrite(
  when: CommentWhen,
  verdict: CommentVerdict,
  existing: string | undefined
): boolean {
  if (when === 'failed') return existing !== undefined || verdict !== 'passed'
  if (when === 'changed') return existing === undefined || saidVerdict(existing) !== verdict
  return true
}

/** How commentBody draws a comment. */
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
 * The comment for one project, as HTML blocks: the marker line, the verdict with its icon, the
 * failing (then warning) conditions in words, what changed, the new issues, a link to the
 * analysis when it is on the server's origin, and the commit it is for; for an analysis that
 * could not be read, the reason. Every server value goes through `summaryText`, and everything
 * through the comment's sink. Within `limit`.
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
  const join = (lines: readonly string[]) => `${lines.join(markup.between)}\n`
  const size = (lines: readonly string[]) => sink.size(join(lines))
  const marker = sink.text(outcomeMarker(outcome, markup))
  const verdict = verdictLine(commentVerdict(outcome, options.policy), markup)
  const project = markup.code(projectName(outcome))
  const commit = `commit ${markup.code(shortSha(commitSha))}`
  // The two hidden lines are the body's first two lines in every markup: one block.
  const hidden = `${marker}\n${verdict}`
  const frame = { hidden, sink, limit, markup, join }
  if (!outcome.read) {
    const heading = sink.text(markup.heading(3, `❗ Quality Gate could not be read · ${project}`))
    const max = SUMMARY_LIMITS.messageChars
    const lines = linesOf(cutSaid(outcome.message, max))
    const message = lines.map((line) => sink.say(line, (plain) => markup.text(plain, max)))
    return bounded(
      [hidden, heading, ...said([markup.paragraph(message), markup.paragraph([`For ${commit}`])])],
      { ...frame, heading }
    )
  }

  const { result } = outcome
  const heading = sink.text(
    markup.heading(
      3,
      sink.text(msg`${headline(result.status, options.policy, markup)} · ${project}`)
    )
  )
  const facts = [
    `For ${commit}`,
    result.analysisId === undefined
      ? 'its newest analysis'
      : `analysis ${markup.code(result.analysisId)}`
  ]
  const tail = said([markup.paragraph([[...facts, ...dashboardLink(result, markup)].join(' · ')])])
  const head = [hidden, heading, sink.text(conditionsIntro(result.conditions, markup))]
  // What changed keeps within a sixth of what is left, the issues within a third.
  const changed = whatChangedBlock(result, {
    sink,
    heading: 'h4',
    limit: Math.floor((limit - size([...head, ...tail])) / 6),
    markup
  })
  const issues = newIssuesBlock(result.newIssues, {
    sink,
    heading: 'h4',
    listed: COMMENT_LIMITS.issues,
    limit: Math.floor((limit - size([...head, ...changed, ...tail])) / 3),
    fileLink: options.fileLink,
    markup
  })
  const list = conditionsList(
    result,
    sink,
    limit - size([...head, ...changed, ...issues, ...tail]),
    markup
  )
  return bounded([...head, ...list, ...changed, ...issues, ...tail], { ...frame, heading })
}

const LISTED_ICONS: Record<string, string> = { ERROR: '❌', WARN: '⚠️' }

/** Failing conditions, then warning ones, each in the server's order. */
function listed(conditions: readonly EvaluatedCondition[]): EvaluatedCondition[] {
  const withStatus = (status: string) =>
    conditions.filter(({ condition }) => condition.status === status)
  return [...withStatus('ERROR'), ...withStatus('WARN')]
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
  const all = listed(result.conditions)
  if (all.length === 0) return []
  const items = all.slice(0, COMMENT_LIMITS.conditions).map((evaluated) => {
    const icon = LISTED_ICONS[evaluated.condition.status] ?? ''
    const words = markup.text(describeCondition(evaluated), QUOTE_LIMITS.long)
    const evidence = evidenceUrl(result, evaluated.condition)
    return markup.list.item(`${icon} ${evidence ? markup.link(evidence, words) : words}`)
  })
  const list = fittedBlock(sink, items, {
    open: markup.list.open,
    close: markup.list.close,
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
 * The lines (each through the sink already) as one body, or, should they still exceed `limit`
 * (the parts are bounded: this keeps the limit a guarantee, not a sum to trust), the marker and
 * heading alone, cut to the limit should even they exceed it.
 */
function bounded(
  lines: readonly string[],
  frame: {
    hidden: string
    heading: string
    sink: Sink
    limit: number
    markup: Markup
    join: (lines: readonly string[]) => string
  }
): string {
  const { sink, limit, join } = frame
  const body = join(lines)
  if (sink.size(body) <= limit) return body
  const tooLarge = sink.text(
    frame.markup.paragraph([
      `The verdict is too large to show here: see ${sink.text(place('details'))}.`
    ])
  )
  return sink.fit([], {
    head: join([frame.hidden, frame.heading, tooLarge]),
    limit
  }).text
}
