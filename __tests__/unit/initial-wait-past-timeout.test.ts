import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { readActionSettings } from '../../src/action/settings.js'
import { parseCommandLine } from '../../src/cli/options.js'
import { readCommandSettings } from '../../src/cli/settings.js'
import { overallDeadline } from '../../src/deadline.js'
import { TimeoutError } from '../../src/errors.js'
import { checkQualityGates } from '../../src/gate/check-analyses.js'
import { waitForTask } from '../../src/gate/wait-for-task.js'
import type { Settings } from '../../src/settings.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { inActionWords, inCommandWords, rejectionInWords } from '../../__fixtures__/sinks.js'
import { task } from '../../__fixtures__/task.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'

/**
 * A time-out no longer than the initial wait: the wait sleeps to the deadline and asks nothing
 * (the timing stays as it is), and the time-out says so, naming the two settings in each edge's
 * words, rather than blaming a queue it never asked about.
 */
const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const REPORT = [
  'projectKey=my-project',
  `serverUrl=${SERVER}`,
  `dashboardUrl=${SERVER}/dashboard?id=my-project`,
  'ceTaskId=AYhSC2-LY0CHkWJxvNA9',
  `ceTaskUrl=${SERVER}/api/ce/task?id=AYhSC2-LY0CHkWJxvNA9`
].join('\n')

/** A server whose task has already ended SUCCESS; counts the requests for it. */
function finishedTask(): { taskRequests: number } {
  const seen = { taskRequests: 0 }
  server.use(
    http.get(`${SERVER}/api/ce/task`, () => {
      seen.taskRequests++
      return HttpResponse.json(taskExample)
    }),
    http.get(`${SERVER}/api/ce/component`, () => HttpResponse.json({ queue: [] }))
  )
  return seen
}

/** The check of the report file under `settings`: the one analysis's failure, and the clock. */
async function failureOfTheCheck(settings: Settings): Promise<{ error: Error; clock: FakeClock }> {
  const clock = new FakeClock()
  const outcomes = await checkQualityGates(settings, {
    cwd: '/repo',
    clock,
    startedAt: 0,
    deadline: overallDeadline(0, settings.timeoutMs),
    log: new RecordingLog(),
    userAgent: 'test',
    random: () => 0.5,
    readFile: async (file: string) => (file.endsWith('report-task.txt') ? REPORT : undefined)
  })
  const [only] = outcomes
  if (outcomes.length !== 1 || !only || only.read) throw new Error('expected one failed analysis')
  return { error: only.error, clock }
}

describe('a time-out no longer than the initial wait: no request, and the message says why', () => {
  it("the action: its inputs' names, its values, and what to change", async () => {
    const seen = finishedTask()
    const settings = readActionSettings(
      (name) => ({ pollingTimeoutSec: '2', initialDelayMs: '3000' })[name] ?? '',
      { SONAR_TOKEN: 'squ_token' }
    )
    const { error, clock } = await failureOfTheCheck(settings)
    expect(error).toBeInstanceOf(TimeoutError)
    const said = inActionWords(error)
    expect(said).toBe(
      'Timed out after 2.0 s waiting for the analysis task AYhSC2-LY0CHkWJxvNA9: no status was received, and no request was made, because the initial wait, initialDelayMs (now 3.0 s), took the whole time-out, pollingTimeoutSec (now 2.0 s). Raise pollingTimeoutSec above the initial wait, or lower initialDelayMs.'
    )
    expect(said).not.toContain('queued')
    // the timing is as it was: one sleep to the deadline, nothing asked
    expect(seen.taskRequests).toBe(0)
    expect(clock.sleeps).toEqual([2000])
  })

  it("the command: its options' names", async () => {
    const seen = finishedTask()
    const line = parseCommandLine(['--report', 'report-task.txt', '--timeout', '2'])
    if (line.kind !== 'check') throw new Error('expected the check')
    const settings = await readCommandSettings(
      line,
      { SONAR_TOKEN: 'squ_token' },
      '/repo',
      new RecordingLog()
    )
    const { error } = await failureOfTheCheck(settings)
    expect(inCommandWords(error)).toBe(
      'Timed out after 2.0 s waiting for the analysis task AYhSC2-LY0CHkWJxvNA9: no status was received, and no request was made, because the initial wait, --initial-delay (now 3.0 s), took the whole time-out, --timeout (now 2.0 s). Raise --timeout above the initial wait, or lower --initial-delay.'
    )
    expect(seen.taskRequests).toBe(0)
  })
})

describe('the wait itself', () => {
  const options = (clock: FakeClock, fetchTask: () => Promise<ReturnType<typeof task>>) => ({
    taskId: 'AYTask1',
    fetchTask,
    clock,
    startedAt: 0,
    initialWaitMs: 3000,
    intervalMs: 1000
  })

  it('an initial wait exactly as long as the time-out: the first poll would be at the deadline', async () => {
    const clock = new FakeClock()
    let polls = 0
    const waiting = waitForTask({
      ...options(clock, async () => (polls++, task('SUCCESS'))),
      deadline: 3000
    })
    const error = await rejectionInWords(waiting)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toContain(
      'took the whole time-out, pollingTimeoutSec (now 3.0 s). Raise pollingTimeoutSec above the initial wait, or lower initialDelayMs.'
    )
    expect(polls).toBe(0)
    expect(clock.sleeps).toEqual([3000])
  })

  it('time spent before the wait used the time-out up: no request, and no queue blamed', async () => {
    // The step's earlier requests took 5 s of a 4 s time-out; the first poll was due at 3 s.
    const clock = new FakeClock(5000)
    let polls = 0
    const waiting = waitForTask({
      ...options(clock, async () => (polls++, task('SUCCESS'))),
      deadline: 4000
    })
    const error = await rejectionInWords(waiting, inCommandWords)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      'Timed out after 5.0 s waiting for the analysis task AYTask1: no status was received, and no request was made: the time-out ran out before the first poll, due at 3.0 s; raise --timeout (now 4.0 s).'
    )
    expect(polls).toBe(0)
  })
})
