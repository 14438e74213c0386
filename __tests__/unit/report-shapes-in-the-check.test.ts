import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { checkOneQualityGate } from '../support/check-one.js'
import { readActionSettings as readSettings } from '../../src/action/settings.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { nothingChanged, useMockServer } from '../../__fixtures__/msw.js'
import { projectStatusExample, taskExample } from '../../__fixtures__/sonarqube/index.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const HOST = 'https://internal.example.com/sonar'
const TASK = 'AYhSC2-LY0CHkWJxvNA9'

/** A server that knows the task and its analysis; records the task addresses asked. */
function serverAt(base: string): URL[] {
  const asked: URL[] = []
  server.use(
    http.get(`${base}/api/ce/task`, ({ request }) => {
      asked.push(new URL(request.url))
      return HttpResponse.json(taskExample)
    }),
    http.get(`${base}/api/qualitygates/project_status`, () =>
      HttpResponse.json(projectStatusExample)
    ),
    // Read once the gate is known: none here, and nothing changed.
    http.get(`${base}/api/issues/search`, () =>
      HttpResponse.json({ paging: { pageIndex: 1, pageSize: 500, total: 0 }, issues: [] })
    ),
    ...nothingChanged(base)
  )
  return asked
}

function check(reportText: string, inputs: Record<string, string> = {}) {
  const settings = readSettings((name) => inputs[name] ?? '', { SONAR_TOKEN: 'squ_token' })
  return checkOneQualityGate(settings, {
    cwd: '/repo',
    clock: new FakeClock(),
    startedAt: 0,
    log: new RecordingLog(),
    userAgent: 'test',
    random: () => 0.5,
    readFile: async (file) =>
      file.endsWith('.scannerwork/report-task.txt') ? reportText : undefined
  })
}

describe('the check works from whatever the report gives, as long as it says which task', () => {
  it('serverUrl and ceTaskUrl alone: the task id comes from ceTaskUrl', async () => {
    const asked = serverAt(SERVER)
    const result = await check(`serverUrl=${SERVER}\nceTaskUrl=${SERVER}/api/ce/task?id=${TASK}\n`)
    expect(asked.map((url) => url.href)).toEqual([`${SERVER}/api/ce/task?id=${TASK}`])
    expect(result).toMatchObject({ taskId: TASK, status: 'ERROR' })
  })

  it('ceTaskId alone, with sonarHostUrl: the task address is built from the host', async () => {
    const asked = serverAt(HOST)
    const result = await check(`ceTaskId=${TASK}\n`, { sonarHostUrl: HOST })
    expect(asked.map((url) => url.href)).toEqual([`${HOST}/api/ce/task?id=${TASK}`])
    expect(result.taskId).toBe(TASK)
  })

  it('ceTaskId alone, without sonarHostUrl: refused before any request, saying what is missing', async () => {
    const asked = serverAt(SERVER)
    await expect(check(`ceTaskId=${TASK}\n`)).rejects.toThrow(
      /^Report file \.scannerwork\/report-task\.txt has no serverUrl\. .*or set the sonarHostUrl input/
    )
    expect(asked).toEqual([])
  })
})
