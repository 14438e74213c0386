import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstHeaderValue } from '../src/http/request.js'
import { createLogger, jsonString } from '../src/log/logger.js'

describe('firstHeaderValue scans rawHeaders for the first value of a name', () => {
  it.each([
    ['authorization'],
    ['Authorization'],
    ['AUTHORIZATION'],
    ['aUtHoRiZaTiOn'],
    ['AuthorizatioN']
  ])('matches the name spelt %s', (spelling) => {
    expect(firstHeaderValue(['Host', 'h', spelling, 'tok'], 'authorization')).toBe('tok')
  })

  it('gives the first of repeated values, whatever their casing', () => {
    const raw = ['AUTHORIZATION', 'first', 'authorization', 'second', 'Authorization', 'third']
    expect(firstHeaderValue(raw, 'authorization')).toBe('first')
    expect(firstHeaderValue(['authorization', '', 'Authorization', 'x'], 'authorization')).toBe('')
  })

  it('ignores names of the same length or first letter that differ', () => {
    const raw = ['authorizatiom', 'a', 'Xuthorization', 'b', 'authorization-x', 'c', 'auth', 'd']
    expect(firstHeaderValue(raw, 'authorization')).toBeUndefined()
    expect(firstHeaderValue([], 'authorization')).toBeUndefined()
    // A name that only matches after non-ASCII case folding is not the header.
    expect(firstHeaderValue(['\u212Aey', 'kelvin'], 'key')).toBeUndefined()
    // Values are never taken for names.
    expect(firstHeaderValue(['x', 'authorization'], 'authorization')).toBeUndefined()
  })

  it('agrees with a plain toLowerCase scan for ASCII names', () => {
    const name = fc.stringMatching(/^[A-Za-z-]{0,15}$/)
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string())), (pairs) => {
        const raw = pairs.flat()
        const expected = pairs.find(([key]) => key.toLowerCase() === 'authorization')?.[1]
        expect(firstHeaderValue(raw, 'authorization')).toBe(expected)
      })
    )
  })
})

describe('jsonString gives the same text as JSON.stringify', () => {
  it.each([
    '',
    '/genre',
    '/a"b',
    '/a\\b',
    '/\u0000\u001f\u007f',
    'line\nbreak',
    'é😀',
    '\ud800',
    'x\udc00y'
  ])('for %j', (value) => {
    expect(jsonString(value)).toBe(JSON.stringify(value))
  })

  it('for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value))
      })
    )
  })
})

describe('logger.request writes the request line', () => {
  const NOW = Date.parse('2026-01-02T03:04:05.678Z')
  const linesOf = (level: 'info' | 'warn', act: (log: ReturnType<typeof createLogger>) => void) => {
    const lines: string[] = []
    act(
      createLogger(
        level,
        (line) => lines.push(line),
        () => NOW
      )
    )
    return lines
  }

  type RequestLine = [
    string,
    string,
    string,
    number,
    number,
    string | undefined,
    string | undefined
  ]
  /** The lines of `cases` through logger.request and through the generic info(). */
  const bothWays = (cases: RequestLine[]): [string[], string[]] => [
    linesOf('info', (log) => {
      for (const [id, method, path, status, durationMs, sub, reason] of cases) {
        log.request(id, method, path, status, durationMs, sub, reason)
      }
    }),
    linesOf('info', (log) => {
      for (const [id, method, path, status, durationMs, sub, reason] of cases) {
        log.info('request', { id, method, path, status, durationMs, sub, reason })
      }
    })
  ]

  it('the same text as info("request", fields)', () => {
    const cases: RequestLine[] = [
      ['a-1', 'GET', '/genre', 200, 0.21, 'user-1', undefined],
      ['a-2', 'POST', '/a"b\\c\n', 405, 12, 'we"ird\u0001', undefined],
      ['a-3', 'GET', '/', 200, 0, undefined, undefined],
      ['a-4', 'GET', '/x', 401, 1.5, undefined, 'missing'],
      ['a-5', 'GET', '/x', 401, 1.5, undefined, 'a "Bearer " prefix'],
      ['a-6', 'GET', '/genre', 200, 0.3, 'user-1', undefined],
      ['a-7', 'GET', '/genre', 200, 0.3, 'user-2', undefined]
    ]
    const [fast, slow] = bothWays(cases)
    expect(fast).toEqual(slow)
    expect(JSON.parse(fast[4] as string)).toEqual({
      time: '2026-01-02T03:04:05.678Z',
      level: 'info',
      msg: 'request',
      id: 'a-5',
      method: 'GET',
      path: '/x',
      status: 401,
      durationMs: 1.5,
      reason: 'a "Bearer " prefix'
    })
    expect(JSON.parse(fast[1] as string)).toEqual({
      time: '2026-01-02T03:04:05.678Z',
      level: 'info',
      msg: 'request',
      id: 'a-2',
      method: 'POST',
      path: '/a"b\\c\n',
      status: 405,
      durationMs: 12,
      sub: 'we"ird\u0001'
    })
  })

  it('the same text for any sequence of requests, repeats included (property)', () => {
    // Small pools, so that consecutive lines share and then change each part the logger
    // reuses from the line before: method, path, status, subject, reason.
    const line = fc.tuple(
      fc.constantFrom('1f-1', 'x"y', 'abc'),
      fc.constantFrom('GET', 'HEAD', 'OPTIONS'),
      fc.constantFrom('/genre', '/', '/a"b'),
      fc.constantFrom(200, 401, 404),
      fc.constantFrom(0, 0.07, 1.5, 12),
      fc.constantFrom(undefined, 'user-1', 'user-2', 'we"ird'),
      fc.constantFrom(undefined, 'expired', 'a "Bearer " prefix')
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (cases) => {
        const [fast, slow] = bothWays(cases)
        expect(fast).toEqual(slow)
      })
    )
  })

  it('nothing below info', () => {
    expect(
      linesOf('warn', (log) => log.request('i', 'GET', '/genre', 200, 1, 's', undefined))
    ).toEqual([])
  })
})
