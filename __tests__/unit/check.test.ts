import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { checkOneQualityGate } from '../support/check-one.js'
import { readActionSettings as readSettings } from '../../src/action/settings.js'
import type { Settings } from '../../src/settings.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { inActionWords, inCommandWords } from '../../__fixtures__/sinks.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import {
  hotspotsExample,
  projectStatusExample,
  taskExample
} from '../../__fixtures__/sonarqube/index.js'
import { ACTION_NAMES } from '../../src/action/names.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { type Names } from '../../src/words.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'

const report = (serverUrl = SERVER, taskUrl = `${SERVER}/api/ce/task?id=AYhSC2-LY0CHkWJxvNA9`) =>
  [
    'projectKey=my-project',
    `serverUrl=${serverUrl}`,
    `dashboardUrl=${serverUrl}/dashboard?id=my-project`,
    'ceTaskId=AYhSC2-LY0CHkWJxvNA9',
    `ceTaskUrl=${taskUrl}`
  ].join('\n')

function settings(values: Record<string, string> = {}): Settings {
  return readSettings((name) => values[name] ?? '', { SONAR_TOKEN: 'squ_token' })
}

function deps(
  files: Record<string, string> = { '.scannerwork/report-task.txt': report() },
  names: Names = ACTION_NAMES
) {
  const clock = new FakeClock()
  const log = new RecordingLog(names)
  return {
    clock,
    log,
    deps: {
      cwd: '/repo',
      clock,
      startedAt: 0,
      log,
      userAgent: 'test',
      random: () => 0.5,
      readFile: async (file: string) =>
        Object.entries(files).find(([name]) => file.endsWith(name))?.[1]
    }
  }
}

/**
 * The project's background tasks, which the check asks for the previous analysis's length: none
 * yet, so the polls keep the fixed cadence.
 */
const noPreviousAnalysis = (base = SERVER) =>
  http.get(`${base}/api/ce/component`, () => HttpResponse.json({ queue: [] }))

/** The server: the task goes PENDING, IN_PROGRESS, then the server's own SUCCESS example. */
function serverWithTask(base = SERVER, statuses = ['PENDING', 'IN_PROGRESS']) {
  const taskRequests: URL[] = []
  server.use(
    http.get(`${base}/api/ce/task`, ({ request }) => {
      taskRequests.push(new URL(request.url))
      const status = statuses[taskRequests.length - 1]
      return HttpResponse.json(
        status ? { task: { id: 'AYhSC2-LY0CHkWJxvNA9', status } } : taskExample
      )
    }),
    http.get(`${base}/api/qualitygates/project_status`, ({ request }) =>
      new URL(request.url).searchParams.get('analysisId') === 'AYhSC3WDE6ILQDIMAPIp'
        ? HttpResponse.json(projectStatusExample)
        : HttpResponse.json({ errors: [{ msg: 'not found' }] }, { status: 404 })
    ),
    http.get(`${base}/api/issues/search`, () =>
      HttpResponse.json({ paging: { pageIndex: 1, pageSize: 500, total: 0 }, issues: [] })
    ),
    // A 10.x server's figures: new code measures under `period`, the accepted issues counted.
    http.get(`${base}/api/measures/component`, ({ request }) => {
      const keys = new URL(request.url).searchParams.get('metricKeys')!.split(',')
      const values: Record<string, string> = {
        new_coverage: '82.50562381034781',
        new_duplicated_lines_density: '0.4',
        new_accepted_issues: '2'
      }
      const measures = keys.map((metric) => ({
        metric,
        period: { index: 1, value: values[metric] }
      }))
      return HttpResponse.json({ component: { key: 'my-project', measures } })
    }),
    http.get(`${base}/api/hotspots/search`, () => HttpResponse.json(hotspotsExample)),
    noPreviousAnalysis(base)
  )
  return taskRequests
}

describe('report file → task → analysis → gate', () => {
  it("reads the gate of the task's analysis, with everything the outputs and summary need", async () => {
    serverWithTask()
    const { deps: d, log } = deps()
    const result = await checkOneQualityGate(settings(), d)
    expect(result).toMatchObject({
      status: 'ERROR',
      qualityGateStatus: 'FAILED',
      analysisId: 'AYhSC3WDE6ILQDIMAPIp',
      taskId: 'AYhSC2-LY0CHkWJxvNA9',
      dashboardUrl: `${SERVER}/dashboard?id=my-project`,
      projectKey: 'my-project',
      taskWarnings: taskExample.task.warnings,
      elapsedMs: 5000
    })
    expect(result.conditions).toHaveLength(7)
    expect(log.of('group')).toEqual(['Waiting for analysis task AYhSC2-LY0CHkWJxvNA9'])
    expect(log.of('info')).toEqual([
      'PENDING after 3.0 s',
      'IN_PROGRESS after 4.0 s',
      'SUCCESS after 5.0 s',
      'New issues: 0 (1 request).',
      'What changed: coverage on new code 82.5%, duplicated lines on new code 0.4%, 3 security hotspots to review, 2 issues accepted.'
    ])
    expect(result.whatChanged).toMatchObject({
      newCode: { coverage: 82.50562381034781, duplication: 0.4 },
      hotspots: { total: 3 },
      issues: { accepted: 2, fixed: undefined }
    })
    expect(log.of('endgroup')).toHaveLength(1)
  })

  it('closes the log group when the wait fails', async () => {
    serverWithTask(SERVER, ['FAILED'])
    const { deps: d, log } = deps()
    await expect(checkOneQualityGate(settings(), d)).rejects.toThrow(/ended FAILED/)
    expect(log.of('endgroup')).toHaveLength(1)
  })

  it('refuses a report whose task address is on another origin than its server', async () => {
    const { deps: d } = deps({
      '.scannerwork/report-task.txt': report(
        SERVER,
        'https://collector.example.net/api/ce/task?id=AYhSC2-LY0CHkWJxvNA9'
      )
    })
    await expect(checkOneQualityGate(settings(), d)).rejects.toThrow(
      /Refusing to send the token to https:\/\/collector.example.net/
    )
  })
})

describe('a user token without Browse: the server hides the issues, answering none', () => {
  const refused = () =>
    HttpResponse.json({ errors: [{ msg: 'Insufficient privileges' }] }, { status: 403 })

  it('none read beside measures and hotspots refused (403): not known, and the log says why', async () => {
    serverWithTask()
    server.use(
      http.get(`${SERVER}/api/measures/component`, refused),
      http.get(`${SERVER}/api/hotspots/search`, refused)
    )
    const { deps: d, log } = deps()
    const result = await checkOneQualityGate(settings(), d)
    expect(result.status).toBe('ERROR')
    expect(result.newIssues).toEqual({
      read: false,
      reason:
        "New issues: not known. The server answered none, but it hides a project's issues from a user who may not browse it, and it refused this token the project's measures or hotspots (HTTP 403). Give the token's user the Browse permission on the project to see them."
    })
    expect(log.of('info')).not.toContain('New issues: 0 (1 request).')
  })

  it('the hotspots alone refused (26.9 answers the measures): still not known', async () => {
    serverWithTask()
    server.use(http.get(`${SERVER}/api/hotspots/search`, refused))
    const { deps: d } = deps()
    const result = await checkOneQualityGate(settings(), d)
    expect(result.newIssues?.read).toBe(false)
  })

  it("an analysis token refused the measures: its issues are its user's to read, and none is none", async () => {
    serverWithTask()
    const analysisRefusal = http.get(`${SERVER}/api/measures/component`, refused)
    server.use(analysisRefusal, http.get(`${SERVER}/api/hotspots/search`, refused))
    const { deps: d } = deps()
    const result = await checkOneQualityGate({ ...settings(), token: 'sqa_' + 'a'.repeat(40) }, d)
    expect(result.newIssues).toMatchObject({ read: true, total: 0 })
  })
})

describe("the run's commit (the command's --commit without --project) against the analysis's", () => {
  const recorded = 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ff'
  const analyses = (revision: string) =>
    http.get(`${SERVER}/api/project_analyses/search`, ({ request }) => {
      const params = new URL(request.url).searchParams
      if (params.get('project') !== 'my-project') return HttpResponse.json({}, { status: 404 })
      return HttpResponse.json({
        paging: { pageIndex: 1, pageSize: 100, total: 2 },
        analyses: [
          { key: 'AYhSC3WDE6ILQDIMAPIp', date: '2026-11-24T10:00:05+0000', revision },
          { key: 'AYOlder', date: '2026-11-23T10:00:05+0000', revision: 'b'.repeat(40) }
        ]
      })
    })

  it("another commit recorded: one warning naming both; the analysis checked is the task's", async () => {
    serverWithTask()
    server.use(analyses(recorded))
    const { deps: d, log } = deps(undefined, COMMAND_NAMES)
    const result = await checkOneQualityGate({ ...settings(), runCommit: 'a'.repeat(40) }, d)
    expect(result).toMatchObject({ analysisId: 'AYhSC3WDE6ILQDIMAPIp', status: 'ERROR' })
    expect(log.of('warning').map(inCommandWords)).toEqual([
      "Option --commit names commit aaaaaaa, but the server records c0ffee0 for the analysis checked, AYhSC3WDE6ILQDIMAPIp of my-project: the verdict is that commit's. Check --commit, or leave it out to take the CI's commit."
    ])
  })

  it('the same commit recorded, or none given: no warning, and no request without one', async () => {
    serverWithTask()
    const asked: string[] = []
    server.use(analyses(recorded))
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('project_analyses')) asked.push(request.url)
    })
    const same = deps()
    await checkOneQualityGate({ ...settings(), runCommit: recorded }, same.deps)
    expect(same.log.of('warning')).toEqual([])
    expect(asked).toHaveLength(1)

    serverWithTask()
    const none = deps()
    await checkOneQualityGate(settings(), none.deps)
    expect(none.log.of('warning')).toEqual([])
    expect(asked).toHaveLength(1)
    server.events.removeAllListeners()
  })
})

describe('a task reply without an id is named by the task the action asked for', () => {
  const replyWithoutId = (task: Record<string, unknown>) =>
    server.use(
      http.get(`${SERVER}/api/ce/task`, () => HttpResponse.json({ task })),
      noPreviousAnalysis()
    )

  it('FAILED with no id names the ceTaskId of the report file, never a blank', async () => {
    replyWithoutId({ status: 'FAILED', errorMessage: 'Report processing failed' })
    const { deps: d } = deps()
    await expect(checkOneQualityGate(settings(), d)).rejects.toThrow(
      'The analysis task AYhSC2-LY0CHkWJxvNA9 ended FAILED: Report processing failed.'
    )
  })

  it('SUCCESS with no id and no analysis names it too', async () => {
    replyWithoutId({ status: 'SUCCESS' })
    const { deps: d } = deps()
    await expect(checkOneQualityGate(settings(), d)).rejects.toThrow(
      'Task AYhSC2-LY0CHkWJxvNA9 succeeded but names no analysis'
    )
  })

  it('a time-out after replies with no id names it in the last status seen', async () => {
    replyWithoutId({ status: 'IN_PROGRESS' })
    const { deps: d } = deps()
    await expect(checkOneQualityGate(settings({ pollingTimeoutSec: '10' }), d)).rejects.toThrow(
      'waiting for the analysis task AYhSC2-LY0CHkWJxvNA9: its last status was IN_PROGRESS'
    )
  })
})

describe('the defaults of the dependencies apply when they are not given', () => {
  it('retries with real randomness when no random source is injected', async () => {
    let calls = 0
    server.use(
      http.get(`${SERVER}/api/qualitygates/project_status`, () =>
        ++calls === 1
          ? new HttpResponse(null, { status: 503 })
          : HttpResponse.json({ projectStatus: { status: 'OK', conditions: [] } })
      )
    )
    const { deps: d, clock } = deps({})
    const result = await checkOneQualityGate(settings({ analysisId: 'A', sonarHostUrl: SERVER }), {
      ...d,
      random: undefined
    })
    expect(result.status).toBe('OK')
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(125)
    expect(clock.sleeps[0]).toBeLessThanOrEqual(250)
  })
})

describe('sonarHostUrl overrides the report: the task address is built from it', () => {
  it('asks <host>/api/ce/task?id=<ceTaskId>, whatever the report says', async () => {
    const requests = serverWithTask('https://internal.example.com/sonar', [])
    const { deps: d } = deps({
      '.scannerwork/report-task.txt': report(
        SERVER,
        `${SERVER}/api/ce/task?id=AYhSC2-LY0CHkWJxvNA9`
      )
    })
    const result = await checkOneQualityGate(
      settings({ sonarHostUrl: 'https://internal.example.com/sonar' }),
      d
    )
    expect(requests[0]?.href).toBe(
      'https://internal.example.com/sonar/api/ce/task?id=AYhSC2-LY0CHkWJxvNA9'
    )
    expect(result.status).toBe('ERROR')
  })
})

describe('a project the server does not know is asked of where its key came from', () => {
  const measuresGone = () =>
    server.use(
      http.get(`${SERVER}/api/measures/component`, () =>
        HttpResponse.json({ errors: [{ msg: 'Component not found' }] }, { status: 404 })
      )
    )

  it('with a report file: the projectKey of the report file, not a project setting never given', async () => {
    serverWithTask()
    measuresGone()
    const { deps: d } = deps()
    const { whatChanged } = await checkOneQualityGate(settings(), d)
    const unread = whatChanged && 'unread' in whatChanged.newCode ? whatChanged.newCode.unread : ''
    for (const said of [inActionWords(unread), inCommandWords(unread)]) {
      expect(said).toContain(
        'The server knows no project my-project: check the projectKey of the report file.'
      )
      expect(said).not.toMatch(/projectKey input|--project/)
    }
  })

  it('with the project setting: that setting', async () => {
    serverWithTask()
    measuresGone()
    server.use(
      http.get(`${SERVER}/api/project_analyses/search`, () =>
        HttpResponse.json({
          paging: { pageIndex: 1, pageSize: 100, total: 1 },
          analyses: [{ key: 'AYhSC3WDE6ILQDIMAPIp', date: '2024-01-01T00:00:00+0000' }]
        })
      )
    )
    const { deps: d } = deps({})
    const { whatChanged } = await checkOneQualityGate(
      settings({ projectKey: 'my-project', sonarHostUrl: SERVER }),
      d
    )
    const unread = whatChanged && 'unread' in whatChanged.newCode ? whatChanged.newCode.unread : ''
    expect(inCommandWords(unread)).toContain('check the --project option.')
  })
})

describe('taskId and analysisId check without a report file', () => {
  it('taskId: waits for that task on the host', async () => {
    const requests = serverWithTask(SERVER, [])
    const { deps: d } = deps({})
    const result = await checkOneQualityGate(
      settings({ taskId: 'AYhSC2-LY0CHkWJxvNA9', sonarHostUrl: SERVER }),
      d
    )
    expect(requests).toHaveLength(1)
    expect(result).toMatchObject({
      taskId: 'AYhSC2-LY0CHkWJxvNA9',
      projectKey: 'sonarsource_test_AYhCAUXoEy1XQQcbVndf',
      dashboardUrl: `${SERVER}/dashboard?id=sonarsource_test_AYhCAUXoEy1XQQcbVndf`
    })
  })

  it('analysisId: reads the gate at once, no task, no wait', async () => {
    const requests = serverWithTask()
    const { deps: d, clock } = deps({})
    const result = await checkOneQualityGate(
      settings({ analysisId: 'AYhSC3WDE6ILQDIMAPIp', sonarHostUrl: SERVER }),
      d
    )
    expect(requests).toHaveLength(0)
    expect(clock.sleeps).toEqual([])
    expect(result).toMatchObject({
      status: 'ERROR',
      taskId: undefined,
      analysisId: 'AYhSC3WDE6ILQDIMAPIp'
    })
  })
})

describe('the gate status maps to the SonarSource action output', () => {
  it.each([
    ['OK', 'PASSED'],
    ['WARN', 'WARN'],
    ['ERROR', 'FAILED'],
    ['NONE', 'NONE'],
    ['SOMETHING_NEW', 'NONE']
  ])('%s → %s', async (status, qualityGateStatus) => {
    server.use(
      http.get(`${SERVER}/api/qualitygates/project_status`, () =>
        HttpResponse.json({ projectStatus: { status, conditions: [] } })
      )
    )
    const { deps: d } = deps({})
    const result = await checkOneQualityGate(settings({ analysisId: 'A', sonarHostUrl: SERVER }), d)
    expect(result.qualityGateStatus).toBe(qualityGateStatus)
  })
})
