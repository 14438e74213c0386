/**
 * Metrics the action does not know by itself (custom metrics, software quality metrics) are named
 * and formatted as the server defines them: api/metrics/search, read once, page by page, only
 * when a condition needs it.
 */
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { checkOneQualityGate } from '../support/check-one.js'
import { describeCondition, formatValue, metricName } from '../../src/report/wording.js'
import { readActionSettings as readSettings } from '../../src/action/settings.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { useMockServer } from '../../__fixtures__/msw.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'

const condition = (metricKey: string, actualValue: string, errorThreshold: string) => ({
  status: 'ERROR',
  metricKey,
  comparator: 'GT',
  errorThreshold,
  actualValue
})

/** A server with a finished analysis whose gate has these conditions, and these metrics. */
function serverWith(
  conditions: object[],
  metrics: (page: number) => Response = (page) =>
    HttpResponse.json({
      metrics: page === 1 ? DEFINITIONS : [],
      total: DEFINITIONS.length,
      p: page,
      ps: 500
    })
) {
  const metricPages: number[] = []
  server.use(
    http.get(`${SERVER}/api/qualitygates/project_status`, () =>
      HttpResponse.json({ projectStatus: { status: 'ERROR', conditions } })
    ),
    http.get(`${SERVER}/api/metrics/search`, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('p'))
      metricPages.push(page)
      return metrics(page)
    })
  )
  return metricPages
}

const DEFINITIONS = [
  {
    key: 'new_software_quality_maintainability_issues',
    name: 'New Maintainability Issues',
    type: 'INT'
  },
  { key: 'team_velocity_rating', name: 'Team Velocity', type: 'RATING' },
  { key: 'build_time', name: 'Build Time', type: 'MILLISEC' },
  { key: 'release_level', name: 'Release Level', type: 'LEVEL' }
]

async function check() {
  const log = new RecordingLog()
  const result = await checkOneQualityGate(
    readSettings((name) => ({ analysisId: 'AYAnalysis1', sonarHostUrl: SERVER })[name] ?? '', {
      SONAR_TOKEN: 'squ_token'
    }),
    {
      cwd: '/repo',
      clock: new FakeClock(),
      startedAt: 0,
      log,
      userAgent: 'test',
      random: () => 0.5
    }
  )
  return { result, log }
}

describe('metrics the action does not know are named and formatted as the server defines them', () => {
  it('reads api/metrics/search once and uses each name and type', async () => {
    const pages = serverWith([
      condition('new_software_quality_maintainability_issues', '3', '0'),
      condition('team_velocity_rating', '4', '2'),
      condition('build_time', '125000', '60000'),
      condition('release_level', 'ERROR', 'OK')
    ])
    const { result } = await check()
    expect(pages).toEqual([1])
    expect(result.conditions.map(describeCondition)).toEqual([
      'New Maintainability Issues is 3 (fails when greater than 0)',
      'Team Velocity is D (fails when worse than B)',
      'Build Time is 125 s (fails when greater than 60 s)',
      'Release Level is ERROR (fails when greater than OK)'
    ])
  })

  it('reads every page, and no more than the server has', async () => {
    const many = Array.from({ length: 1200 }, (_, index) => ({
      key: `m${index}`,
      name: `M ${index}`,
      type: 'INT'
    }))
    const pages = serverWith([condition('m1100', '1', '0')], (page) =>
      HttpResponse.json({
        metrics: many.slice((page - 1) * 500, page * 500),
        total: many.length,
        p: page,
        ps: 500
      })
    )
    const { result } = await check()
    expect(pages).toEqual([1, 2, 3])
    expect(metricName(result.conditions[0]!.condition)).toBe('M 1100')
  })

  it('asks nothing when every metric is one the action knows', async () => {
    const pages = serverWith([
      condition('new_coverage', '70', '80'),
      condition('security_rating', '2', '1')
    ])
    await check()
    expect(pages).toEqual([])
  })

  it('a 403 (an analysis token may lack Browse on metrics) falls back to the key, silently', async () => {
    serverWith([condition('team_velocity_rating', '4', '2')], () =>
      HttpResponse.json({ errors: [{ msg: 'Insufficient privileges' }] }, { status: 403 })
    )
    const { result, log } = await check()
    expect(metricName(result.conditions[0]!.condition)).toBe('Team velocity rating')
    expect(formatValue(result.conditions[0]!.condition, '4')).toBe('D')
    expect(log.of('info').filter((line) => line.includes('Metric'))).toEqual([])
  })

  it('another failure falls back too, says so in one line, and is not tried again', async () => {
    const pages = serverWith([condition('team_velocity_rating', '4', '2')], () =>
      HttpResponse.json({ errors: [{ msg: 'boom' }] }, { status: 503 })
    )
    const { result, log } = await check()
    expect(result.status).toBe('ERROR')
    expect(pages).toEqual([1])
    expect(log.of('info')).toContainEqual(
      expect.stringMatching(
        /^Metric names could not be read, so metric keys are shown: The server failed to answer for the metric definitions \(HTTP 503/
      )
    )
  })
})
