/**
 * The gate's verdict as the messages the step writes beside its summary: the message a failing
 * step fails with (`Quality Gate Failure` and why), and the log's warnings and notices about a
 * gate (analysis warnings, a WARN, NONE or unknown gate, conditions where the rule disagrees).
 */
import { FAIL_ON_ERROR, failsUnder, statusClass, type FailPolicy } from '../fail-policy.js'
import type { GateResult } from '../gate/check.js'
import type { Log } from '../log.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { joined, msg, place, setting, type Said } from '../words.js'
import { analysisWarningText } from './analysis-warning.js'
import { dashboardAddress } from './dashboard-link.js'
import { evidenceUrl } from './evidence-link.js'
import { isKnownStatus, SUMMARY_LIMITS } from './summary.js'
import { describeCondition } from './wording.js'

/**
 * `Quality Gate Failure` and why: for an ERROR gate each failing condition in words (the first
 * 20, then how many more); for a WARN gate that the policy fails on, each warning condition; for
 * NONE, that the project has no gate; for a status no server sends, which it is. The message the
 * step fails with; the log's gate escapes it.
 */
export function gateFailureMessage(result: GateResult): Said {
  const where = result.projectKey ? ` for ${oneLine(result.projectKey, QUOTE_LIMITS.short)}` : ''
  const dashboard = dashboardAddress(result.dashboardUrl, result.serverUrl)
  const link = dashboard ? [`Details: ${dashboard.href}`] : []
  const kind = statusClass(result.status)
  if (kind === 'ERROR' || kind === 'WARN') {
    const { head, lines } = conditionLines(result, kind)
    const why =
      kind === 'WARN' ? msg`the gate is WARN, which ${setting('failingStatuses')} names: ` : ''
    return joined([msg`Quality Gate Failure${where}: ${why}${head}`, ...lines, ...link], '\n')
  }
  const why =
    result.status === 'NONE'
      ? msg`the project has no quality gate (NONE), which ${setting('failingStatuses')} names: assign a quality gate to the project on the server.`
      : msg`the gate's status is "${oneLine(result.status, QUOTE_LIMITS.short)}", which no server sends for a gate; ${setting('failingStatuses')} names NONE, which covers it.`
  return joined([msg`Quality Gate Failure${where}: ${why}`, ...link], '\n')
}

/**
 * The conditions of one status in words, each with its evidence (the first 20, then how many
 * more), after a count: "2 of 5 conditions failed." / "1 of 5 conditions warned."
 */
function conditionLines(
  result: GateResult,
  status: 'ERROR' | 'WARN'
): { head: string; lines: Said[] } {
  const matching = result.conditions.filter(({ condition }) => condition.status === status)
  const listed = matching.slice(0, SUMMARY_LIMITS.failuresListed)
  const lines: Said[] = listed.map((evaluated) => {
    const evidence = evidenceUrl(result, evaluated.condition)
    return `- ${describeCondition(evaluated)}${evidence ? ` (${evidence})` : ''}`
  })
  if (matching.length > listed.length) {
    lines.push(msg`- … and ${matching.length - listed.length} more: see ${place('details')}`)
  }
  const total = result.conditions.length
  if (status === 'WARN' && matching.length === 0) {
    return { head: `none of its ${total} conditions is WARN on the server.`, lines }
  }
  const verb = status === 'ERROR' ? 'failed' : 'warned'
  return { head: `${matching.length} of ${total} conditions ${verb}.`, lines }
}

/**
 * Annotations: task warnings, a WARN, NONE or unknown gate, and conditions where the rule
 * disagrees. Server text is cut here and escaped by the log's gate.
 */
export function annotateGate(
  result: GateResult,
  log: Log,
  policy: FailPolicy = FAIL_ON_ERROR
): void {
  const warnings = result.taskWarnings.slice(0, SUMMARY_LIMITS.warnings)
  for (const warning of warnings) log.warning(`Analysis warning: ${analysisWarningText(warning)}`)
  if (result.taskWarnings.length > warnings.length) {
    log.info(`${result.taskWarnings.length - warnings.length} more analysis warnings not shown.`)
  }

  // A status the step fails on is said by the failure message itself.
  if (!failsUnder(result.status, policy)) annotatePassingStatus(result, log)

  const disagreeing = result.conditions.filter((evaluated) => !evaluated.agreesWithServer)
  for (const evaluated of disagreeing.slice(0, SUMMARY_LIMITS.notices)) {
    log.notice(
      `The server says ${oneLine(evaluated.condition.status, QUOTE_LIMITS.short)} for ${describeCondition(evaluated)}, the rule says ${evaluated.recomputed}: the server's verdict is used.`
    )
  }
  if (disagreeing.length > SUMMARY_LIMITS.notices) {
    log.info(
      `${disagreeing.length - SUMMARY_LIMITS.notices} more conditions where the rule disagrees with the server.`
    )
  }
}

/** The warning of a gate that passed without being OK: WARN (and which conditions), NONE, unknown. */
function annotatePassingStatus(result: GateResult, log: Log): void {
  if (result.status === 'WARN') {
    const { head, lines } = conditionLines(result, 'WARN')
    log.warning(joined([`Quality Gate passed with warnings (WARN): ${head}`, ...lines], '\n'))
  } else if (result.status === 'NONE') {
    log.warning(
      msg`No Quality Gate is set for this project (NONE): the check passes. Assign a quality gate on the server to make it meaningful, or name NONE in ${setting('failingStatuses')} to fail without one.`
    )
  } else if (!isKnownStatus(result.status)) {
    log.warning(
      msg`Unknown Quality Gate status "${oneLine(result.status, QUOTE_LIMITS.short)}": ${setting('failingStatuses')} does not name NONE, so the check passes (quality-gate-status NONE).`
    )
  }
}
