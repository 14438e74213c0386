/**
 * The real-server latency bench's readings: when a real server says its task ended, when the
 * scanner logged its gate's verdict, and the figures of one tool over the analyses.
 */
import { max, median, quantile } from './stats.js'

/**
 * Epoch milliseconds of a date-time as SonarQube's Web API writes it,
 * `2026-11-28T10:40:12+0000` (whole seconds, offset without a colon), or with milliseconds
 * (`…12.345+0000`) or an ISO offset (`+00:00`, `Z`). Throws, quoting the value, on anything else.
 *
 * @example serverMoment('2026-11-28T10:40:12+0000') // Date.UTC(2026, 10, 28, 10, 40, 12)
 */
export function serverMoment(value: string): number {
  const parts = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/.exec(
    value
  )
  if (!parts) throw new Error(`not a SonarQube date-time: "${value.slice(0, 60)}"`)
  const [, dateTime, fraction = '', zone = 'Z'] = parts
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const moment = Date.parse(`${dateTime}${fraction}${offset}`)
  if (Number.isNaN(moment)) throw new Error(`not a SonarQube date-time: "${value.slice(0, 60)}"`)
  return moment
}

/** Whether a date-time of the Web API holds milliseconds, or whole seconds only. */
export function hasMilliseconds(value: string): boolean {
  return /T\d{2}:\d{2}:\d{2}\.\d{3}/.test(value)
}

/**
 * The moment the scanner logged a line holding `marker` (e.g. `QUALITY GATE STATUS`), in epoch
 * milliseconds: its log lines start with the local time of day, `10:40:12.345 INFO  …`; the day
 * is the one, of the day before, that day and the day after `near` (a moment close to it, such as
 * the scanner's exit), that puts it closest to `near`. Undefined when no line holds it with a
 * time.
 *
 * @example scannerLogMoment('10:40:12.345 INFO  QUALITY GATE STATUS: PASSED', 'QUALITY GATE STATUS', exitedAt)
 */
export function scannerLogMoment(output: string, marker: string, near: number): number | undefined {
  for (const line of output.split(/\r?\n/)) {
    if (!line.includes(marker)) continue
    const time = /^(?:\[[^\]]*\]\s*)?(\d{2}):(\d{2}):(\d{2})\.(\d{3})\s/.exec(line)
    if (!time) continue
    const [hours, minutes, seconds, millis] = time.slice(1).map(Number) as [
      number,
      number,
      number,
      number
    ]
    const candidates = [-1, 0, 1].map((days) => {
      const day = new Date(near)
      day.setDate(day.getDate() + days)
      day.setHours(hours, minutes, seconds, millis)
      return day.getTime()
    })
    return candidates.reduce((best, candidate) =>
      Math.abs(candidate - near) < Math.abs(best - near) ? candidate : best
    )
  }
  return undefined
}

/**
 * The rows of H2's `org.h2.tools.Shell` answering `SELECT UUID, EXECUTED_AT FROM CE_ACTIVITY`:
 * each task's id and the epoch milliseconds the compute engine recorded as its end (the column
 * the Web API's `executedAt` is written from, to the second). The header, the row count and
 * any row without both are left out.
 */
export function activityEnds(shellOutput: string): Map<string, number> {
  const ends = new Map<string, number>()
  for (const line of shellOutput.split(/\r?\n/)) {
    const cells = line.split('|').map((cell) => cell.trim())
    if (cells.length !== 2) continue
    const [uuid = '', executedAt = ''] = cells
    if (/^[\w-]{1,64}$/.test(uuid) && /^\d{10,16}$/.test(executedAt))
      ends.set(uuid, Number(executedAt))
  }
  return ends
}

/** One tool's figures over the analyses. */
export interface Figures {
  median: number
  p90: number
  min: number
  max: number
}

/** Median, p90 (nearest rank), min and max; NaN each without samples. */
export function figures(samples: readonly number[]): Figures {
  return {
    median: median(samples),
    p90: quantile(samples, 0.9),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: max(samples)
  }
}
