/**
 * The hotspots to review: the query in each server generation's parameters, and the server's own
 * example of the reply (hotspot/ws/search-example.json), its untrusted fields bounded.
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { syncBuiltinESMExports } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { hotspotsExample } from '../../__fixtures__/sonarqube/index.js'
import { SonarClient } from '../../src/sonar/client.js'
import { decodeHotspotsPage, hotspotsQuery } from '../../src/sonar/hotspots.js'

const SERVER = 'https://sonar.example.com'

describe('hotspotsQuery', () => {
  it('a branch: its new code, sinceLeakPeriod before 9.5, inNewCodePeriod from 9.5 and on the cloud', () => {
    const scope = { kind: 'new-code', branch: 'main' } as const
    expect(hotspotsQuery('shop', scope, { cloud: false, version: [9, 4] }).toString()).toBe(
      'projectKey=shop&status=TO_REVIEW&ps=5&p=1&branch=main&sinceLeakPeriod=true'
    )
    for (const kind of [
      { cloud: false, version: [9, 5] as const },
      { cloud: false, version: [2025, 1] as const },
      { cloud: false, version: undefined },
      { cloud: true, version: undefined }
    ]) {
      expect(hotspotsQuery('shop', scope, kind).get('inNewCodePeriod')).toBe('true')
    }
  })

  it('a pull request: its own hotspots, no new-code filter (the server ignores it there)', () => {
    const query = hotspotsQuery(
      'shop',
      { kind: 'pull-request', pullRequest: '42' },
      { cloud: false, version: [10, 7] }
    )
    expect(query.toString()).toBe('projectKey=shop&status=TO_REVIEW&ps=5&p=1&pullRequest=42')
  })
})

describe('decodeHotspotsPage', () => {
  it("reads the server's example: each hotspot's file, line and probability, and the count", () => {
    const path = 'src/main/java/com/sonarsource/FourthClass.java'
    expect(decodeHotspotsPage(hotspotsExample)).toEqual({
      total: 3,
      hotspots: [10, 11, 12].map((line, index) => ({
        key: `hotspot-${index}`,
        message: `message-${index}`,
        path,
        line,
        probability: 'LOW'
      }))
    })
  })

  it('what the server never writes is left out or not believed; a reply without hotspots is refused', () => {
    const page = decodeHotspotsPage({
      paging: { total: 1 },
      hotspots: [
        { key: 'h1', message: 'm', line: -3, vulnerabilityProbability: 'SEVERE\n::error::x' },
        { message: 'no key' },
        'not an object',
        ...Array.from({ length: 10 }, (_, i) => ({ key: `x${i}`, message: 'm' }))
      ]
    })
    expect(page.hotspots[0]).toEqual({
      key: 'h1',
      message: 'm',
      path: undefined,
      line: undefined,
      probability: undefined
    })
    expect(page.hotspots).toHaveLength(5)
    // A count smaller than the hotspots sent is not the server's: their number stands.
    expect(page.total).toBe(11)
    expect(() => decodeHotspotsPage({ issues: [] })).toThrow('hotspots')
  })
})

describe('SonarClient.getHotspots', () => {
  const server = setupServer()
  beforeAll(() => {
    syncBuiltinESMExports()
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(() => server.close())

  it("asks in the server's generation's words, reads its example, and is not tried again", async () => {
    const asked: string[] = []
    server.use(
      http.get(`${SERVER}/api/hotspots/search`, ({ request }) => {
        asked.push(new URL(request.url).search)
        return asked.length === 1
          ? HttpResponse.json(hotspotsExample)
          : HttpResponse.json({ errors: [{ msg: 'busy' }] }, { status: 503 })
      })
    )
    const client = new SonarClient({
      serverUrl: new URL(SERVER),
      token: 'squ_test',
      rootCert: undefined,
      userAgent: 'test',
      kind: { cloud: false, version: [9, 9] },
      clock: new FakeClock(),
      deadline: 60_000,
      random: () => 0.5
    })
    const page = await client.getHotspots('shop', { kind: 'new-code', branch: 'main' })
    expect(page.total).toBe(3)
    expect(asked).toEqual([
      '?projectKey=shop&status=TO_REVIEW&ps=5&p=1&branch=main&inNewCodePeriod=true'
    ])
    await expect(
      client.getHotspots('shop', { kind: 'pull-request', pullRequest: '7' })
    ).rejects.toThrow()
    expect(asked).toHaveLength(2)
  })
})
