import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { NEW_ISSUE_LIMITS, readNewIssues } from '../../src/gate/new-issues.js'
import { SonarClient } from '../../src/sonar/client.js'
import type { ServerKind } from '../../src/sonar/server-kind.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { useMockServer } from '../../__fixtures__/msw.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'

const client = (kind: ServerKind = { cloud: false, version: [10, 7] }) =>
  new SonarClient({
    serverUrl: new URL(SERVER),
    token: 'squ_token',
    rootCert: undefined,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    random: () => 0.5,
    kind
  })

const context = { serverUrl: new URL(SERVER), locate: () => undefined }
const scope = { kind: 'new-code', branch: 'main' } as const

/** A server with `total` new issues, served 500 a page as api/issues/search does. */
function issues(total: number) {
  const pages: URLSearchParams[] = []
  server.use(
    http.get(`${SERVER}/api/issues/search`, ({ request }) => {
      const query = new URL(request.url).searchParams
      pages.push(query)
      const [page, size] = [Number(query.get('p')), Number(query.get('ps'))]
      const count = Math.max(0, Math.min(size, total - (page - 1) * size))
      return HttpResponse.json({
        paging: { pageIndex: page, pageSize: size, total },
        issues: Array.from({ length: count }, (_, i) => ({
          key: `AYIssue${(page - 1) * size + i}`,
          rule: 'java:S1144',
          message: 'm',
          component: 'shop:src/A.java',
          project: 'shop',
          severity: 'MAJOR'
        })),
        components: [],
        rules: []
      })
    })
  )
  return pages
}

describe('reading the new issues: one request per 500', () => {
  it('1,200 issues take three pages', async () => {
    const pages = issues(1200)
    const read = await readNewIssues(client(), 'shop', scope, context)
    expect(read).toMatchObject({ read: true, total: 1200, requests: 3 })
    expect(read.read && read.findings).toHaveLength(1200)
    expect(pages.map((query) => query.get('p'))).toEqual(['1', '2', '3'])
  })

  it('no issue is one request', async () => {
    issues(0)
    expect(await readNewIssues(client(), 'shop', scope, context)).toMatchObject({
      read: true,
      total: 0,
      requests: 1
    })
  })

  it(`stops at ${NEW_ISSUE_LIMITS.pages} pages (${NEW_ISSUE_LIMITS.issues} issues) and still says how many there are`, async () => {
    const pages = issues(25_000)
    const read = await readNewIssues(client(), 'shop', scope, context)
    expect(pages).toHaveLength(NEW_ISSUE_LIMITS.pages)
    expect(read).toMatchObject({ read: true, total: 25_000 })
    expect(read.read && read.findings).toHaveLength(NEW_ISSUE_LIMITS.issues)
  })

  it('a server that claims a million issues, every page full, is read 10 pages and no more', async () => {
    server.use(
      http.get(`${SERVER}/api/issues/search`, ({ request }) =>
        HttpResponse.json({
          paging: { total: 1_000_000 },
          issues: Array.from({ length: 500 }, (_, i) => ({
            key: `k${new URL(request.url).searchParams.get('p')}-${i}`,
            rule: 'r',
            message: 'm',
            component: 'c'
          }))
        })
      )
    )
    const read = await readNewIssues(client(), 'shop', scope, context)
    expect(read).toMatchObject({ read: true, requests: NEW_ISSUE_LIMITS.pages })
  })
})

describe('the issues never change the verdict: a failure is one reason', () => {
  it('a 403 (a token without Browse) says what permission is missing', async () => {
    server.use(
      http.get(`${SERVER}/api/issues/search`, () =>
        HttpResponse.json({ errors: [{ msg: 'Insufficient privileges' }] }, { status: 403 })
      )
    )
    const read = await readNewIssues(client(), 'shop', scope, context)
    expect(read).toEqual({
      read: false,
      reason: expect.stringMatching(/HTTP 403.*Browse permission/) as string
    })
  })

  it('a failure is not retried: one request, then the reason', async () => {
    let requests = 0
    server.use(
      http.get(`${SERVER}/api/issues/search`, () => {
        requests++
        return HttpResponse.json({ errors: [{ msg: 'indexing' }] }, { status: 503 })
      })
    )
    const read = await readNewIssues(client(), 'shop', scope, context)
    expect(requests).toBe(1)
    expect(read).toMatchObject({
      read: false,
      reason: expect.stringMatching(/^The new issues could not be read/) as string
    })
  })

  it('a reply that is not the server’s is a reason too', async () => {
    server.use(http.get(`${SERVER}/api/issues/search`, () => HttpResponse.json({ nope: 1 })))
    expect(await readNewIssues(client(), 'shop', scope, context)).toMatchObject({ read: false })
  })
})
