import { describe, expect, it } from 'vitest'
import { cutToBytes, fitParts, partsOf } from '../../src/fit.js'

const items = (count: number) => Array.from({ length: count }, (_, index) => `<li>${index}</li>`)
const list = {
  head: '<ul>',
  foot: '</ul>',
  separator: '',
  tail: (n: number) => `<li>${n} more</li>`
}
const bytes = (text: string) => Buffer.byteLength(text)

describe('fitParts: every bounded destination fits its parts the same way', () => {
  it('writes every part, and no tail, when all fit', () => {
    expect(fitParts(items(3), { ...list, limit: 1000 })).toEqual({
      text: '<ul><li>0</li><li>1</li><li>2</li></ul>',
      shown: 3,
      leftOut: 0
    })
  })

  it('keeps the first parts in order and says how many more, within the limit', () => {
    const all = items(100)
    const fitted = fitParts(all, { ...list, limit: 120 })
    expect(bytes(fitted.text)).toBeLessThanOrEqual(120)
    expect(fitted.text.startsWith(`<ul>${all.slice(0, fitted.shown).join('')}`)).toBe(true)
    expect(fitted.text.endsWith(`<li>${fitted.leftOut} more</li></ul>`)).toBe(true)
    expect(fitted.shown + fitted.leftOut).toBe(100)
    // One more part with its tail would not have fit.
    const oneMore = `<ul>${all.slice(0, fitted.shown + 1).join('')}<li>${fitted.leftOut - 1} more</li></ul>`
    expect(bytes(oneMore)).toBeGreaterThan(120)
  })

  it("gives the tail room: the last part makes way for it, and the tail may use that part's place exactly", () => {
    const parts = ['aaaa', 'bbbb', 'cccc']
    // 'aaaa\nbbbb\ncccc' is 14 bytes; with 13, one part leaves: 'aaaa\nbbbb\n+1' is 12.
    expect(fitParts(parts, { limit: 13, tail: (n) => `+${n}` })).toMatchObject({
      text: 'aaaa\nbbbb\n+1',
      shown: 2
    })
    expect(fitParts(parts, { limit: 12, tail: (n) => `+${n}` }).text).toBe('aaaa\nbbbb\n+1')
    expect(fitParts(parts, { limit: 11, tail: (n) => `+${n}` }).text).toBe('aaaa\n+2')
  })

  it('measures bytes of UTF-8, not characters', () => {
    const fitted = fitParts(['é'.repeat(10), 'é'.repeat(10)], { limit: 25, tail: () => '…' })
    expect(fitted).toEqual({ text: `${'é'.repeat(10)}\n…`, shown: 1, leftOut: 1 })
    expect(bytes(fitted.text)).toBeLessThanOrEqual(25)
  })

  it('without a tail, drops what does not fit and counts it', () => {
    expect(fitParts(['a', 'b', 'c'], { limit: 3, separator: ',' })).toEqual({
      text: 'a,b',
      shown: 2,
      leftOut: 1
    })
  })

  it('when not even the frame fits, cuts it to the limit without splitting a character', () => {
    const fitted = fitParts(items(5), { head: 'ééé', tail: (n) => `${n} more`, limit: 5 })
    expect(fitted).toEqual({ text: 'éé', shown: 0, leftOut: 5 })
  })

  it('counts the `more` past a count limit in the tail, which it writes even when every part fits', () => {
    expect(fitParts(items(2), { ...list, limit: 1000, more: 3 })).toEqual({
      text: '<ul><li>0</li><li>1</li><li>3 more</li></ul>',
      shown: 2,
      leftOut: 3
    })
    expect(fitParts(items(2), { ...list, limit: 40, more: 3 })).toEqual({
      text: '<ul><li>0</li><li>4 more</li></ul>',
      shown: 1,
      leftOut: 4
    })
  })

  it('makes each part of partsOf only when it reaches it, and stops at the first that does not fit', () => {
    const made: number[] = []
    const parts = partsOf(
      Array.from({ length: 100_000 }, (_, index) => index),
      (index) => {
        made.push(index)
        return `<li>${index}</li>`
      }
    )
    const fitted = fitParts(parts, { head: '<ul>', foot: '</ul>', separator: '', limit: 40 })
    expect(fitted).toEqual({
      text: '<ul><li>0</li><li>1</li><li>2</li></ul>',
      shown: 3,
      leftOut: 99_997
    })
    expect(made).toEqual([0, 1, 2, 3])
  })

  it('stays one pass over many parts', () => {
    const many = Array.from({ length: 200_000 }, () => 'x'.repeat(10))
    const fitted = fitParts(many, { limit: 1_000_000, tail: (n) => `${n} more` })
    expect(fitted.shown).toBe(90_908)
    expect(bytes(fitted.text)).toBeLessThanOrEqual(1_000_000)
  })
})

describe('cutToBytes', () => {
  it('keeps whole characters', () => {
    expect(cutToBytes('a😀b', 4)).toBe('a')
    expect(cutToBytes('a😀b', 5)).toBe('a😀')
    expect(cutToBytes('abc', 10)).toBe('abc')
  })
})
