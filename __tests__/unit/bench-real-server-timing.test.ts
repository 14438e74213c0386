import { describe, expect, it } from 'vitest'
import {
  activityEnds,
  figures,
  hasMilliseconds,
  scannerLogMoment,
  serverMoment
} from '../../bench/real-server-timing.js'

describe("a real server's date-times are read to the millisecond they hold", () => {
  it("reads the Web API's form: whole seconds, an offset without a colon", () => {
    expect(serverMoment('2026-11-28T10:40:12+0000')).toBe(Date.UTC(2026, 10, 28, 10, 40, 12))
    expect(serverMoment('2026-11-28T11:40:12+0100')).toBe(Date.UTC(2026, 10, 28, 10, 40, 12))
    expect(serverMoment('2026-11-28T05:10:12-0530')).toBe(Date.UTC(2026, 10, 28, 10, 40, 12))
  })

  it('keeps milliseconds when a value has them, and says whether it has', () => {
    expect(serverMoment('2026-11-28T10:40:12.345+00:00')).toBe(
      Date.UTC(2026, 10, 28, 10, 40, 12, 345)
    )
    expect(serverMoment('2026-11-28T10:40:12.345Z')).toBe(Date.UTC(2026, 10, 28, 10, 40, 12, 345))
    expect(hasMilliseconds('2026-11-28T10:40:12.345+0000')).toBe(true)
    expect(hasMilliseconds('2026-11-28T10:40:12+0000')).toBe(false)
  })

  it('refuses what is not a date-time, quoting it', () => {
    expect(() => serverMoment('yesterday')).toThrow('not a SonarQube date-time: "yesterday"')
    expect(() => serverMoment('2026-11-28 10:40:12')).toThrow('not a SonarQube date-time')
    expect(() => serverMoment('2026-13-45T10:40:12+0000')).toThrow('not a SonarQube date-time')
  })
})

describe("the scanner's verdict is timed by its log line", () => {
  const near = new Date(2026, 10, 28, 10, 40, 13, 0).getTime()
  const log = [
    '10:40:05.120 INFO  Analysis report uploaded in 41ms',
    '10:40:05.121 INFO  Waiting for the analysis report to be processed (max 300s)',
    '10:40:12.407 INFO  QUALITY GATE STATUS: PASSED - View details on http://127.0.0.1:9300/dashboard?id=x',
    '10:40:12.420 INFO  EXECUTION SUCCESS'
  ].join('\n')

  it("gives the local time of day of the first line holding the marker, on the exit's day", () => {
    expect(scannerLogMoment(log, 'QUALITY GATE STATUS', near)).toBe(
      new Date(2026, 10, 28, 10, 40, 12, 407).getTime()
    )
  })

  it('puts a line logged just before midnight on the day before an exit just after it', () => {
    const afterMidnight = new Date(2026, 10, 29, 0, 0, 1, 0).getTime()
    expect(
      scannerLogMoment(
        '23:59:59.950 ERROR QUALITY GATE STATUS: FAILED',
        'QUALITY GATE STATUS',
        afterMidnight
      )
    ).toBe(new Date(2026, 10, 28, 23, 59, 59, 950).getTime())
  })

  it('reads a line the Maven plugin prefixes with its level', () => {
    expect(
      scannerLogMoment('[INFO] 10:40:12.407 QUALITY GATE STATUS: PASSED', 'QUALITY GATE', near)
    ).toBe(new Date(2026, 10, 28, 10, 40, 12, 407).getTime())
  })

  it('gives nothing without the marker, or without a time on its line', () => {
    expect(scannerLogMoment(log, 'QUALITY GATE STATUS: FAILED', near)).toBeUndefined()
    expect(scannerLogMoment('QUALITY GATE STATUS: PASSED', 'QUALITY GATE', near)).toBeUndefined()
  })
})

describe("the compute engine's records of each task's end", () => {
  it("reads H2's shell table: each task's id and its end in epoch milliseconds", () => {
    const output = [
      'UUID                 | EXECUTED_AT',
      'AZK3x9n_1oD8mV2cQk1a | 1795776012407',
      'AZK3xBf01oD8mV2cQk1b | 1795776031877',
      '(2 rows, 4 ms)'
    ].join('\n')
    expect([...activityEnds(output)]).toEqual([
      ['AZK3x9n_1oD8mV2cQk1a', 1795776012407],
      ['AZK3xBf01oD8mV2cQk1b', 1795776031877]
    ])
  })

  it('leaves out rows without an end, and lines that are not rows', () => {
    const output =
      'UUID | EXECUTED_AT\nAZK3 | null\nSQL Exception: x | y | z\nAZK4 | 1795776031877\n'
    expect([...activityEnds(output)]).toEqual([['AZK4', 1795776031877]])
  })
})

describe("one tool's figures over the analyses", () => {
  it('gives the median, the nearest-rank p90, the min and the max', () => {
    const samples = [900, 100, 300, 200, 1000, 400, 500, 600, 700, 800]
    expect(figures(samples)).toEqual({ median: 550, p90: 900, min: 100, max: 1000 })
  })

  it('gives NaN for each without samples', () => {
    expect(figures([])).toEqual({
      median: Number.NaN,
      p90: Number.NaN,
      min: Number.NaN,
      max: Number.NaN
    })
  })
})
