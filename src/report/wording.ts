import type { EvaluatedCondition } from '../gate/evaluate.js'
import type { Condition, NewCodePeriod } from '../sonar/types.js'
import {
  KIND_OF_TYPE,
  KNOWN_METRICS,
  NEW_CODE_PREFIX,
  type Metric,
  type MetricKind
} from '../sonar/metrics.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { lookupTable } from '../lookup-table.js'

/**
 * Words for conditions. Every server value they quote (metric keys, values, comparators,
 * statuses) is one line of at most 200 characters, its control characters shown as escapes: our
 * messages have several lines, and a line break inside a server value must not start one of
 * them. Escaping for the destination is left to its gate (the log's `forTheLog`, the summary's
 * `summaryText`).
 */

/** A server value quoted in our words: one line, at most 200 characters. */
const quoted = (value: string): string => oneLine(value, QUOTE_LIMITS.short)

/**
 * A metric as the words need it: its key, or a condition, which may carry the server's own
 * definition of the metric (read from api/metrics/search for keys the action does not know).
 */
type MetricRef = string | Pick<Condition, 'metricKey' | 'metric'>

/** The metric as a person reads it: `new_coverage` → "Coverage on New Code". */
export function metricName(metric: MetricRef): string {
  return describeMetric(metric).name
}

function describeMetric(ref: MetricRef): Metric {
  const { metricKey, metric: server } =
    typeof ref === 'string' ? { metricKey: ref, metric: undefined } : ref
  const key = quoted(metricKey)
  const known = KNOWN_METRICS[key]
  if (known) return known
  const onNewCode = key.startsWith(NEW_CODE_PREFIX)
  const measured = key.slice(NEW_CODE_PREFIX.length)
  const base = onNewCode ? KNOWN_METRICS[measured] : undefined
  if (base) return { name: `${base.name} on New Code`, kind: base.kind }
  // The server's own name and type, for custom and newer metrics (software quality, MQR...).
  if (server) return { name: quoted(server.name), kind: KIND_OF_TYPE[server.type] ?? 'text' }
  if (onNewCode) return { name: `${humanize(measured)} on New Code`, kind: guessKind(key) }
  return { name: humanize(key), kind: guessKind(key) }
}

function guessKind(key: string): MetricKind {
  if (key.endsWith('_rating')) return 'rating'
  if (key.endsWith('_density') || key.endsWith('_coverage') || key.endsWith('_ratio')) {
    return 'percent'
  }
  return 'count'
}

function humanize(key: string): string {
  const words = key.replace(/_/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const RATING_LETTERS = ['A', 'B', 'C', 'D', 'E']

/** A metric value as a person reads it: rating 3 → "C", 82.5056 → "82.51%". */
export function formatValue(metric: MetricRef, value: string | undefined): string {
  if (value === undefined || value === '') return '–'
  const number = Number(value)
  if (!Number.isFinite(number)) return quoted(value)
  switch (describeMetric(metric).kind) {
    case 'rating':
      return RATING_LETTERS[Math.round(number) - 1] ?? quoted(value)
    case 'percent':
      return `${round(number)}%`
    case 'minutes':
      return formatMinutes(number)
    case 'milliseconds':
      return number >= 1000 ? `${round(number / 1000)} s` : `${round(number)} ms`
    case 'count':
      return String(round(number))
    case 'text':
      return quoted(value)
  }
}

function round(number: number): number {
  return Math.round(number * 100) / 100
}

function formatMinutes(total: number): string {
  const hours = Math.floor(total / 60)
  const rest = Math.round(total % 60)
  return hours > 0 ? `${hours} h ${rest} min` : `${rest} min`
}

/** How a comparator reads for a metric: ratings are worse or better, numbers greater or less. */
export function comparatorWords(metric: MetricRef, comparator: string | undefined): string {
  const isRating = describeMetric(metric).kind === 'rating'
  switch (comparator) {
    case 'GT':
      return isRating ? 'worse than' : 'greater than'
    case 'LT':
      return isRating ? 'better than' : 'less than'
    case 'EQ':
      return 'equal to'
    case 'NE':
      return 'not equal to'
    default:
      return comparator ? quoted(comparator) : 'compared with'
  }
}

/**
 * One condition in words, e.g. "Coverage on New Code is 82.51% (fails when less than 85%)", or,
 * without a threshold, "Open Issues is 17 (ERROR by the server, which sent no threshold)".
 */
export function describeCondition({ condition }: EvaluatedCondition): string {
  const { actualValue, status } = condition
  const subject = `${metricName(condition)} is ${formatValue(condition, actualValue)}`
  const threshold = thresholdWords(condition)
  if (threshold === undefined) {
    return `${subject} (${quoted(status)} by the server, which sent no threshold)`
  }
  return `${subject} (${threshold})`
}

/**
 * The condition's threshold in words: "fails when less than 85%", or, on old servers whose
 * condition only warns, "warns when greater than 3"; undefined when the server sent neither.
 */
export function thresholdWords(
  condition: Pick<
    Condition,
    'metricKey' | 'metric' | 'comparator' | 'errorThreshold' | 'warningThreshold'
  >
): string | undefined {
  const { comparator, errorThreshold, warningThreshold } = condition
  const [verb, threshold] =
    errorThreshold !== undefined ? ['fails', errorThreshold] : ['warns', warningThreshold]
  if (threshold === undefined) return undefined
  return `${verb} when ${comparatorWords(condition, comparator)} ${formatValue(condition, threshold)}`
}

/**
 * What the server counts as new code, in words: `previous_version` → "since the previous
 * version", `days` 30 → "the last 30 days", `reference_branch` main → "compared with branch
 * main"; the date it starts from follows when the server gives it. Old servers write the modes
 * in capitals (PREVIOUS_VERSION, NUMBER_OF_DAYS...).
 *
 * @example newCodeWords({ mode: 'days', parameter: '30', date: undefined }) // 'the last 30 days'
 */
export function newCodeWords(period: NewCodePeriod): string {
  const parameter = period.parameter ? quoted(period.parameter) : undefined
  const words = (() => {
    switch (period.mode.toLowerCase()) {
      case 'previous_version':
        return 'since the previous version'
      case 'days':
      case 'number_of_days':
        return parameter ? `the last ${parameter} days` : 'the last days'
      case 'date':
      case 'specific_date':
        return 'since a date'
      case 'version':
        return parameter ? `since version ${parameter}` : 'since a version'
      case 'reference_branch':
        return parameter ? `compared with branch ${parameter}` : 'compared with a reference branch'
      case 'specific_analysis':
      case 'previous_analysis':
        return 'since an analysis'
      default:
        return quoted(period.mode)
    }
  })()
  return period.date ? `${words} (${quoted(period.date)})` : words
}

const CAYC_WORDS: Readonly<Record<string, string>> = lookupTable({
  compliant: 'compliant',
  'non-compliant': 'not compliant',
  'over-compliant': 'compliant, with conditions beyond it'
})

/** Clean as You Code compliance in words: `non-compliant` → "not compliant". */
export function caycWords(status: string): string {
  return CAYC_WORDS[status] ?? quoted(status)
}
