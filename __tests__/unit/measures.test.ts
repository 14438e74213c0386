/**
 * A branch's or pull request's measures as every server generation writes them: a measure on new
 * code (`new_*`) in `periods` and `period` (8.1 to 9.9), in `period` alone (10.0 and later), any
 * other in `value`; read through the client from the server's own example's shape.
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { syncBuiltinESMExports } from 'node:module'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { rejectionInWords } from '../../__fixtures__/sinks.js'
import { SonarClient } from '../../src/sonar/client.js'
import { decodeMeasureValues } from '../../src/sonar/measures.js'

const SERVER = 'https://sonar.example.com'
const server = setupServer()
beforeAll(() => {
  syncBuiltinESMExports()
  server.listen({ onUnhandledRequest: 'error' })
})
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reply = (measures: unknown[]) => ({
  component: { key: 'shop', name: 'Shop', qualifier: 'TRK', measures }
})

describe('decodeMeasureValues: each generation’s shape', () => {
  it('9.9 (and 8.x since 8.1): a new-code measure in periods and period, another in value', () => {
    const values = decodeMeasureValues(
      reply([
        {
          metric: 'new_coverage',
          periods: [{ index: 1, value: '81.2', bestValue: false }],
          period: { index: 1, value: '81.2', bestValue: false }
        },
        { metric: 'coverage', value: '74.0' }
      ])
    )
    expect([...values]).toEqual([
      ['new_coverage', 81.2],
      ['coverage', 74]
    ])
  })

  it('10.0 and later: period alone; before 8.1: periods alone', () => {
    expect([
      ...decodeMeasureValues(
        reply([{ metric: 'new_duplicated_lines_density', period: { index: 1, value: '3.4' } }])
      )
    ]).toEqual([['new_duplicated_lines_density', 3.4]])
    expect([
      ...decodeMeasureValues(
        reply([{ metric: 'new_duplicated_lines_density', periods: [{ index: 1, value: '0.0' }] }])
      )
    ]).toEqual([['new_duplicated_lines_density', 0]])
  })

  it("an older example's measure with a value and a variation in period: its value", () => {
    const values = decodeMeasureValues(
      reply([
        { metric: 'complexity', value: '12', period: { value: '2', bestValue: false } },
        { metric: 'new_violations', period: { value: '25', bestValue: false } }
      ])
    )
    expect(Object.fromEntries(values)).toEqual({ complexity: 12, new_violations: 25 })
  })

  it("the server's own example: a new-code measure's period without an index", () => {
    const values = decodeMeasureValues(
      reply([
        { metric: 'complexity', value: '12' },
        { metric: 'new_violations', period: { value: '25', bestValue: false } },
        { metric: 'ncloc', value: '114' }
      ])
    )
    expect(Object.fromEntries(values)).toEqual({ complexity: 12, new_violations: 25, ncloc: 114 })
  })

  it('what the server never writes is left out: no value yet, not a number, not a metric key', () => {
    const values = decodeMeasureValues(
      reply([
        { metric: 'new_coverage' },
        { metric: 'coverage', value: '81.2%' },
        { metric: 'duplicated_lines_density', value: 'NaN' },
        { metric: 'Coverage\n::error::x', value: '1' },
        { metric: 'new_lines', value: 12 },
        'not an object',
        { metric: 'ncloc', value: '1e309' },
        { metric: 'lines', value: '1.0E999' },
        { metric: 'bugs', value: '3' }
      ])
    )
    expect([...values]).toEqual([['bugs', 3]])
  })

  it('a double as Java writes it: every digit, and its exponent form below 0.001', () => {
    const values = decodeMeasureValues(
      reply([
        { metric: 'new_coverage', period: { index: 1, value: '82.50562381034781' } },
        { metric: 'new_duplicated_lines_density', period: { index: 1, value: '1.0E-4' } }
      ])
    )
    expect([...values]).toEqual([
      ['new_coverage', 82.50562381034781],
      ['new_duplicated_lines_density', 0.0001]
    ])
  })

  it('at most 100 measures are read; a reply without component.measures is not the server’s', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ metric: `m${i}`, value: String(i) }))
    expect(decodeMeasureValues(reply(many)).size).toBe(100)
    expect(() => decodeMeasureValues({ measures: [] })).toThrow('component')
  })
})

describe('SonarClient.getMeasures', () => {
  const client = () =>
    new SonarClient({
      serverUrl: new URL(SERVER),
      token: 'squ_test',
      rootCert: undefined,
      userAgent: 'test',
      clock: new FakeClock(),
      deadline: 60_000,
      random: () => 0.5
    })

  it("asks for the pull request's measures by key, once", async () => {
    const asked: Record<string, string>[] = []
    server.use(
      http.get(`${SERVER}/api/measures/component`, ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams))
        return HttpResponse.json(
          reply([{ metric: 'new_coverage', period: { index: 1, value: '90.0' } }])
        )
      })
    )
    const values = await client().getMeasures('shop', { pullRequest: '42' }, [
      'new_coverage',
      'new_duplicated_lines_density'
    ])
    expect(values.get('new_coverage')).toBe(90)
    expect(asked).toEqual([
      {
        component: 'shop',
        pullRequest: '42',
        metricKeys: 'new_coverage,new_duplicated_lines_density'
      }
    ])
  })

  it('a failure is not tried again', async () => {
    let requests = 0
    server.use(
      http.get(`${SERVER}/api/measures/component`, () => {
        requests++
        return HttpResponse.json({ errors: [{ msg: 'boom' }] }, { status: 503 })
      })
    )
    const error = await rejectionInWords(client().getMeasures('shop', {}, ['coverage']))
    expect(error.message).toContain('the measures of shop')
    expect(requests).toBe(1)
  })
})
