import { describe, expect, it } from 'vitest'
import { createBatchingSink } from '../src/log/sink.js'
import { createLogger, type LogLevel } from '../src/log/logger.js'

const NOW = Date.parse('2026-01-02T03:04:05.678Z')

function linesAt(level: LogLevel): Record<string, unknown>[] {
  const lines: string[] = []
  const logger = createLogger(
    level,
    (line) => lines.push(line),
    () => NOW
  )
  logger.error('e', { code: 1 })
  logger.warn('w')
  logger.info('i', { path: '/genre', sub: undefined, ok: true })
  logger.debug('d')
  return lines.map((line) => {
    expect(line.endsWith('\n')).toBe(true)
    return JSON.parse(line) as Record<string, unknown>
  })
}

describe('LOG_LEVEL selects which lines are written, one JSON object per line', () => {
  it.each([
    ['silent', []],
    ['error', ['e']],
    ['warn', ['e', 'w']],
    ['info', ['e', 'w', 'i']],
    ['debug', ['e', 'w', 'i', 'd']]
  ] as const)('%s writes %j', (level, messages) => {
    expect(linesAt(level).map((entry) => entry.msg)).toEqual(messages)
  })

  it('writes time, level, message and the defined fields', () => {
    expect(linesAt('info')[2]).toEqual({
      time: '2026-01-02T03:04:05.678Z',
      level: 'info',
      msg: 'i',
      path: '/genre',
      ok: true
    })
  })
})

describe('the batching sink writes once per turn of the event loop', () => {
  it('joins the lines written in one turn into one write', async () => {
    const writes: string[] = []
    const sink = createBatchingSink((text) => writes.push(text))
    sink.write('a\n')
    sink.write('b\n')
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toEqual(['a\nb\n'])
  })

  it('flush writes pending lines at once', () => {
    const writes: string[] = []
    const sink = createBatchingSink((text) => writes.push(text))
    sink.write('last\n')
    sink.flush()
    expect(writes).toEqual(['last\n'])
  })
})
