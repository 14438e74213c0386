/**
 * The one driver of every review platform: from the outcomes, a status and a report per project
 * on the commit, and on the review the project's verdict comment, found again and edited in
 * place, and comments on the issues' lines, started together and resolved once their issue is
 * gone. The rules every platform shares live here once:
 * - nothing a platform does changes the verdict or the exit code: the first step that fails ends
 *   the decoration with one warning naming the platform, the step and what to check (a refusal:
 *   what the token or the review lacks, in the platform's words), and the driver never throws;
 * - only our own comments are edited, deleted or resolved: a comment is ours when it carries our
 *   marker (or our property) **and** its author is the token's own identity, read at most once a
 *   run, once a listed comment carries a marker or names an issue (anyone who may comment can
 *   copy a marker; nobody else can write as the token); unknown, and nothing is edited or
 *   resolved;
 * - a project `allProjects` names that this run did not analyse gets a passing status saying so;
 * - the comment setting's noise rules, the severity floor and the inline limit;
 * - every text is rendered and put through the sink here, before a platform sees it.
 */
import { failsUnder, type FailPolicy } from '../fail-policy.js'
import type { ChangedLines } from '../findings/changed-lines.js'
import { bySeverity, SEVERITY_ORDER, type Finding, type Severity } from '../findings/finding.js'
import { hasBranchAnalyses, narrowToChangedLines } from '../gate/on-changed-lines.js'
import { notAnalysed, projectName, type AnalysisOutcome } from '../gate/outcome.js'
import { PlatformRefusal } from '../http/rest-api.js'
import type { Log } from '../log.js'
import { messageOf, quotedSaidOf } from '../errors.js'
import { dashboardAddress } from '../report/dashboard-link.js'
import { issueDiscussionBody, issueKeyOf } from '../report/issue-discussion.js'
import { HTML_MARKUP, MARKDOWN_MARKUP } from '../report/markup.js'
import { newIssuesBlock, type FileLink } from '../report/new-issues-block.js'
import { withoutReferences } from '../report/no-references.js'
import type { CommentWhen } from '../report/comment-settings.js'
import {
  commentBody,
  commentVerdict,
  markerOf,
  shouldWrite
} from '../report/pull-request-comment-body.js'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { joined, msg, setting, type Said } from '../words.js'
import type {
  Figure,
  Identity,
  InlineComment,
  InlineComments,
  NewInlineComment,
  PlatformWords,
  ProjectVerdict,
  Review,
  ReviewPlatform,
  VerdictComment
} from './review-platform.js'

/** What the decoration is given besides the platform and the outcomes. */
export interface DecorationOptions {
  /** What the platform is sent goes through it: the edge's words, every token's forms hidden. */
  sink: Sink
  policy: FailPolicy
  commentWhen: CommentWhen
  /** At most this many new comments on the issues' lines a run (0: none, and none resolved). */
  inlineLimit: number
  /** The least severe issue that gets one. */
  inlineSeverity: Severity
  /** Links a new issue's file to the file at the commit, on the platform. */
  fileLink?: FileLink | undefined
  /** Every project a rule may require a status of: those not analysed get a passing one. */
  allProjects?: readonly string[] | undefined
  log: Log
}

/**
 * Decorates `platform` with every outcome; resolves once done, whatever the platform answered
 * (what happened is in the log), and never throws.
 *
 * @example await decorate(gitlabPlatform(api, pipeline), outcomes, { sink, policy, commentWhen: 'always', inlineLimit: 10, inlineSeverity: 'info', log })
 */
export async function decorate(
  platform: ReviewPlatform,
  outcomes: readonly AnalysisOutcome[],
  options: DecorationOptions
): Promise<void> {
  const { words } = platform
  const named = { ...words, refusal: (error: PlatformRefusal) => platform.refusal(error) }
  await decorating(options.log, named, async (log) => {
    for (const outcome of outcomes) {
      const verdict = verdictOf(outcome, options)
      if (platform.setStatus) {
        const set = platform.setStatus.bind(platform)
        await decorationStep(`the ${words.status} for ${verdict.name}`, () => set(verdict))
      }
      if (platform.writeReport) {
        const write = platform.writeReport.bind(platform)
        const report = words.report ?? 'report'
        await decorationStep(`the ${report} for ${verdict.name}`, async () => {
          const annotations = await write(verdict)
          if (typeof annotations !== 'number') return log.info(annotations)
          log.info(
            `${words.name}: the ${report} for ${verdict.name} is on commit ${platform.commit.slice(0, 12)}, with ${annotations} annotations.`
          )
        })
      }
    }
    await statusesNotAnalysed(platform, outcomes, { ...options, log })
    if (!platform.review) {
      if (platform.noReview) log.info(platform.noReview)
      return
    }
    await decorateReview(words, platform.review, outcomes, { ...options, log })
  })
}

/**
 * A passing status for each project `allProjects` names that this run did not analyse (a
 * monorepo's project with no change), so a rule that requires its status holds; a check run where
 * one stands for the status. None while an analysis's project is unknown: it may be one of them.
 */
async function statusesNotAnalysed(
  platform: ReviewPlatform,
  outcomes: readonly AnalysisOutcome[],
  { allProjects = [], sink, log }: DecorationOptions
): Promise<void> {
  const write: ((verdict: ProjectVerdict) => Promise<unknown>) | undefined = (
    platform.setStatus ?? platform.writeReport
  )?.bind(platform)
  if (allProjects.length === 0 || !write) return
  const { words } = platform
  const missing = notAnalysed(outcomes, allProjects)
  if (missing === undefined) {
    log.info(
      msg`${words.name}: no status for the projects of ${setting('allProjects')} not analysed: an analysis's project is unknown, and may be one of them.`
    )
    return
  }
  const what = platform.setStatus ? words.status : (words.report ?? 'report')
  for (const key of missing) {
    const verdict = notAnalysedVerdict(key, sink)
    await decorationStep(`the ${what} for ${verdict.name}`, () => write(verdict))
  }
  if (missing.length > 0) {
    log.info(
      `${words.name}: not analysed in this run, a passing ${what} each: ${missing.map((key) => oneLine(key, QUOTE_LIMITS.short)).join(', ')}.`
    )
  }
}

/** A project this run did not analyse, as a platform shows it: passing, and saying so. */
function notAnalysedVerdict(key: string, sink: Sink): ProjectVerdict {
  const words = 'Not analysed in this run'
  return {
    key,
    label: sink.text(key),
    name: oneLine(key, QUOTE_LIMITS.short),
    failing: false,
    notAnalysed: true,
    words,
    dashboard: undefined,
    findings: [],
    newIssues: undefined,
    reportHtml: () => sink.text(HTML_MARKUP.paragraph([`➖ ${words}.`])),
    figures: [{ title: 'Quality Gate', type: 'TEXT', value: 'not analysed' }],
    say: (text) => sink.text(text)
  }
}

async function decorateReview(
  words: PlatformWords,
  review: Review,
  outcomes: readonly AnalysisOutcome[],
  options: DecorationOptions
): Promise<void> {
  const { log, inlineLimit } = options
  // Read once, when first needed: a listed comment carries our marker or names an issue.
  // Unknown (undefined): the verdict is written anew, and nothing is edited, resolved or closed.
  let read: Promise<Identity | undefined> | undefined
  const identity = () =>
    (read ??= ownIdentity(log, words.name, () => review.ownIdentity(), review.identity))
  const readLines = review.changedLines?.bind(review)
  const wanted = hasBranchAnalyses(outcomes) || (review.inline !== undefined && inlineLimit > 0)
  const files = review.granularity === 'files'
  const changed =
    readLines && wanted
      ? await decorationStep(`the ${files ? 'files' : 'lines'} ${review.name} changes`, readLines)
      : undefined
  const shown = changed ? narrowToChangedLines(outcomes, changed, review.name, log) : outcomes
  if (changed && files && hasBranchAnalyses(outcomes)) {
    log.info(
      `${words.name} gives the files a ${review.kind} changes, not its lines: the issues are narrowed to those files.`
    )
  }
  await writeVerdicts(words, review, shown, identity, options)
  const inline = review.inline
  if (!inline || inlineLimit <= 0 || !changed) return
  const notReady = inline.notReady?.()
  if (notReady !== undefined) {
    log.info(notReady)
    return
  }
  await decorationStep(inline.step, async () => {
    const done = await commentOnLines(inline, review, identity, issuesOf(shown), changed, options)
    const past = done.leftOut > 0 ? msg`; ${done.leftOut} more past ${setting('inlineLimit')}` : ''
    log.info(
      msg`${words.name}: ${done.started} ${inline.started}${past}, ${done.resolved} ${inline.resolved} (their issues are gone).`
    )
  })
}

/**
 * The token's own identity as `read` finds it, or undefined, said in one warning, when it cannot
 * be read (a refusal, a failure, a reply that names none). Never throws.
 *
 * @example const me = await ownIdentity(log, 'GitLab', () => gitlab.ownUserId()) // 77, or undefined
 */
async function ownIdentity<T>(
  log: Pick<Log, 'info' | 'warning'>,
  platform: string,
  read: () => Promise<T | undefined>,
  {
    instead = 'the verdict is written anew, and nothing is edited, resolved or closed',
    level = 'warning'
  }: Partial<Review['identity']> = {}
): Promise<T | undefined> {
  let why: string
  try {
    const identity = await read()
    if (identity !== undefined) return identity
    why = 'the reply names none'
  } catch (error) {
    why = messageOf(error)
  }
  log[level](
    `${platform}: the token's own identity could not be read (${oneLine(why, QUOTE_LIMITS.short)}), so no comment is known as ours: ${instead}.`
  )
  return undefined
}

/** Each project's verdict comment: ours edited in place, or a new one, as the comment setting says. */
async function writeVerdicts(
  words: PlatformWords,
  review: Review,
  outcomes: readonly AnalysisOutcome[],
  identity: () => Promise<Identity | undefined>,
  options: DecorationOptions
): Promise<void> {
  const { verdicts } = review
  const existing = await decorationStep(`the ${words.comment}s of ${review.name}`, () =>
    verdicts.list()
  )
  // With the identity unknown, the author a create's reply names: the token's own.
  let written: Identity | undefined
  const me = async () => (await identity()) ?? written
  const madeNow = new WeakSet<VerdictComment>()
  for (const outcome of outcomes) {
    const name = nameOf(outcome)
    await decorationStep(`the ${words.comment} for ${name}`, async () => {
      const result = await writeVerdict(review, existing, me, madeNow, outcome, options)
      written ??= result.author
      options.log.info(
        result.action === 'unchanged'
          ? msg`${words.name}: the ${words.comment} for ${name} is left as it is (${setting('comment')} ${options.commentWhen}).`
          : `${words.name}: the ${words.comment} for ${name} is ${result.action} on ${review.name}.`
      )
    })
  }
}

/**
 * The project's verdict comment, unless the comment setting says to leave it: `failed` writes no
 * new one for a passing gate (an existing one is still updated, so it never shows a failure that
 * is gone); `changed` leaves it alone while its verdict is the same. Ours is the one carrying the
 * project's marker (or property) whose author is `me`, asked once one carries it. With `me`
 * unknown, a new one is written;
 * where the platform may delete, the author its reply names is the token's, and that author's
 * earlier ones carrying the marker are deleted, so one stays.
 */
async function writeVerdict(
  review: Review,
  existing: VerdictComment[],
  identity: () => Promise<Identity | undefined>,
  madeNow: WeakSet<VerdictComment>,
  outcome: AnalysisOutcome,
  { sink, policy, commentWhen, fileLink }: DecorationOptions
): Promise<{ action: 'created' | 'updated' | 'unchanged'; author: Identity | undefined }> {
  const { verdicts } = review
  const body = commentBody(outcome, review.commit, {
    sink,
    policy,
    ...(fileLink ? { fileLink } : {}),
    markup: review.markup === 'markdown' ? MARKDOWN_MARKUP : HTML_MARKUP,
    ...(review.commentChars === undefined ? {} : { limit: review.commentChars })
  })
  const verdict = verdictOf(outcome, { sink, policy, fileLink })
  const marker = markerOf(body)
  const carrying = existing.filter((comment) =>
    verdicts.keyedBy === 'project'
      ? comment.project === verdict.label
      : markerOf(comment.body) === marker
  )
  // One this run wrote (two outcomes naming one project share it) is ours without asking.
  const made = carrying.find((comment) => madeNow.has(comment))
  const me = made || carrying.length === 0 ? undefined : await identity()
  const ours = made ?? (me === undefined ? undefined : carrying.find(({ author }) => author === me))
  const cleansUp = !ours && me === undefined && verdicts.remove !== undefined && carrying.length > 0
  if (!cleansUp && !shouldWrite(commentWhen, commentVerdict(outcome, policy), ours?.body)) {
    return { action: 'unchanged', author: me }
  }
  if (ours && (await verdicts.update(ours, body))) {
    ours.body = body
    return { action: 'updated', author: me }
  }
  const created = await verdicts.create(verdict, body)
  const author = me ?? created.author
  if (me === undefined && author !== undefined && verdicts.remove) {
    for (const earlier of carrying.filter((comment) => comment.author === author)) {
      await verdicts.remove(earlier)
      existing.splice(existing.indexOf(earlier), 1)
    }
  }
  if (created.id !== undefined) {
    const comment = { id: created.id, body, author, project: verdict.label }
    existing.push(comment)
    madeNow.add(comment)
  }
  return { action: 'created', author }
}

/**
 * A comment per new issue on a line the review changes, the most severe first, at most
 * `inlineLimit`, started together; none for an issue that has one of ours (with `me` unknown:
 * anyone's); ours of issues no longer reported resolved, when every issue was read.
 */
async function commentOnLines(
  inline: InlineComments,
  review: Review,
  identity: () => Promise<Identity | undefined>,
  issues: { findings: Finding[]; complete: boolean },
  changed: ChangedLines,
  { sink, inlineLimit, inlineSeverity, log }: DecorationOptions
): Promise<{ started: number; resolved: number; leftOut: number }> {
  const keyed = (await inline.list(identity)).flatMap(
    (comment): (InlineComment & { issueKey: string })[] => {
      const issueKey = comment.issueKey ?? issueKeyOf(comment.body)
      return issueKey === undefined ? [] : [{ ...comment, issueKey }]
    }
  )
  // Who the token is matters once a comment names an issue.
  const me = keyed.length > 0 ? await identity() : undefined
  const ours = keyed.filter((comment) => me !== undefined && comment.author === me)
  // Another's comment on an issue does not stand in for ours, unless ours cannot be known.
  const discussed = new Set((me === undefined ? keyed : ours).map(({ issueKey }) => issueKey))
  const markup = review.markup === 'markdown' ? MARKDOWN_MARKUP : HTML_MARKUP
  const floor = SEVERITY_ORDER.indexOf(inlineSeverity)
  const candidates = bySeverity(issues.findings).flatMap((finding): NewInlineComment[] => {
    if (discussed.has(finding.key) || SEVERITY_ORDER.indexOf(finding.severity) > floor) return []
    const line = lineOn(finding, changed, review.granularity ?? 'lines')
    // A path is sent as it is (the platform matches it to the diff): one that holds a secret is not.
    const file = finding.file
    if (line === undefined || file === undefined || sink.text(file) !== file) return []
    return [{ finding, file, line, body: issueDiscussionBody(finding, sink, markup) }]
  })
  const now = candidates.slice(0, Math.max(0, inlineLimit))
  const oneByOne = now.length > 0 ? await inline.start(now) : undefined
  if (oneByOne) log.info(oneByOne)
  let resolved = 0
  if (issues.complete) {
    const current = new Set(issues.findings.map(({ key }) => key))
    for (const comment of ours) {
      if (comment.resolved || current.has(comment.issueKey)) continue
      if (await inline.resolve(comment)) resolved++
    }
  }
  return { started: now.length, resolved, leftOut: candidates.length - now.length }
}

/**
 * The line of the finding's region a comment goes on: the first the review adds (a platform
 * refuses a comment on a line its diff does not show); on a platform that gives files, its first
 * line when the file is changed. A file whose diff the platform left out has no line known.
 */
function lineOn(
  finding: Finding,
  changed: ChangedLines,
  granularity: 'lines' | 'files'
): number | undefined {
  if (finding.file === undefined || finding.region === undefined) return undefined
  const added = changed.get(finding.file)
  if (added === undefined) return undefined
  const { startLine, endLine } = finding.region
  if (added === 'whole') return granularity === 'files' ? startLine : undefined
  for (let line = startLine; line <= Math.min(endLine, startLine + 10_000); line++) {
    if (added.has(line)) return line
  }
  return undefined
}

/** The project's verdict as a platform shows it, every text through the sink. */
export function verdictOf(
  outcome: AnalysisOutcome,
  { sink, policy, fileLink }: Pick<DecorationOptions, 'sink' | 'policy' | 'fileLink'>
): ProjectVerdict {
  const newIssues = outcome.read ? outcome.result.newIssues : undefined
  const words = statusWords(outcome, policy, sink)
  return {
    key: projectName(outcome),
    label: sink.text(projectName(outcome)),
    name: nameOf(outcome),
    failing: failing(outcome, policy),
    words: sink.text(words),
    dashboard: dashboardOf(outcome),
    findings: newIssues?.read ? bySeverity(newIssues.findings) : [],
    newIssues: newIssues?.read ? newIssues.total : undefined,
    reportHtml: (limit) =>
      [
        sink.text(
          HTML_MARKUP.paragraph([
            `${failing(outcome, policy) ? '❌' : '✅'} ${HTML_MARKUP.text(words, 300)}`
          ])
        ),
        ...newIssuesBlock(newIssues, {
          sink,
          heading: 'h3',
          listed: REPORT_ISSUES_LISTED,
          limit: limit - 2000,
          ...(fileLink ? { fileLink } : {})
        })
      ].join('\n'),
    figures: figuresOf(outcome, sink),
    say: (text) => sink.text(text)
  }
}

/** The new issues a report's HTML lists; the annotations carry them all. */
const REPORT_ISSUES_LISTED = 50

/** A report's figures: the gate, the new issues, and the new code's figures it has (at most 4). */
function figuresOf(outcome: AnalysisOutcome, sink: Sink): Figure[] {
  if (!outcome.read) return [{ title: 'Quality Gate', type: 'TEXT', value: 'not read' }]
  const { result } = outcome
  const figures: Figure[] = [
    { title: 'Quality Gate', type: 'TEXT', value: sink.text(oneLine(result.status, 40)) }
  ]
  if (result.newIssues?.read) {
    figures.push({ title: 'New issues', type: 'NUMBER', value: result.newIssues.total })
  }
  const newCode = result.whatChanged?.newCode
  if (newCode && !('unread' in newCode)) {
    if (newCode.coverage !== undefined) {
      figures.push({ title: 'Coverage on new code', type: 'PERCENTAGE', value: newCode.coverage })
    }
    if (newCode.duplication !== undefined) {
      const title = 'Duplicated lines on new code'
      figures.push({ title, type: 'PERCENTAGE', value: newCode.duplication })
    }
  }
  return figures
}

/** Every analysis's new issues, and whether they are all of them (each read whole). */
function issuesOf(outcomes: readonly AnalysisOutcome[]): {
  findings: Finding[]
  complete: boolean
} {
  const findings: Finding[] = []
  let complete = true
  for (const outcome of outcomes) {
    const newIssues = outcome.read ? outcome.result.newIssues : undefined
    if (!newIssues?.read) {
      complete = false
      continue
    }
    findings.push(...newIssues.findings)
    if (newIssues.findings.length < newIssues.total) complete = false
  }
  return { findings, complete }
}

/** An analysis's name in a platform's log lines: its project key, on one line. */
function nameOf(outcome: AnalysisOutcome): string {
  return oneLine(projectName(outcome), QUOTE_LIMITS.short)
}

/**
 * A status's one-line description under the policy, the server's words in it making no
 * reference and no link where a platform shows it (`withoutReferences`).
 *
 * @example statusWords(outcome, FAIL_ON_ERROR, sink) // 'Quality Gate failed: 2 of 7 conditions failed'
 */
export function statusWords(outcome: AnalysisOutcome, policy: FailPolicy, sink: Sink): string {
  return withoutReferences(gateWords(outcome, policy, sink))
}

function gateWords(outcome: AnalysisOutcome, policy: FailPolicy, sink: Sink): string {
  if (!outcome.read) {
    return `Quality Gate could not be read: ${oneLine(sink.text(outcome.message), 200)}`
  }
  const { result } = outcome
  if (!failsUnder(result.status, policy)) {
    return result.status === 'OK'
      ? 'Quality Gate passed'
      : `Quality Gate passed (${oneLine(result.status, 40)})`
  }
  const failed = result.conditions.filter(({ condition }) => condition.status === 'ERROR').length
  return result.status === 'ERROR'
    ? `Quality Gate failed: ${failed} of ${result.conditions.length} conditions failed`
    : `Quality Gate failed: ${oneLine(result.status, 40)}`
}

/** Whether a platform shows the analysis as failed: its gate fails the policy, or was not read. */
function failing(outcome: AnalysisOutcome, policy: FailPolicy): boolean {
  return !outcome.read || failsUnder(outcome.result.status, policy)
}

/** The dashboard's address a platform links to (http(s), without credentials), when known. */
function dashboardOf(outcome: AnalysisOutcome): string | undefined {
  return outcome.read
    ? dashboardAddress(outcome.result.dashboardUrl, outcome.result.serverUrl)?.href
    : undefined
}

/** A platform as its decoration's one warning names it. */
type DecorationPlatform = Pick<PlatformWords, 'name' | 'check'> & Pick<ReviewPlatform, 'refusal'>

/** A step of a decoration that failed: what it was doing; why is its `cause`. */
class DecorationStepFailure extends Error {
  constructor(
    readonly what: string,
    options: { cause: unknown }
  ) {
    super(`${what} failed`, options)
    this.name = 'DecorationStepFailure'
  }
}

/**
 * One step of a platform's decoration: its failure, whatever it is (a refusal, no answer in
 * time, a reply not as documented), ends the decoration, said by `decorating` with `what`.
 *
 * @example const diff = await decorationStep('the lines merge request !7 changes', () => review.changedLines())
 */
export async function decorationStep<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw error instanceof DecorationStepFailure
      ? error
      : new DecorationStepFailure(what, { cause: error })
  }
}

/**
 * A platform's whole decoration, the one place its failures are caught: the first step that
 * fails ends it (the platform, which shares one connection and one deadline across the steps,
 * would fail the next ones too, each costing time and another line), said in one warning; it
 * never throws, so the verdict and the exit code are the gate's whatever the platform does.
 * `run` writes through the log it is handed, whose warnings are held until the decoration ends:
 * said as warnings when it completes, and as plain lines before the one warning when it fails
 * (an identity that could not be read matters less than the decoration that did not happen).
 *
 * @example await decorating(log, { name: 'GitLab', check: 'CI_API_V4_URL', refusal }, async (log) => { await decorationStep('the status', () => setStatus(log)) })
 */
export async function decorating(
  log: Log,
  platform: DecorationPlatform,
  run: (log: Log) => Promise<void>
): Promise<void> {
  const held: Said[] = []
  const holding: Log = {
    info: (message) => log.info(message),
    notice: (message) => log.notice(message),
    startGroup: (name) => log.startGroup(name),
    endGroup: () => log.endGroup(),
    warning: (message) => void held.push(message)
  }
  try {
    await run(holding)
    for (const message of held) log.warning(message)
  } catch (error) {
    for (const message of held) log.info(message)
    log.warning(endOfDecoration(platform, error))
  }
}

/** The one warning for a decoration that ended early. */
function endOfDecoration(platform: DecorationPlatform, error: unknown): Said {
  const step = error instanceof DecorationStepFailure ? error : undefined
  const cause: unknown = step ? step.cause : error
  if (cause instanceof PlatformRefusal) return platform.refusal(cause)
  return joined(
    [
      `${platform.name}: ${step ? step.what : 'the decoration'} failed, and nothing more is decorated; the verdict and the exit code are unchanged.`,
      asSentence(quotedSaidOf(cause)),
      msg`Check ${platform.check}; the next run decorates again.`
    ],
    ' '
  )
}

/** What an error said, ended with a full stop unless it ends with one of its own. */
function asSentence(said: Said): Said {
  return typeof said === 'string' && /[.!?]$/.test(said) ? said : msg`${said}.`
}
