import { describe, expect, it } from 'vitest'
import { asksForTaskWarnings, firstAuthScheme, serverKind } from '../../src/sonar/server-kind.js'
import { parseTokenExpiration, tokenExpiryWarning } from '../../src/sonar/token-expiration.js'

describe('the server kind comes from the host, the organization and the serverVersion of the report', () => {
  it.each([
    ['https://sonarcloud.io', {}, { cloud: true, version: undefined }],
    ['https://api.sonarcloud.io', {}, { cloud: true, version: undefined }],
    ['https://sonarqube.us', {}, { cloud: true, version: undefined }],
    [
      'http://127.0.0.1:9000',
      { organization: 'my-org', serverVersion: '8.0.0.65736' },
      { cloud: true, version: undefined }
    ],
    [
      'https://sonar.example.com',
      { serverVersion: '8.9.10.61524' },
      { cloud: false, version: [8, 9] }
    ],
    [
      'https://sonar.example.com',
      { serverVersion: '10.7.0.96327' },
      { cloud: false, version: [10, 7] }
    ],
    [
      'https://sonar.example.com',
      { serverVersion: '2025.1.0.102418' },
      { cloud: false, version: [2025, 1] }
    ],
    [
      'https://sonar.example.com',
      { serverVersion: 'banana' },
      { cloud: false, version: undefined }
    ],
    ['https://notsonarcloud.io', {}, { cloud: false, version: undefined }]
  ])('%s %j', (url, report, kind) => {
    expect(serverKind(new URL(url), report)).toEqual(kind)
  })

  it('Bearer first on the cloud and from 10.0; Basic before and when unknown', () => {
    expect(firstAuthScheme({ cloud: true, version: undefined })).toBe('bearer')
    expect(firstAuthScheme({ cloud: false, version: [10, 0] })).toBe('bearer')
    expect(firstAuthScheme({ cloud: false, version: [2025, 3] })).toBe('bearer')
    expect(firstAuthScheme({ cloud: false, version: [9, 9] })).toBe('basic')
    expect(firstAuthScheme({ cloud: false, version: undefined })).toBe('basic')
  })

  it('warnings are asked for on the cloud and before 10.1', () => {
    expect(asksForTaskWarnings({ cloud: true, version: undefined })).toBe(true)
    expect(asksForTaskWarnings({ cloud: false, version: [10, 0] })).toBe(true)
    expect(asksForTaskWarnings({ cloud: false, version: [10, 1] })).toBe(false)
    expect(asksForTaskWarnings({ cloud: false, version: undefined })).toBe(false)
  })
})

describe("the token's expiry: read as servers write it, a warning within 7 days", () => {
  it.each([
    ['2025-06-01T00:00:00+0000', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01T02:00:00+0200', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01T00:00:00-05:00', '2025-06-01T05:00:00.000Z'],
    ['2025-06-01T00:00:00Z', '2025-06-01T00:00:00.000Z']
  ])('%s', (header, iso) => {
    expect(parseTokenExpiration(header)?.toISOString()).toBe(iso)
  })

  it.each([undefined, '', 'soon', '2025-06-01', '2025-13-45T99:00:00+0000'])(
    '%j is not a date',
    (header) => {
      expect(parseTokenExpiration(header)).toBeUndefined()
    }
  )

  const expiry = new Date('2025-06-08T00:00:00Z')
  it.each([
    ['2025-05-31T00:00:00Z', undefined],
    ['2025-06-01T00:00:00Z', 'The token expires in 7 days (2025-06-08)'],
    ['2025-06-07T00:00:00Z', 'The token expires in 1 day (2025-06-08)'],
    ['2025-06-07T12:00:00Z', 'The token expires today (2025-06-08)'],
    ['2025-06-09T00:00:00Z', 'The token has expired (2025-06-08)']
  ])('at %s: %s', (now, start) => {
    const warning = tokenExpiryWarning(expiry, Date.parse(now))
    if (start === undefined) expect(warning).toBeUndefined()
    else
      expect(warning).toMatch(
        new RegExp(`^${start.replace(/[()]/g, '\\$&')}: checks with it will fail`)
      )
  })
})
