import { FAIL_ON_ERROR, failsUnder, statusClass, type FailPolicy } from '../fail-policy.js'
import type { GateResult } from '../gate/check.js'
import type { EvaluatedCondition } from '../gate/evaluate.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import { dashboardAddress } from '../report/dashboard-link.js'
import { evidenceUrl } from '../report/evidence-link.js'
import { gateFailureMessage } from '../report/gate-messages.js'
import { headline, SUMMARY_LIMITS } from '../report/summary.js'
import { describeCondition, metricName } from '../report/wording.js'
import type { Sink } from '../sink.js'
import { firstLine, joined, msg, type Said } from '../words.js'
import { cut, oneLine, QUOTE_LIMITS, showInvisible } from '../untrusted-text.js'

/** What the report says besides the outcomes (when and where the check ran), and its sink. */
export interface JunitContext {
  /** The report's sink: every text goes through it (the edge's words, no secret). */
  sink: Sink
  startedAt: Date
  /** The machine it ran on ('localhost' when unknown). */
  hostname: string
  /** How long the whole check took, for an analysis that could not be read. */
  elapsedMs: number
  /** The statuses that fail the step (default ERROR alone). */
  policy?: FailPolicy
}

/** The testcase of a gate as a whole, and of an analysis that could not be read. */
const GATE_CASE = 'Quality Gate'

/**
 * The outcomes as a JUnit XML report, in the form of Ant's JUnit schema that Jenkins' `junit`,
 * GitLab's `artifacts:reports:junit` and Azure's `PublishTestResults` read:
 * - one `<testsuite>` per analysis, named for its project (else its report file), with the
 *   gate's status, analysis, task, branch and dashboard as `<properties>`;
 * - one `<testcase>` per condition, named for its metric (`Coverage on New Code (new_coverage)`,
 *   the same from run to run, so a CI's test history follows it), classname the project; a
 *   `<failure type="ERROR">` for each condition the server says is ERROR, in words;
 * - a `Quality Gate` testcase when the conditions alone would not show the verdict (no
 *   conditions, or an ERROR gate without an ERROR condition), failing for ERROR;
 * - for an analysis that could not be read, one failing `Quality Gate` testcase with why.
 *
 * Failing conditions come first; past 100 conditions the rest are counted in `<system-out>`.
 * Every text goes through the sink (the edge's words, every secret removed), then is shown as
 * one visible line where XML needs one, stripped of what XML 1.0 forbids, and escaped: nothing
 * the server sends becomes markup.
 *
 * @example await writeFile('gate.xml', renderJunit(outcomes, { sink, startedAt, hostname: os.hostname(), elapsedMs }))
 */
export function renderJunit(outcomes: readonly AnalysisOutcome[], context: JunitContext): string {
  const suites = outcomes.map((outcome, index) => suite(outcome, index, context))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    ...suites.flat().map((line) => `  ${line}`),
    '</testsuites>',
    ''
  ].join('\n')
}

interface Case {
  name: string
  failure?: { type: string; message: Said; text: Said }
}

function suite(outcome: AnalysisOutcome, id: number, context: JunitContext): string[] {
  const name = token(projectName(outcome), context) || 'analysis'
  const { cases, properties, out, elapsedMs } = outcome.read
    ? gateSuite(outcome.result, outcome.source, context.policy ?? FAIL_ON_ERROR)
    : {
        cases: [
          {
            name: GATE_CASE,
            failure: {
              type: 'code' in outcome.error ? String(outcome.error.code) : outcome.error.name,
              message: firstLine(outcome.message),
              text: outcome.message
            }
          }
        ],
        properties: { projectKey: outcome.projectKey, source: outcome.source },
        out: msg`The gate could not be read: ${outcome.message}`,
        elapsedMs: context.elapsedMs
      }
  const failures = cases.filter((each) => each.failure).length
  const head = attributes({
    name,
    package: name,
    id: String(id),
    tests: String(cases.length),
    failures: String(failures),
    errors: '0',
    skipped: '0',
    time: seconds(elapsedMs),
    timestamp: context.startedAt.toISOString().slice(0, 19),
    hostname: token(context.hostname, context) || 'localhost'
  })
  const props = Object.entries(properties).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''
  )
  return [
    `<testsuite${head}>`,
    '  <properties>',
    ...props.map(
      ([key, value]) => `    <property${attributes({ name: key, value: line(value, context) })}/>`
    ),
    '  </properties>',
    ...cases.flatMap((each) => testcase(each, name, context).map((text) => `  ${text}`)),
    `  <system-out>${text(out, context)}</system-out>`,
    '  <system-err></system-err>',
    '</testsuite>'
  ]
}

function gateSuite(result: GateResult, source: string, policy: FailPolicy) {
  // A WARN condition fails too when the policy fails a WARN gate.
  const isFailing = ({ condition }: EvaluatedCondition): boolean =>
    condition.status === 'ERROR' || (condition.status === 'WARN' && policy.has('WARN'))
  const ordered = [...result.conditions].sort((a, b) => Number(isFailing(b)) - Number(isFailing(a)))
  const shown = ordered.slice(0, SUMMARY_LIMITS.rows)
  const names = new Map<string, number>()
  const cases: Case[] = shown.map((evaluated) => {
    const base = conditionName(evaluated)
    const seen = (names.get(base) ?? 0) + 1
    names.set(base, seen)
    const words = describeCondition(evaluated)
    const failure = isFailing(evaluated)
      ? {
          type: evaluated.condition.status,
          message: words,
          text: failureText(words, evaluated, result)
        }
      : undefined
    return { name: seen > 1 ? `${base} #${seen}` : base, failure }
  })
  const failed = failsUnder(result.status, policy)
  const showsVerdict = result.conditions.length > 0 && (!failed || ordered.some(isFailing))
  if (!showsVerdict) {
    cases.unshift({ name: GATE_CASE, failure: failed ? gateFailure(result) : undefined })
  }
  const dashboard = dashboardAddress(result.dashboardUrl, result.serverUrl)?.href
  const more = result.conditions.length - shown.length
  const out = joined(
    [
      failed
        ? gateFailureMessage(result)
        : joined(
            [
              msg`${headline(result.status, policy)} (${oneLine(result.status)})`,
              ...(dashboard ? [`Details: ${dashboard}`] : [])
            ],
            '\n'
          ),
      ...(more > 0 ? [`… and ${more} more conditions: see the dashboard.`] : [])
    ],
    '\n'
  )
  return {
    cases,
    properties: {
      projectKey: result.projectKey,
      source,
      status: result.status,
      qualityGateStatus: result.qualityGateStatus,
      analysisId: result.analysisId,
      taskId: result.taskId,
      branch: result.branch,
      pullRequest: result.pullRequest,
      dashboardUrl: dashboard
    },
    out,
    elapsedMs: result.elapsedMs
  }
}

/** The gate's failure, when its conditions alone do not show it. */
function gateFailure(result: GateResult): Case['failure'] {
  const message = gateFailureMessage(result)
  return { type: statusClass(result.status), message: firstLine(message), text: message }
}

/** "Coverage on New Code (new_coverage)"; the key alone when the metric has no other name. */
function conditionName(evaluated: EvaluatedCondition): string {
  const name = metricName(evaluated.condition)
  const key = oneLine(evaluated.condition.metricKey)
  return name === key ? key : `${name} (${key})`
}

/** The condition in words, then its own evidence on the server (else the dashboard). */
function failureText(words: string, evaluated: EvaluatedCondition, result: GateResult): string {
  const details =
    evidenceUrl(result, evaluated.condition) ??
    dashboardAddress(result.dashboardUrl, result.serverUrl)?.href
  return details ? `${words}\nDetails: ${details}` : words
}

function testcase(each: Case, classname: string, context: JunitContext): string[] {
  const head = attributes({ name: token(each.name, context), classname, time: '0' })
  if (!each.failure) return [`<testcase${head}/>`]
  const { type, message } = each.failure
  const failure = attributes({ type: line(type, context), message: line(message, context) })
  return [
    `<testcase${head}>`,
    `  <failure${failure}>${text(each.failure.text, context)}</failure>`,
    '</testcase>'
  ]
}

/** Seconds with milliseconds, as xs:decimal: "2.345". */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3)
}

/**
 * Characters XML 1.0 does not allow at all (not even as references): what `showInvisible` has
 * not already shown as an escape — lone surrogates, U+FFFE and U+FFFF.
 */
const NOT_XML =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g

/** A name or a value on one line: through the sink, cut, invisible characters shown, legal XML. */
function line(value: Said, { sink }: JunitContext, limit: number = QUOTE_LIMITS.long): string {
  return oneLine(sink.text(value), limit).replace(NOT_XML, '')
}

/** An xs:token (names): one line, white space collapsed, at most 200 characters. */
function token(value: Said, context: JunitContext): string {
  return line(value, context, QUOTE_LIMITS.short).replace(/\s+/g, ' ').trim()
}

/** Element text: line feeds kept, each line made visible, the whole cut, legal, escaped. */
function text(value: Said, { sink }: JunitContext): string {
  const said = cut(sink.text(value), SUMMARY_LIMITS.messageChars)
  const visible = said
    .split('\n')
    .map((each) => each.split('\t').map(showInvisible).join('\t'))
    .join('\n')
  return escapeXml(visible.replace(NOT_XML, ''))
}

/** ` name="value"` for each, values escaped for an attribute. */
function attributes(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('')
}

/** `& < > " '` as references: the text stays text, in an element or a quoted attribute. */
export function escapeXml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]!
  )
}
