import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { noHotspots, useMockServer } from '../../__fixtures__/msw.js'
import { projectAnalysesExample } from '../../__fixtures__/sonarqube/index.js'
import { readSettings } from '../../src/settings.js'
import { ServerRequestError } from '../../src/errors.js'
import { checkOneQualityGate } from '../support/check-one.js'

/**
 * Where the server answers api/qualitygates/project_status with 404 or 410 (an endpoint gone),
 * the gate of the analysis is read from its branch's measures, but only while it is the
 * branch's latest analysis.
 */
const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const [newest, older] = projectAnalysesExample.analyses
const DETAILS = JSON.stringify({
  level: 'ERROR',
  conditions: [
    { metric: 'new_coverage', op: 'LT', period: 1, error: '85', actual: '82.5', level: 'ERROR' },
    {
      metric: 'new_duplicated_lines_density',
      op: 'GT',
      period: 1,
      error: '3',
      actual: '0.4',
      level: 'OK'
    }
  ],
  ignoredConditions: false
})

function serve(gone: 404 | 410) {
  const asked: string[] = []
  server.use(
    http.get(`${SERVER}/api/project_analyses/search`, () =>
      HttpResponse.json(projectAnalysesExample)
    ),
    http.get(`${SERVER}/api/qualitygates/project_status`, () =>
      HttpResponse.json(
        { errors: [{ msg: 'Unknown url : /api/qualitygates/project_status' }] },
        { status: gone }
      )
    ),
    http.get(`${SERVER}/api/measures/component`, ({ request }) => {
      asked.push(new URL(request.url).search)
      return HttpResponse.json({
        component: {
          key: 'shop',
          branch: 'main',
          measures: [
            { metric: 'alert_status', value: 'ERROR' },
            { metric: 'quality_gate_details', value: DETAILS }
          ]
        }
      })
    }),
    http.get(`${SERVER}/api/metrics/search`, () => HttpResponse.json({ metrics: [], total: 0 })),
    http.get(`${SERVER}/api/issues/search`, () =>
      HttpResponse.json({ total: 0, p: 1, ps: 100, paging: { total: 0 }, issues: [] })
    ),
    // What changed: the measures above, and no hotspots.
    noHotspots(SERVER)
  )
  return asked
}

function check(commit: string | undefined) {
  const log = new RecordingLog()
  const settings = readSettings({
    project: 'shop',
    host: SERVER,
    branch: 'main',
    ...(commit ? { commit } : {}),
    token: 'squ_0123456789abcdef'
  })
  const run = checkOneQualityGate(settings, {
    cwd: '/repo',
    clock: new FakeClock(),
    startedAt: 0,
    log,
    userAgent: 'test',
    random: () => 0.5,
    findFiles: async () => []
  })
  return { run, log }
}

describe('a server without api/qualitygates/project_status', () => {
  it.each([404, 410] as const)(
    'answering %i: the latest analysis of the branch is read from its measures, and said',
    async (status) => {
      const asked = serve(status)
      const { run, log } = check(newest?.revision)
      const result = await run
      expect(result).toMatchObject({
        status: 'ERROR',
        analysisId: newest?.key,
        gateFromMeasures: true
      })
      expect(
        result.conditions.map(({ condition }) => [condition.metricKey, condition.status])
      ).toEqual([
        ['new_coverage', 'ERROR'],
        ['new_duplicated_lines_density', 'OK']
      ])
      // The gate's measures first; the figures of what changed after the verdict.
      expect(asked).toEqual([
        '?component=shop&branch=main&metricKeys=alert_status%2Cquality_gate_details',
        '?component=shop&branch=main&metricKeys=new_coverage%2Cnew_duplicated_lines_density',
        '?component=shop&branch=main&metricKeys=new_accepted_issues'
      ])
      expect(log.lines.map(({ text }) => text)).toContain(
        `api/qualitygates/project_status answered ${status}: the gate is read from the measures of shop on branch main, whose latest analysis is this one.`
      )
    }
  )

  it("an analysis that is not the branch's latest keeps the server's refusal: its measures are another's", async () => {
    const asked = serve(410)
    const error = await check(older?.revision).run.catch((thrown: Error) => thrown)
    expect(error).toBeInstanceOf(ServerRequestError)
    expect((error as ServerRequestError).status).toBe(410)
    expect(asked).toEqual([])
  })
})
