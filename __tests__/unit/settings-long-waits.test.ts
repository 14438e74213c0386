import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_TIMER_MS, systemClock } from '../../src/clock.js'
import { SettingsError } from '../../src/errors.js'
import { readActionSettings as readSettings } from '../../src/action/settings.js'
import { LIMITS } from '../../src/settings.js'
import { thrownInWords } from '../../__fixtures__/sinks.js'

const inputs =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? ''

/** The error the inputs are refused with, its message in the action's words. */
const refusal = (values: Record<string, string>): Error =>
  thrownInWords(() => readSettings(inputs(values), {}))

describe('no wait may be longer than a job can run (5 days on a self-hosted runner)', () => {
  it('accepts each limit itself', () => {
    const settings = readSettings(
      inputs({
        pollingTimeoutSec: '432000',
        initialDelayMs: '432000000',
        pollingIntervalMs: '432000000'
      }),
      {}
    )
    expect(settings).toMatchObject({
      timeoutMs: 432_000_000,
      initialWaitMs: 432_000_000,
      intervalMs: 432_000_000
    })
  })

  it.each([
    [
      'pollingTimeoutSec',
      '432001',
      'Input pollingTimeoutSec is "432001": it must be a whole number from 1 to 432000 (at most 5 days, the longest a job may run on a self-hosted runner); default 60.'
    ],
    [
      'initialDelayMs',
      '432000001',
      'Input initialDelayMs is "432000001": it must be a whole number from 0 to 432000000 (at most 5 days, the longest a job may run on a self-hosted runner); default 3000.'
    ],
    [
      'pollingIntervalMs',
      '2147483648',
      'Input pollingIntervalMs is "2147483648": it must be a whole number from 1 to 432000000 (at most 5 days, the longest a job may run on a self-hosted runner); default 1000.'
    ],
    [
      'pollingIntervalMs',
      '9'.repeat(400),
      `Input pollingIntervalMs is "${'9'.repeat(199)}…": it must be a whole number from 1 to 432000000`
    ]
  ])('%s %s is refused, naming the input, the value and the range', (name, value, message) => {
    const error = refusal({ [name]: value })
    expect(error).toBeInstanceOf(SettingsError)
    expect(error.message).toContain(message)
  })

  it('every limit keeps a timer below the 2^31 ms at which Node fires it at once', () => {
    expect(LIMITS.timeout * 1000).toBeLessThan(MAX_TIMER_MS)
    expect(LIMITS.initialDelay).toBeLessThan(MAX_TIMER_MS)
    expect(LIMITS.interval).toBeLessThan(MAX_TIMER_MS)
  })
})

describe('the system clock sleeps as long as asked, even past what one timer can hold', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  const sleeping = (ms: number) => {
    let done = false
    void systemClock.sleep(ms).then(() => {
      done = true
    })
    return () => done
  }

  it('a sleep past 2^31 ms does not end at once, and ends on time', async () => {
    vi.useFakeTimers()
    const done = sleeping(MAX_TIMER_MS + 1000)
    await vi.advanceTimersByTimeAsync(10)
    expect(done()).toBe(false)
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS - 10)
    expect(done()).toBe(false)
    await vi.advanceTimersByTimeAsync(999)
    expect(done()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done()).toBe(true)
  })

  it('a short sleep is one timer of that length', async () => {
    vi.useFakeTimers()
    const done = sleeping(1500)
    await vi.advanceTimersByTimeAsync(1499)
    expect(done()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done()).toBe(true)
  })

  it('a negative sleep returns on the next turn', async () => {
    vi.useFakeTimers()
    const done = sleeping(-5)
    await vi.advanceTimersByTimeAsync(0)
    expect(done()).toBe(true)
  })
})
