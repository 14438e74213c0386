import { describe, expect, it } from 'vitest'
import { range } from '../../bench/stats.js'

describe('a figure over several runs is printed as its range, min–max', () => {
  it('gives the lowest and the highest value, whatever the order of the runs', () => {
    expect(range([0.93, 0.91, 0.95], 2)).toBe('0.91–0.95')
  })

  it('gives one value when the runs agree at the printed precision', () => {
    expect(range([101.2, 100.8, 101.4])).toBe('101')
    expect(range([7], 1)).toBe('7.0')
  })

  it('rounds each end to the given digits', () => {
    expect(range([45282.4, 50082.6])).toBe('45282–50083')
  })

  it('leaves out runs without the figure, and says - when no run has it', () => {
    expect(range([Number.NaN, 98, 104])).toBe('98–104')
    expect(range([])).toBe('-')
    expect(range([Number.NaN])).toBe('-')
  })
})
