import { vi } from 'vitest'

/**
 * The key set's back-off and jose's cooldown read Date.now(): tests fake only Date (timers stay
 * real), start at START and move the date forward with `advance`.
 */
export const START = Date.parse('2026-01-01T00:00:00Z')

export function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms)
}
