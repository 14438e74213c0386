import type { GateResult } from '../gate/check.js'
import type { Condition } from '../sonar/types.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { dashboardAddress } from './dashboard-link.js'

/** GitHub takes outputs of up to 1 MB: each output stays within this many UTF-8 bytes. */
export const OUTPUT_BYTES = 1_000_000

/** The action's outputs, by their action.yml names, each bounded. */
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
  }
  /** How many conditions did not fit in the `conditions` output. */
  conditionsLeftOut: number
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
      pullRequest: outputText(result.pullRequest ?? '')
    },
    conditionsLeftOut: conditions.leftOut
  }
}

/** A server value as an output: one line (control characters as escapes), at most 1,000 characters. */
export function outputText(value: string): string {
  return oneLine(value, QUOTE_LIMITS.long)
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
