/** Time as the action sees it; tests pass a fake that advances instantly. */
export interface Clock {
  /** Milliseconds on a monotonic-enough scale; only differences matter. */
  now(): number
  sleep(ms: number): Promise<void>
}

/**
 * The longest delay setTimeout honours: past it the delay overflows a signed 32-bit integer and
 * Node fires the timer at once (with a warning), which would turn a long wait into a hot loop.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

export const systemClock: Clock = {
  now: () => Date.now(),
  // Settings already bound every wait; sleeping in steps keeps any other delay safe too.
  // Nothing to wait is no timer: Node makes setTimeout(0) a millisecond or more.
  sleep: async (ms) => {
    let left = Math.max(0, ms)
    while (left > 0) {
      const step = Math.min(left, MAX_TIMER_MS)
      await new Promise((resolve) => setTimeout(resolve, step))
      left -= step
    }
  }
}
