import type { Clock } from '../src/clock.js'

/** A clock whose sleeps return at once and move time forward; records every sleep. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = []

  constructor(private time = 0) {}

  now(): number {
    return this.time
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms)
    this.time += ms
  }

  /** Moves time forward without a sleep (time a request took, say). */
  advance(ms: number): void {
    this.time += ms
  }
}
