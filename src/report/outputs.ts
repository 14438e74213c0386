import {
  FAIL_ON_ERROR,
  FAILING_STATUSES,
  failsUnder,
  statusClass,
  type FailPolicy
} from '../fail-policy.js'
import { codeOf, ServerRequestError, type ErrorCode } from '../errors.js'
import { toQualityGateStatus, type GateResult } from '../gate/check.js'
import { worstStatus, type AnalysisOutcome } from '../gate/outcome.js'
import type { Condition } from '../sonar/types.js'
import type { Finding } from '../findings/finding.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { dashboardAddress } from './dashboard-link.js'

/** GitHub takes outputs of up to 1 MB: each output stays within this many UTF-8 bytes. */
export const OUTPUT_BYTES = 1_000_000

/** The outputs of one gate, by their action.yml names, each bounded. */
export interface GateOutputs {
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
export interface StepOutputs {
  values: GateOutputs['values'] & { failedOn: string; results: string }
  conditionsLeftOut: number
}

/**
 * The outputs of the step: with one analysis read, its gate's (`gateOutputs`); with several,
 * `status` and `quality-gate-status` are the worst verdict (ERROR > WARN > NONE > OK) and the
 * single-analysis outputs are empty. `results` always lists every analysis (`resultsOutput`).
 *
 * @example for (const [name, value] of Object.entries(analysesOutputs(outcomes).values)) core.setOutput(name, value)
 */
export function analysesOutputs(
  outcomes: readonly AnalysisOutcome[],
  failOn: FailPolicy = FAIL_ON_ERROR
): StepOutputs {
  const results = resultsOutput(outcomes, OUTPUT_BYTES, { failOn })
  const failedOn = failedStatuses(outcomes, failOn)
  const [only] = outcomes
  if (outcomes.length === 1 && only?.read) {
    const single = gateOutputs(only.result)
    return { ...single, values: { ...single.values, failedOn, results } }
  }
  const worst = worstStatus(outcomes.flatMap((o) => (o.read ? [o.result.status] : [])))
  return {
    values: {
      status: worst,
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
 * WARN, NONE, each once, comma-separated), whether or not failOnError lets the step go on;
 * empty when none does.
 *
 * @example failedStatuses(outcomes, new Set(['ERROR', 'WARN'])) // 'WARN'
 */
export function failedStatuses(outcomes: readonly AnalysisOutcome[], failOn: FailPolicy): string {
  const failing = new Set(
    outcomes.flatMap((outcome) =>
      outcome.read && failsUnder(outcome.result.status, failOn)
        ? [statusClass(outcome.result.status)]
        : []
    )
  )
  return FAILING_STATUSES.filter((status) => failing.has(status)).join(',')
}

/** The results as JSON, with how many new issues it holds and how many did not fit. */
export interface ResultsJson {
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
 * failed, Node's (nodeCode). Within `maxBytes`: each analysis gets an equal share for its
 * conditions. Always valid JSON.
 *
 * @example JSON.parse(resultsOutput(outcomes))[0].qualityGateStatus // 'PASSED'
 */
export function resultsOutput(
  outcomes: readonly AnalysisOutcome[],
  maxBytes: number = OUTPUT_BYTES,
  options: { issues?: boolean; failOn?: FailPolicy } = {}
): string {
  return resultsJson(outcomes, maxBytes, options).json
}

/**
 * `resultsOutput` with the count of the new issues it holds: with `issues`, each analysis whose
 * issues were read also carries them (`issues`, as many as fit), with `issuesWritten` and
 * `issuesLeftOut` (those the server counts that are not in the file: past what was read, or past
 * the bound).
 */
export function resultsJson(
  outcomes: readonly AnalysisOutcome[],
  maxBytes: number = OUTPUT_BYTES,
  options: { issues?: boolean; failOn?: FailPolicy } = {}
): ResultsJson {
  const { failOn = FAIL_ON_ERROR } = options
  let issuesWritten = 0
  let issuesOmitted = 0
  const bases = outcomes.map((outcome) => {
    const common = {
      projectKey: outputText((outcome.read ? outcome.result.projectKey : outcome.projectKey) ?? ''),
      source: outputText(outcome.source)
    }
    if (!outcome.read) return { ...common, ...failureFields(outcome) }
    const { result } = outcome
    return {
      ...common,
      status: outputText(result.status),
      qualityGateStatus: result.qualityGateStatus,
      gateFailed: failsUnder(result.status, failOn),
      analysisId: outputText(result.analysisId),
      taskId: outputText(result.taskId ?? ''),
      dashboardUrl: dashboardAddress(result.dashboardUrl, result.serverUrl)?.href ?? '',
      ...(result.newIssues?.read ? { newIssues: result.newIssues.total } : {})
    }
  })
  const frame = Buffer.byteLength(JSON.stringify(bases)) + bases.length * '"conditions":[],'.length
  const share = Math.max(2, Math.floor((maxBytes - frame) / Math.max(1, outcomes.length)))
  const items = outcomes.map((outcome, index) => {
    const base = bases[index]!
    if (!outcome.read) return base
    const newIssues = options.issues ? outcome.result.newIssues : undefined
    const withIssues = newIssues?.read === true
    const { json } = conditionsOutput(
      outcome.result.conditions.map(({ condition }) => condition),
      withIssues ? Math.floor(share / 4) : share
    )
    const conditions = JSON.parse(json) as unknown[]
    if (!newIssues?.read) return { ...base, conditions }
    // Counts as wide as they can be, so the room left for the issues is never overstated.
    const counts = { issuesWritten: 9_999_999, issuesLeftOut: 9_999_999 }
    const used = Buffer.byteLength(JSON.stringify({ ...base, conditions, ...counts }))
    const issues = issuesOutput(newIssues.findings, share - used)
    issuesWritten += issues.length
    issuesOmitted += newIssues.findings.length - issues.length
    const leftOut = newIssues.total - issues.length
    return { ...base, conditions, issuesWritten: issues.length, issuesLeftOut: leftOut, issues }
  })
  return { json: JSON.stringify(items), issuesWritten, issuesOmitted }
}

/**
 * The findings as JSON objects (key, rule, severity, type, file or the server's path, lines,
 * message, url), each string cut, as many as fit in `maxBytes`.
 */
function issuesOutput(findings: readonly Finding[], maxBytes: number): unknown[] {
  const items: unknown[] = []
  let bytes = 2
  for (const finding of findings) {
    const item = {
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
    }
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1
    if (bytes > maxBytes) break
    items.push(item)
  }
  return items
}

/**
 * The outputs of a gate: every value on one line and cut to 1,000 characters (`outputText`),
 * the dashboard address only as an http(s) address without credentials, and the conditions as
 * bounded JSON (`conditionsOutput`).
 *
 * @example for (const [name, value] of Object.entries(gateOutputs(result).values)) core.setOutput(name, value)
 */
export function gateOutputs(result: GateResult): GateOutputs {
  const conditions = conditionsOutput(result.conditions.map(({ condition }) => condition))
  return {
    values: {
      status: outputText(result.status),
      'quality-gate-status': result.qualityGateStatus,
      analysisId: outputText(result.analysisId),
      taskId: outputText(result.taskId ?? ''),
      dashboardUrl: dashboardAddress(result.dashboardUrl, result.serverUrl)?.href ?? '',
      conditions: conditions.json,
      branch: outputText(result.branch ?? ''),
      pullRequest: outputText(result.pullRequest ?? ''),
      newIssues: newIssuesCount(result)
    },
    conditionsLeftOut: conditions.leftOut
  }
}

/** The count of new issues, or '' when they were not read. */
function newIssuesCount(result: GateResult): string {
  return result.newIssues?.read ? String(result.newIssues.total) : ''
}

/** A server value as an output: one line (control characters as escapes), at most 1,000 characters. */
export function outputText(value: string): string {
  return oneLine(value, QUOTE_LIMITS.long)
}

/**
 * Why an analysis could not be read: the message, the error's code (ERR_SERVER_REQUEST,
 * ERR_TIMEOUT…) and, when a connection failed, Node's code (ECONNREFUSED, CERT_HAS_EXPIRED…).
 */
function failureFields(outcome: Extract<AnalysisOutcome, { read: false }>): {
  error: string
  errorCode: ErrorCode
  nodeCode?: string
} {
  const { error } = outcome
  const nodeCode = error instanceof ServerRequestError ? error.nodeCode : undefined
  return {
    error: outputText(outcome.message),
    errorCode: codeOf(error),
    ...(nodeCode ? { nodeCode: outputText(nodeCode) } : {})
  }
}

/**
 * The `conditions` output: a JSON array of the decoded conditions with the server's key names
 * (status, metricKey, comparator, errorThreshold, warningThreshold, actualValue, periodIndex;
 * undefined ones omitted), each string cut to 200 characters, and as many conditions, in the
 * server's order, as fit in `maxBytes`. Always valid JSON.
 *
 * @example conditionsOutput(conditions).json // '[{"status":"ERROR","metricKey":"new_coverage",…}]'
 */
export function conditionsOutput(
  conditions: readonly Condition[],
  maxBytes: number = OUTPUT_BYTES
): { json: string; leftOut: number } {
  const items: string[] = []
  let bytes = '[]'.length
  for (const condition of conditions) {
    const item = JSON.stringify(boundedCondition(condition))
    const more = Buffer.byteLength(item) + (items.length > 0 ? 1 : 0)
    if (bytes + more > maxBytes) break
    items.push(item)
    bytes += more
  }
  return { json: `[${items.join(',')}]`, leftOut: conditions.length - items.length }
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
