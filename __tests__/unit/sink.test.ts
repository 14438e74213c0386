import { describe, expect, it } from 'vitest'
import { actionHtmlSink, actionSink, commandSink } from '../../__fixtures__/sinks.js'
import { msg, place, setting } from '../../src/words.js'

const TOKEN = 'squ_0123456789abcdef'

describe('a sink says references in its edge’s words and hides every secret', () => {
  it('resolves references and redacts, in text and in every fitted part', () => {
    const sink = actionSink({ token: TOKEN })
    expect(sink.text(msg`raise ${setting('timeout')}: ${TOKEN}`)).toBe(
      'raise pollingTimeoutSec: ***'
    )
    const fitted = sink.fit([`a ${TOKEN}`, msg`see ${place('details')}`], {
      head: '[',
      foot: ']',
      separator: ','
    })
    expect(fitted.text).toBe('[a ***,see the job summary]')
    expect(commandSink().text(setting('timeout'))).toBe('--timeout')
  })

  it('measures what it writes: the parts once resolved, in its unit', () => {
    const sink = commandSink({ limit: 40, unit: 'characters' })
    const fitted = sink.fit(['é'.repeat(10), place('details'), 'x'], { tail: (n) => `+${n}` })
    expect(fitted.text).toBe(`${'é'.repeat(10)}\n+2`)
    expect(sink.size('é')).toBe(1)
    expect(actionSink().size('é')).toBe(2)
  })

  it('hiding: the same destination, hiding a second token too', () => {
    const sink = actionHtmlSink({ token: TOKEN, limit: 100 })
    const both = sink.hiding(['ghs_second_token_1234'])
    expect(both.text(`${TOKEN} ghs_second_token_1234`)).toBe('*** ***')
    expect(sink.text('ghs_second_token_1234')).toBe('ghs_second_token_1234')
    expect(both.limit).toBe(100)
  })
})
