/** Time as the action sees it; tests pass a fake that advances instantly. */
export interface Clock {
  /** Milliseconds on a monotonic-enough scale; only differences matter. */
  now(): number
  sleep(ms: number): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
}
