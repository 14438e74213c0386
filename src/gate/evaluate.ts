import type { Condition } from '../sonar/types.js'

/** One condition with the spec's own verdict beside the server's. */
export interface EvaluatedCondition {
  condition: Condition
  /** ERROR or OK by the spec's rule; undefined when it cannot be applied (no threshold...). */
  recomputed: 'ERROR' | 'OK' | undefined
  /** false when the spec's rule and the server disagree on ERROR; the server is trusted. */
  agreesWithServer: boolean
}

/**
 * The spec's rule: a condition is ERROR when `actualValue` compares to `errorThreshold` in the
 * comparator's direction (GT: greater, LT: less; EQ and NE from old servers: equal, not equal).
 * Returns undefined when the rule cannot be applied: no threshold, no value, an unknown
 * comparator, or GT/LT on values that are not numbers.
 *
 * @example isConditionBreached({ comparator: 'LT', errorThreshold: '80', actualValue: '75.5', ... }) // true
 */
export function isConditionBreached(condition: Condition): boolean | undefined {
  const { comparator, errorThreshold, actualValue } = condition
  if (errorThreshold === undefined || actualValue === undefined) return undefined
  const actual = toNumber(actualValue)
  const threshold = toNumber(errorThreshold)
  const numeric = actual !== undefined && threshold !== undefined
  switch (comparator) {
    case 'GT':
      return numeric ? actual > threshold : undefined
    case 'LT':
      return numeric ? actual < threshold : undefined
    case 'EQ':
      return numeric ? actual === threshold : actualValue === errorThreshold
    case 'NE':
      return numeric ? actual !== threshold : actualValue !== errorThreshold
    default:
      return undefined
  }
}

/** Applies the rule to every condition and marks where it disagrees with the server. */
export function evaluateConditions(conditions: readonly Condition[]): EvaluatedCondition[] {
  return conditions.map((condition) => {
    const breached = isConditionBreached(condition)
    const recomputed = breached === undefined ? undefined : breached ? 'ERROR' : 'OK'
    return {
      condition,
      recomputed,
      agreesWithServer:
        recomputed === undefined || (recomputed === 'ERROR') === (condition.status === 'ERROR')
    }
  })
}

function toNumber(value: string): number | undefined {
  if (value.trim() === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? number : undefined
}
