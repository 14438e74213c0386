import { describe, expect, it } from 'vitest'
import { nextPollAt, predictEnd } from '../../src/gate/poll-plan.js'
import { waitForTask } from '../../src/gate/wait-for-task.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { task } from '../../__fixtures__/task.js'

const cadence = { startedAt: 0, initialWaitMs: 3000, intervalMs: 1000 }

/** Every poll time from the first until `until`, with the prediction given. */
function plan(prediction: ReturnType<typeof predictEnd> | undefined, until = 9000): number[] {
  const times: number[] = []
  let last: number | undefined
  for (;;) {
    const at = nextPollAt(cadence, last, prediction)
    if (at > until) return times
    times.push(Math.round(at))
    last = at
  }
}

describe('without a prediction, the fixed cadence anchored to the start', () => {
  it('the first poll after the initial wait, then one every interval', () => {
    expect(plan(undefined, 6000)).toEqual([3000, 4000, 5000, 6000])
  })

  it('after a slow request, the next free slot of the cadence, not a burst', () => {
    expect(nextPollAt(cadence, 5500, undefined)).toBe(6000)
  })
})

describe('a prediction gathers polls at most 250 ms apart around the predicted end and drops the fixed polls that would find the task running', () => {
  it('processing 2400 ms, 800 ms done at the 3 s poll: end at 4.6 s, 400 ms early to 480 ms late', () => {
    const prediction = predictEnd(3000, 800, 2400)
    expect(prediction).toEqual({ endsAt: 4600, earlyMs: 400, lateMs: 480 })
    // 4000 falls within an interval before the window, 5000 inside it: left out.
    // Five polls 220 ms apart over the 880 ms window.
    expect(plan(prediction)).toEqual([3000, 4200, 4420, 4640, 4860, 5080, 6000, 7000, 8000, 9000])
  })

  it('a window far ahead keeps the fixed polls until an interval before it', () => {
    const prediction = predictEnd(3000, 0, 10_000) // ends at 13 s, 1.7 s early to 2 s late
    expect(plan(prediction, 17_000)).toEqual([
      3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11333, 11666, 12000, 12333, 12666, 13000,
      13333, 13667, 14000, 14333, 14667, 15000, 16000, 17000
    ])
  })

  it('a wide window gets at most 12 polls, spread evenly over it', () => {
    const prediction = predictEnd(3000, 0, 30_000) // ends at 33 s, 2 s early to 2 s late
    const inWindow = plan(prediction, 40_000).filter((at) => at >= 31_000 && at <= 35_000)
    expect(inWindow).toEqual([
      31000, 31364, 31727, 32091, 32455, 32818, 33182, 33545, 33909, 34273, 34636, 35000
    ])
  })

  it('a task predicted to be already over: the window starts at once', () => {
    expect(predictEnd(3000, 5000, 2000)).toEqual({ endsAt: 3000, earlyMs: 333, lateMs: 400 })
  })
})

describe('waitForTask polls around the predicted end when the previous processing time is known', () => {
  async function run(previous: Promise<number | undefined> | undefined, endsAt = 4700) {
    const clock = new FakeClock()
    const polledAt: number[] = []
    const fetchTask = async () => {
      polledAt.push(clock.now())
      const now = clock.now()
      if (now >= endsAt) return task('SUCCESS')
      return task('IN_PROGRESS', { executionTimeMs: now - 2200 }) // processing started at 2.2 s
    }
    const predictions: number[] = []
    await waitForTask({
      taskId: 'AYTask1',
      fetchTask,
      clock,
      startedAt: 0,
      deadline: 60_000,
      initialWaitMs: 3000,
      intervalMs: 1000,
      readPreviousProcessingMs: previous && (() => previous),
      onPrediction: ({ endsAt: at }) => predictions.push(at)
    })
    return { polledAt, predictions }
  }

  it('ends 60 ms after the task instead of 300 ms', async () => {
    const { polledAt, predictions } = await run(Promise.resolve(2400), 4580)
    expect(predictions).toEqual([4600])
    expect(polledAt).toEqual([3000, 4200, 4420, 4640])
  })

  it('without it, the fixed cadence', async () => {
    expect((await run(undefined, 4580)).polledAt).toEqual([3000, 4000, 5000])
    expect((await run(Promise.resolve(undefined), 4580)).polledAt).toEqual([3000, 4000, 5000])
  })

  it('a previous time that is not known yet at a poll is used at a later one, never waited for', async () => {
    let resolve: (ms: number) => void = () => {}
    const late = new Promise<number>((r) => (resolve = r))
    const pending = run(late, 8000)
    await Promise.resolve()
    resolve(2400)
    const { polledAt } = await pending
    expect(polledAt[0]).toBe(3000)
  })
})

describe('the previous analysis is read only when it can help', () => {
  it('without an initial wait, only after a first poll that finds the task not done', async () => {
    let reads = 0
    const readPreviousProcessingMs = async () => {
      reads++
      return 2000
    }
    const clock = new FakeClock()
    const done = task('SUCCESS')
    const options = {
      taskId: 'AYTask1',
      clock,
      startedAt: 0,
      deadline: 60_000,
      initialWaitMs: 0,
      intervalMs: 1000,
      readPreviousProcessingMs
    }
    await waitForTask({ ...options, fetchTask: async () => done })
    expect(reads).toBe(0)
    let polls = 0
    await waitForTask({
      ...options,
      fetchTask: async () => (++polls < 3 ? { ...done, status: 'PENDING' } : done)
    })
    expect(reads).toBe(1)
  })
})
