import {
  FAIL_ON_ERROR,
  FAILING_STATUSES,
  failsUnder,
  statusClass,
  type FailPolicy
} from '../fail-policy.js'
import { codeOf, ServerRequestError, type ErrorCode } from '../errors.js'
import { toQualityGateStatus, type GateResult } from '../gate/check.js'
import type { CodeFigures } from '../gate/what-changed.js'
import { worstStatus, type AnalysisOutcome } from '../gate/outcome.js'
import type { Condition } from '../sonar/types.js'
import type { Finding } from '../findings/finding.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { partsOf, type Fitted, type Parts } from '../fit.js'
import type { Sink } from '../sink.js'
import { dashboardAddress } from './dashboard-link.js'
import { hotspotUrl } from './what-changed-block.js'
import { type Said } from '../words.js'

/** GitHub takes outputs of up to 1 MB: the outputs' sink is built with this limit (UTF-8 bytes). */
export const OUTPUT_BYTES = 1_000_000

/** The outputs of one gate, by their action.yml names, each bounded. */
interface GateOutputs {
  values: {
    status: string
    'quality-gate-status': string
    analysisId: string
    taskId: string
    dashboardUrl: string
    conditions: string
    branch: string
    pullRequest: string
    newIssues: string
  }
  /** How many conditions did not fit in the `conditions` output. */
  conditionsLeftOut: number
}

/** The step's outputs: one gate's, `failedOn` and `results` for every analysis. */
interface StepOutputs extends GateOutputs {
  values: GateOutputs['values'] & { failedOn: string; results: string }
}

/**
 * The step's outputs, through the outputs' sink: with one analysis read, its gate's
 * (`gateOutputs`); with several, `status` and `quality-gate-status` are the worst verdict (ERROR >
 * WARN > NONE > OK) and the single-analysis outputs are empty. `results` lists every analysis.
 *
 * @example for (const [name, value] of Object.entries(analysesOutputs(outcomes, policy, sink).values)) core.setOutput(name, value)
 */
export function analysesOutputs(
  outcomes: readonly AnalysisOutcome[],
  policy: FailPolicy,
  sink: Sink
): StepOutputs {
  const results = resultsOutput(outcomes, { sink, policy })
  const failedOn = failedStatuses(outcomes, policy)
  const [only] = outcomes
  if (outcomes.length === 1 && only?.read) {
    const single = gateOutputs(only.result, sink)
    return { ...single, values: { ...single.values, failedOn, results } }
  }
  const worst = worstStatus(outcomes.flatMap((o) => (o.read ? [o.result.status] : [])))
  return {
    values: {
      status: sink.text(worst),
      'quality-gate-status': toQualityGateStatus(worst),
      analysisId: '',
      taskId: '',
      dashboardUrl: '',
      conditions: '[]',
      branch: '',
      pullRequest: '',
      newIssues: '',
      failedOn,
      results
    },
    conditionsLeftOut: 0
  }
}

/**
 * The `failedOn` output: the statuses of the gates that fail the step under the policy (ERROR,
 * WARN, NONE, each once, comma-separated), whether or not the edge lets the step go on for them;
 * empty when none does.
 *
 * @example failedStatuses(outcomes, new Set(['ERROR', 'WARN'])) // 'WARN'
 */
function failedStatuses(outcomes: readonly AnalysisOutcome[], policy: FailPolicy): string {
  const failing = new Set(
    outcomes.flatMap((outcome) =>
      outcome.read && failsUnder(outcome.result.status, policy)
        ? [statusClass(outcome.result.status)]
        : []
    )
  )
  return FAILING_STATUSES.filter((status) => failing.has(status)).join(',')
}

interface ResultsOptions {
  /** The destination's sink: its limit bounds the JSON (the outputs': OUTPUT_BYTES). */
  sink: Sink
  /** Each analysis whose issues were read also carries them. */
  issues?: boolean
  /** The statuses that fail the step (default ERROR alone). */
  policy?: FailPolicy
}

interface ResultsJson {
  json: string
  /** New issues written, all analyses together (only when asked for them). */
  issuesWritten: number
  /** Issues read but left out by the size bound. */
  issuesOmitted: number
}

/**
 * The `results` output: a JSON array with one object per analysis, in the order they were
 * found: projectKey, source (the report file), status, qualityGateStatus, analysisId, taskId,
 * dashboardUrl and conditions (as in the `conditions` output), or projectKey, source and error
 * for one that could not be read, with the error's code (errorCode) and, when a connection
 * failed, Node's (nodeCode). Within the sink's limit, each analysis getting an equal share for
 * its conditions. Always valid JSON.
 *
 * @example JSON.parse(resultsOutput(outcomes, { sink }))[0].qualityGateStatus // 'PASSED'
 */
export function resultsOutput(
  outcomes: readonly AnalysisOutcome[],
  options: ResultsOptions
): string {
  return resultsJson(outcomes, options).json
}

/**
 * `resultsOutput` with the count of the new issues it holds: with `issues`, each analysis whose
 * issues were read also carries them (`issues`, as many as fit), with `issuesWritten` and
 * `issuesLeftOut` (those the server counts that are not in the file: past what was read, or past
 * the bound). Each analysis is written as its serialised parts (its fields, its conditions' and
 * issues' arrays fitted through the sink), in the order and with the bytes JSON.stringify gives.
 *
 * @example resultsJson(outcomes, { sink, issues: true }).issuesWritten
 */
export function resultsJson(
  outcomes: readonly AnalysisOutcome[],
  options: ResultsOptions
): ResultsJson {
  const { sink, policy = FAIL_ON_ERROR } = options
  const bases = outcomes.map((outcome) => {
    const common = {
      projectKey: outputText((outcome.read ? outcome.result.projectKey : outcome.projectKey) ?? ''),
      source: outputText(outcome.source)
    }
    if (!outcome.read) {
      return sink.text(JSON.stringify({ ...common, ...failureFields(outcome, sink) }))
    }
    const { result } = outcome
    return sink.text(
      JSON.stringify({
        ...common,
        status: outputText(result.status),
        qualityGateStatus: result.qualityGateStatus,
        gateFailed: failsUnder(result.status, policy),
        analysisId: outputText(result.analysisId ?? ''),
        taskId: outputText(result.taskId ?? ''),
        dashboardUrl: dashboardAddress(result.dashboardUrl, result.serverUrl)?.href ?? '',
        ...(result.newIssues?.read ? { newIssues: result.newIssues.total } : {}),
        ...(result.whatChanged ? { whatChanged: whatChangedOutput(result, sink) } : {})
      })
    )
  })
  const frame = sink.size(`[${bases.join(',')}]`) + bases.length * '"conditions":[],'.length
  const share = Math.max(2, Math.floor((sink.limit - frame) / Math.max(1, outcomes.length)))
  const written = outcomes.map(() => 0)
  let issuesRead = 0
  const items = outcomes.map((outcome, index) => {
    const base = bases[index]!
    if (!outcome.read) return base
    const newIssues = options.issues ? outcome.result.newIssues : undefined
    const conditions = conditionsOutput(
      outcome.result.conditions.map(({ condition }) => condition),
      sink,
      newIssues?.read ? Math.floor(share / 4) : share
    )
    // The base object's fields, then its conditions: `{ ...base, conditions }`.
    const open = `${base.slice(0, -1)},"conditions":${conditions.json}`
    if (!newIssues?.read) return `${open}}`
    issuesRead += newIssues.findings.length
    // Counts as wide as they can be, so the room left for the issues is never overstated.
    const widest = `${open},"issuesWritten":9999999,"issuesLeftOut":9999999,"issues":}`
    const issues = issuesOutput(newIssues.findings, sink, share - sink.size(widest))
    written[index] = issues.shown
    const counts = `"issuesWritten":${issues.shown},"issuesLeftOut":${newIssues.total - issues.shown}`
    return `${open},${counts},"issues":${issues.text}}`
  })
  // Each item is bounded; fitting them keeps the limit a guarantee, not a sum to trust.
  const results = sink.fit(items, { head: '[', foot: ']', separator: ',', limit: sink.limit })
  const issuesWritten = written.slice(0, results.shown).reduce((sum, count) => sum + count, 0)
  return { json: results.text, issuesWritten, issuesOmitted: issuesRead - issuesWritten }
}

/**
 * The findings as a JSON array of objects (key, rule, severity, type, file or the server's
 * path, lines, message, url), each string cut, as many as fit in `limit`.
 */
function issuesOutput(findings: readonly Finding[], sink: Sink, limit: number): Fitted {
  const items = partsOf(findings, (finding) =>
    JSON.stringify({
      key: cut(finding.key, QUOTE_LIMITS.short),
      rule: cut(finding.rule, QUOTE_LIMITS.short),
      severity: finding.severity,
      serverSeverity: finding.severityWord,
      type: finding.type,
      file: finding.file,
      serverPath:
        finding.serverPath === undefined ? undefined : cut(finding.serverPath, QUOTE_LIMITS.long),
      startLine: finding.region?.startLine,
      endLine: finding.region?.endLine,
      message: cut(finding.message, QUOTE_LIMITS.long),
      url: finding.url
    })
  )
  return jsonArray(items, sink, limit)
}

/**
 * The outputs of a gate, through the outputs' sink: every value on one line and cut to 1,000
 * characters (`outputText`), the dashboard address only as an http(s) address without
 * credentials, and the conditions as bounded JSON (`conditionsOutput`).
 *
 * @example for (const [name, value] of Object.entries(gateOutputs(result, sink).values)) core.setOutput(name, value)
 */
export function gateOutputs(result: GateResult, sink: Sink): GateOutputs {
  const conditions = conditionsOutput(
    result.conditions.map(({ condition }) => condition),
    sink
  )
  const said = (value: string | undefined) => sink.text(outputText(value ?? ''))
  return {
    values: {
      status: said(result.status),
      'quality-gate-status': result.qualityGateStatus,
      analysisId: said(result.analysisId),
      taskId: said(result.taskId),
      dashboardUrl: sink.text(dashboardAddress(result.dashboardUrl, result.serverUrl)?.href ?? ''),
      conditions: conditions.json,
      branch: said(result.branch),
      pullRequest: said(result.pullRequest),
      newIssues: result.newIssues?.read ? String(result.newIssues.total) : ''
    },
    conditionsLeftOut: conditions.leftOut
  }
}

/**
 * What changed, as the results say it: `newCode` ({coverage, duplicatedLines} in percent, or
 * {error}), for a pull request `target` ({branch, coverage, duplicatedLines}, or {error}),
 * `hotspotsToReview` with the first `hotspots` ({key, message, path, line, probability, url}) or
 * `hotspotsError`, and `acceptedIssues` and `fixedIssues` where the server counts them. Bounded:
 * five hotspots at most, every string cut.
 */
function whatChangedOutput(result: GateResult, sink: Sink): Record<string, unknown> {
  const { newCode, target, hotspots, issues } = result.whatChanged!
  const error = (unread: Said) => outputText(sink.text(unread))
  const figures = (read: CodeFigures | { unread: Said }) =>
    'unread' in read
      ? { error: error(read.unread) }
      : { coverage: read.coverage, duplicatedLines: read.duplication }
  return {
    newCode: figures(newCode),
    ...(target
      ? {
          target:
            'unread' in target
              ? { error: error(target.unread) }
              : { branch: outputText(target.branch), ...figures(target.figures) }
        }
      : {}),
    ...('unread' in hotspots
      ? { hotspotsError: error(hotspots.unread) }
      : {
          hotspotsToReview: hotspots.total,
          hotspots: hotspots.hotspots.map((hotspot) => ({
            key: cut(hotspot.key, QUOTE_LIMITS.short),
            message: cut(hotspot.message, QUOTE_LIMITS.long),
            path: hotspot.path === undefined ? undefined : cut(hotspot.path, QUOTE_LIMITS.long),
            line: hotspot.line,
            probability: hotspot.probability,
            url: hotspotUrl(hotspot.key, result)
          }))
        }),
    ...(issues?.accepted === undefined ? {} : { acceptedIssues: issues.accepted }),
    ...(issues?.fixed === undefined ? {} : { fixedIssues: issues.fixed })
  }
}

/** A server value as an output: one line (control characters as escapes), at most 1,000 characters. */
function outputText(value: string): string {
  return oneLine(value, QUOTE_LIMITS.long)
}

/**
 * Why an analysis could not be read: the message, the error's code (ERR_SERVER_REQUEST,
 * ERR_TIMEOUT…) and, when a connection failed, Node's code (ECONNREFUSED, CERT_HAS_EXPIRED…).
 */
function failureFields(
  outcome: Extract<AnalysisOutcome, { read: false }>,
  sink: Sink
): { error: string; errorCode: ErrorCode; nodeCode?: string } {
  const { error } = outcome
  const nodeCode = error instanceof ServerRequestError ? error.nodeCode : undefined
  return {
    error: outputText(sink.text(outcome.message)),
    errorCode: codeOf(error),
    ...(nodeCode ? { nodeCode: outputText(nodeCode) } : {})
  }
}

/**
 * The `conditions` output: a JSON array of the decoded conditions with the server's key names
 * (status, metricKey, comparator, errorThreshold, warningThreshold, actualValue, periodIndex;
 * undefined ones omitted), each string cut to 200 characters, and as many conditions, in the
 * server's order, as fit in `limit` (the sink's by default). Always valid JSON.
 *
 * @example conditionsOutput(conditions, sink).json // '[{"status":"ERROR","metricKey":"new_coverage",…}]'
 */
export function conditionsOutput(
  conditions: readonly Condition[],
  sink: Sink,
  limit: number = sink.limit
): { json: string; leftOut: number } {
  // Each condition is serialised only when fitting reaches it.
  const items = partsOf(conditions, (condition) => JSON.stringify(boundedCondition(condition)))
  const { text, leftOut } = jsonArray(items, sink, limit)
  return { json: text, leftOut }
}

/** Serialised items as a JSON array through the sink: as many as fit, the brackets always. */
function jsonArray(items: Parts, sink: Sink, limit: number): Fitted {
  return sink.fit(items, { head: '[', foot: ']', separator: ',', limit: Math.max(2, limit) })
}

/** The condition with each string cut; JSON.stringify leaves the undefined ones out. */
function boundedCondition(
  condition: Condition
): Record<Exclude<keyof Condition, 'metric'>, string | number | undefined> {
  const bounded = (value: string | undefined) =>
    value === undefined ? undefined : cut(value, QUOTE_LIMITS.short)
  return {
    status: bounded(condition.status),
    metricKey: bounded(condition.metricKey),
    comparator: bounded(condition.comparator),
    errorThreshold: bounded(condition.errorThreshold),
    warningThreshold: bounded(condition.warningThreshold),
    actualValue: bounded(condition.actualValue),
    periodIndex: condition.periodIndex
  }
}
