import type { Said } from '../../src/words.js'
import { describe, expect, it } from 'vitest'
import { ServerRequestError, TaskFailedError, TimeoutError } from '../../src/errors.js'
import { waitForTask } from '../../src/gate/wait-for-task.js'
import type { Task } from '../../src/sonar/types.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { inActionWords, rejectionInWords } from '../../__fixtures__/sinks.js'
import { task } from '../../__fixtures__/task.js'

/** The error `promise` is rejected with, its message in the action's words. */
const refusal = (promise: Promise<unknown>): Promise<Error> => rejectionInWords(promise)

/** A server whose task goes through the given statuses, one per poll (the last repeats). */
function scriptedTask(statuses: (string | Task)[]) {
  let polls = 0
  return {
    get polls() {
      return polls
    },
    fetchTask: async () => {
      const next = statuses[Math.min(polls++, statuses.length - 1)] as string | Task
      return typeof next === 'string' ? task(next) : next
    }
  }
}

const options = (clock: FakeClock, fetchTask: () => Promise<Task>) => ({
  taskId: 'AYTask1',
  fetchTask,
  clock,
  startedAt: 0,
  deadline: 60_000,
  initialWaitMs: 3000,
  intervalMs: 1000
})

describe('waits initialWaitMs, then polls every intervalMs until SUCCESS', () => {
  it('returns the finished task with its analysis id', async () => {
    const clock = new FakeClock()
    const server = scriptedTask(['PENDING', 'IN_PROGRESS', 'IN_PROGRESS', 'SUCCESS'])
    const seen: [string, number][] = []
    const finished = await waitForTask({
      ...options(clock, server.fetchTask),
      onPoll: (t, elapsed) => seen.push([t.status, elapsed])
    })
    expect(finished.analysisId).toBe('AYAnalysis1')
    expect(clock.sleeps).toEqual([3000, 1000, 1000, 1000])
    expect(seen).toEqual([
      ['PENDING', 3000],
      ['IN_PROGRESS', 4000],
      ['IN_PROGRESS', 5000],
      ['SUCCESS', 6000]
    ])
  })

  it('an initial delay of 0 polls at once', async () => {
    const clock = new FakeClock()
    await waitForTask({ ...options(clock, scriptedTask(['SUCCESS']).fetchTask), initialWaitMs: 0 })
    expect(clock.sleeps).toEqual([0])
  })

  it("keeps waiting on a status this version does not know, and reports the task's warnings", async () => {
    const clock = new FakeClock()
    const server = scriptedTask([
      'QUEUED_SOMEWHERE',
      task('SUCCESS', { warnings: ['Missing blame information'] })
    ])
    const finished = await waitForTask(options(clock, server.fetchTask))
    expect(server.polls).toBe(2)
    expect(finished.warnings).toEqual(['Missing blame information'])
  })
})

describe('a task that ends FAILED or CANCELED fails at once with the server message', () => {
  it.each(['FAILED', 'CANCELED'])('%s', async (status) => {
    const clock = new FakeClock()
    const server = scriptedTask([
      'PENDING',
      task(status, { errorMessage: 'Fail to extract report AYTask1 from database' })
    ])
    const waiting = waitForTask(options(clock, server.fetchTask))
    await expect(waiting).rejects.toThrow(TaskFailedError)
    await expect(waiting).rejects.toThrow(
      `The analysis task AYTask1 ended ${status}: Fail to extract report AYTask1 from database.`
    )
    expect(server.polls).toBe(2)
  })

  it('names the kind of failure the server gives beside its message', async () => {
    const clock = new FakeClock()
    const server = scriptedTask([
      task('FAILED', { errorType: 'ANALYSIS_REPORT', errorMessage: 'Report processing failed' })
    ])
    await expect(waitForTask(options(clock, server.fetchTask))).rejects.toThrow(
      'The analysis task AYTask1 ended FAILED (ANALYSIS_REPORT): Report processing failed.'
    )
  })

  it('says so when the server gave no reason', async () => {
    const clock = new FakeClock()
    await expect(waitForTask(options(clock, scriptedTask(['CANCELED']).fetchTask))).rejects.toThrow(
      /ended CANCELED: the server gave no reason/
    )
  })

  it('a SUCCESS task without an analysis is an error, not a crash', async () => {
    const clock = new FakeClock()
    const server = scriptedTask([task('SUCCESS', { analysisId: undefined })])
    await expect(waitForTask(options(clock, server.fetchTask))).rejects.toThrow(ServerRequestError)
  })
})

describe('the overall time-out counts from the step start, initial wait included', () => {
  it('fails with the last status seen and the elapsed time, never sleeping past the deadline', async () => {
    const clock = new FakeClock()
    const server = scriptedTask(['PENDING', 'IN_PROGRESS'])
    const waiting = waitForTask({ ...options(clock, server.fetchTask), deadline: 5500 })
    await expect(waiting).rejects.toThrow(TimeoutError)
    await expect(waiting).rejects.toThrow(
      'Timed out after 5.5 s waiting for the analysis task AYTask1: its last status was IN_PROGRESS.'
    )
    expect(clock.now()).toBe(5500)
    expect(clock.sleeps).toEqual([3000, 1000, 1000, 500])
  })

  it('counts time already spent before the wait (the step started earlier)', async () => {
    const clock = new FakeClock(2000)
    const server = scriptedTask(['PENDING'])
    const waiting = waitForTask({
      ...options(clock, server.fetchTask),
      startedAt: 0,
      deadline: 4000
    })
    expect((await refusal(waiting)).message).toMatch(
      /Timed out after 4.0 s.*its last status was PENDING.*raise pollingTimeoutSec \(now 4.0 s\)/
    )
    // the first poll comes initialWaitMs after the step's start, not after this call
    expect(clock.sleeps).toEqual([1000, 1000])
    expect(server.polls).toBe(1)
  })

  it('an initial delay longer than the time-out ends with no status received', async () => {
    const clock = new FakeClock()
    const server = scriptedTask(['SUCCESS'])
    await expect(
      waitForTask({ ...options(clock, server.fetchTask), initialWaitMs: 10_000, deadline: 2000 })
    ).rejects.toThrow(
      /Timed out after 2.0 s waiting for the analysis task AYTask1: no status was received/
    )
    expect(server.polls).toBe(0)
  })

  it('time spent in requests counts too', async () => {
    const clock = new FakeClock()
    const slowServer = async () => {
      clock.advance(1500)
      return task('PENDING')
    }
    await expect(
      waitForTask({ ...options(clock, slowServer), initialWaitMs: 0, deadline: 4000 })
    ).rejects.toThrow(TimeoutError)
    // requests slower than the interval: the next poll follows at once, none starts after the deadline
    expect(clock.sleeps).toEqual([0, 0, 0, 0])
    expect(clock.now()).toBe(4500)
  })
})

describe('polls keep a fixed cadence, however long each request takes', () => {
  it('sleeps only what is left of the interval after a request', async () => {
    const clock = new FakeClock()
    const statuses = ['PENDING', 'PENDING', 'IN_PROGRESS', 'SUCCESS']
    const polledAt: number[] = []
    const server = async () => {
      polledAt.push(clock.now())
      clock.advance(300)
      return task(statuses[polledAt.length - 1] as string)
    }
    await waitForTask(options(clock, server))
    expect(polledAt).toEqual([3000, 4000, 5000, 6000])
    expect(clock.sleeps).toEqual([3000, 700, 700, 700])
  })
})

describe('a poll the deadline cuts short ends as a time-out with the last status seen', () => {
  it('turns the request time-out into the usual message', async () => {
    const clock = new FakeClock()
    let polls = 0
    const server = async () => {
      if (++polls === 1) return task('IN_PROGRESS')
      clock.advance(2000)
      throw new TimeoutError('The overall time-out (pollingTimeoutSec) ran out while waiting')
    }
    const waiting = waitForTask({ ...options(clock, server), initialWaitMs: 0, deadline: 2500 })
    await expect(waiting).rejects.toThrow(
      'Timed out after 3.0 s waiting for the analysis task AYTask1: its last status was IN_PROGRESS.'
    )
  })

  it('other failures of a poll pass through unchanged', async () => {
    const clock = new FakeClock()
    const server = async (): Promise<Task> => {
      throw new ServerRequestError('The server rejected the token')
    }
    await expect(waitForTask(options(clock, server))).rejects.toThrow(
      'The server rejected the token'
    )
  })
})

describe('a server that stops answering after it has answered: polled through, within the time-out', () => {
  const refused = () =>
    new ServerRequestError('Could not reach the server: connection refused', undefined, {
      nodeCode: 'ECONNREFUSED',
      noReply: true
    })
  const starting401 = () => new ServerRequestError('The server rejected the token', 401)

  /** A task that answers PENDING, then fails with each of `faults`, then answers SUCCESS. */
  function restartingServer(faults: (() => Error)[]) {
    const calls: string[] = []
    let poll = 0
    return {
      calls,
      fetchTask: async () => {
        calls.push('task')
        const at = poll++
        if (at === 0) return task('PENDING')
        const fault = faults[at - 1]
        if (fault) throw fault()
        return task('SUCCESS')
      }
    }
  }

  it('refused, then 503: the polls go on, one line when it goes and one when it is back', async () => {
    const clock = new FakeClock()
    const server = restartingServer([
      refused,
      () => new ServerRequestError('HTTP 503', 503),
      refused
    ])
    const said: Said[] = []
    const finished = await waitForTask({
      ...options(clock, server.fetchTask),
      serverNotUp: async () => false,
      onOutage: (words) => said.push(words)
    })
    expect(finished.analysisId).toBe('AYAnalysis1')
    expect(said.map(inActionWords)).toEqual([
      'The server stopped answering (ECONNREFUSED) after 4.0 s: polling on until it is back, within pollingTimeoutSec.',
      'The server answers again after 3.0 s away.'
    ])
  })

  it('while the server says it is not up, the task is not asked for; a 401 then is the restart, not the token', async () => {
    const clock = new FakeClock()
    const server = restartingServer([starting401])
    const states = ['STARTING', 'STARTING', 'STARTING', 'UP']
    const finished = await waitForTask({
      ...options(clock, async () => server.fetchTask()),
      serverNotUp: async () => {
        server.calls.push('status')
        return states.shift() !== 'UP'
      }
    })
    expect(finished.status).toBe('SUCCESS')
    // The 401 asks the status (STARTING), the next two ticks only the status, then the task.
    expect(server.calls).toEqual(['task', 'task', 'status', 'status', 'status', 'status', 'task'])
  })

  it('a 401 while the server says it is UP is the token: it fails at once', async () => {
    const clock = new FakeClock()
    const server = restartingServer([starting401])
    const failure = await refusal(
      waitForTask({ ...options(clock, server.fetchTask), serverNotUp: async () => false })
    )
    expect(failure.message).toBe('The server rejected the token')
  })

  it('refused before any answer is not an outage: a wrong address fails at once', async () => {
    const clock = new FakeClock()
    const failure = await refusal(
      waitForTask({
        ...options(clock, () => Promise.reject(refused())),
        serverNotUp: async () => true
      })
    )
    expect(failure.message).toContain('connection refused')
  })

  it('a server that never comes back: the time-out says since when it has not answered', async () => {
    const clock = new FakeClock()
    const server = restartingServer(Array.from({ length: 100 }, () => refused))
    const failure = await refusal(
      waitForTask({ ...options(clock, server.fetchTask), serverNotUp: async () => true })
    )
    expect(failure).toBeInstanceOf(TimeoutError)
    expect(failure.message).toBe(
      'Timed out after 60.0 s waiting for the analysis task AYTask1: the server has not answered since 4.0 s (ECONNREFUSED); its last status was PENDING. Check that the server is running; raise pollingTimeoutSec (now 60.0 s) to wait out its restarts.'
    )
    // One status request a second while it is away, never the task again.
    expect(server.calls.filter((call) => call === 'task')).toHaveLength(2)
  })
})
