/**
 * A branch's or pull request's measures (`GET api/measures/component`, Browse): the figures of
 * what changed in a verdict (coverage and duplication, on new code and overall). Checked against
 * the server's sources (measure/ws/ComponentAction.java and MeasureDtoToWsMeasure.java): a
 * measure on new code (`new_*`) never has a top-level `value`; 8.1 to 9.9 give it as
 * `periods: [{index, value}]` (deprecated since 8.1) and as `period: {index, value}`, 10.0 and
 * later as `period` alone; any other measure has `value` (older servers add its variation over the
 * new code period in `period`, which is not its value).
 */
import { isObject, UnexpectedShape, type Json } from './types.js'

/** The measures read: each a number the server writes as text. */
export type MeasureValues = ReadonlyMap<string, number>

/** How many measures a reply may hold: far more than are ever asked for. */
const MAX_MEASURES = 100

/** A metric key as the server writes them. */
const METRIC_KEY = /^[a-z][a-z0-9_]{0,99}$/

/**
 * A number as the server writes a measure: `81.2`, `0`, `-3.5`, and a double as Java writes it,
 * with every digit (`82.50562381034781`) or, below 0.001, in its exponent form (`1.0E-4`).
 */
const DECIMAL = /^-?\d{1,15}(\.\d{1,20})?(E-?\d{1,3})?$/

/**
 * Decodes `GET api/measures/component`: `{component: {measures: [{metric, value | period |
 * periods}]}}` as the numbers it holds, by metric key, from every generation's shape. A measure
 * whose key or value is not one the server writes is left out (a metric with no value yet, say);
 * a reply without `component.measures` is not the server's.
 *
 * @example decodeMeasureValues({ component: { measures: [{ metric: 'new_coverage', period: { index: 1, value: '81.2' } }] } }) // Map { 'new_coverage' => 81.2 }
 */
export function decodeMeasureValues(body: unknown): MeasureValues {
  const component = isObject(body) ? body['component'] : undefined
  const measures = isObject(component) ? component['measures'] : undefined
  if (!Array.isArray(measures)) {
    throw new UnexpectedShape('expected {"component": {"measures": [...]}}')
  }
  const values = new Map<string, number>()
  for (const measure of measures.slice(0, MAX_MEASURES)) {
    if (!isObject(measure)) continue
    const metric = measure['metric']
    if (typeof metric !== 'string' || !METRIC_KEY.test(metric)) continue
    const value = valueOf(measure)
    if (value !== undefined) values.set(metric, value)
  }
  return values
}

/**
 * A measure's number: its own `value`; a measure on new code has none, and its number is its
 * `period`'s, else its first `periods`'.
 */
function valueOf(measure: Json): number | undefined {
  const period = measure['period']
  const periods = measure['periods']
  const first = Array.isArray(periods) ? (periods[0] as unknown) : undefined
  const text = [
    measure['value'],
    isObject(period) ? period['value'] : undefined,
    isObject(first) ? first['value'] : undefined
  ].find((value) => typeof value === 'string' && DECIMAL.test(value))
  const value = typeof text === 'string' ? Number(text) : undefined
  return value !== undefined && Number.isFinite(value) ? value : undefined
}
