import { describe, expect, it } from 'vitest'
import { createTurnBatch } from '../src/http/turn-batch.js'

const fail = (error: unknown): never => {
  throw error
}
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('createTurnBatch hands over what one turn collected, together, after the turn', () => {
  it('writes nothing during the turn, then everything in the order it came', async () => {
    const written: number[] = []
    const add = createTurnBatch<number>((item) => written.push(item), fail)
    add(1)
    add(2)
    await Promise.resolve()
    add(3)
    expect(written).toEqual([])
    await nextTurn()
    expect(written).toEqual([1, 2, 3])
  })

  it('starts a new batch for items added while or after a batch is written', async () => {
    const written: string[] = []
    let add: (item: string) => void = () => undefined
    add = createTurnBatch<string>((item) => {
      written.push(item)
      if (item === 'first') add('added while writing')
    }, fail)
    add('first')
    await nextTurn()
    expect(written).toEqual(['first'])
    await nextTurn()
    expect(written).toEqual(['first', 'added while writing'])
    add('later')
    await nextTurn()
    expect(written).toEqual(['first', 'added while writing', 'later'])
  })

  it('writes the rest of a turn when one item fails, and reports the failure', async () => {
    const written: string[] = []
    const errors: unknown[] = []
    const add = createTurnBatch<string>(
      (item) => {
        if (item === 'bad') throw new TypeError('cannot write')
        written.push(item)
      },
      (error) => errors.push(error)
    )
    add('a')
    add('bad')
    add('b')
    await nextTurn()
    expect(written).toEqual(['a', 'b'])
    expect(errors).toEqual([new TypeError('cannot write')])
  })
})
