import { describe, expect, it } from 'vitest'
import { previousProcessingMs } from '../../bench/previous-analysis.js'

const ROUNDS = Array.from({ length: 20 }, (_, k) => k)
/** How long this analysis took against the previous one, round by round. */
const changes = (spread: 'wide' | 'close') =>
  ROUNDS.map((k) => 2000 / previousProcessingMs(2000, k, spread))

describe("the latency bench's previous analysis", () => {
  it('in the close run, each analysis takes within 15 % of the previous one', () => {
    for (const change of changes('close')) {
      expect(change).toBeGreaterThanOrEqual(0.85)
      expect(change).toBeLessThanOrEqual(1.15)
    }
  })

  it('the close run still spreads over most of that range in 20 rounds', () => {
    expect(Math.min(...changes('close'))).toBeLessThan(0.88)
    expect(Math.max(...changes('close'))).toBeGreaterThan(1.12)
  })

  it('the wide run goes beyond it, to 1/1.2–1.2, as real servers seldom do', () => {
    const wide = changes('wide')
    expect(Math.min(...wide)).toBeGreaterThanOrEqual(1 / 1.2 - 1e-9)
    expect(Math.max(...wide)).toBeLessThanOrEqual(1.2 + 1e-9)
    expect(wide.some((change) => change < 0.85 || change > 1.15)).toBe(true)
  })
})
