/**
 * GitLab's REST API as the decoration uses it, against real loopback servers: the token to the
 * API's origin only and never in a message, no redirect followed, 429 tried again after
 * Retry-After within the time-out, 401/403/404 refused at once, replies bounded, pages followed
 * up to a bound.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { GitLabApi } from '../../src/platforms/gitlab/gitlab-api.js'
import { PlatformError, PlatformRefusal, REST_LIMITS } from '../../src/http/rest-api.js'

const TOKEN = 'glpat-0123456789abcdefghij'

interface Seen {
  method: string
  url: string
  token: string | undefined
  body: string
}

/** A loopback server answering each request with `answer`, recording what it saw. */
async function serve(
  answer: (request: IncomingMessage, response: ServerResponse, seen: Seen[]) => void
) {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        token: request.headers['private-token'] as string | undefined,
        body
      })
      answer(request, response, seen)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const json = (response: ServerResponse, status: number, body: unknown, headers = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

function api(url: string, clock = new FakeClock(), deadline = 60_000) {
  return new GitLabApi({
    apiUrl: new URL(`${url}/api/v4`),
    token: TOKEN,
    userAgent: 'test',
    clock,
    deadline,
    random: () => 0.5
  })
}

describe('GitLabApi.request', () => {
  it('sends the token in PRIVATE-TOKEN and the body as JSON, under the API address', async () => {
    const gitlab = await serve((_, response) => json(response, 201, { id: 5, body: 'note' }))
    const reply = await api(gitlab.url).request('POST', 'projects/7/merge_requests/42/notes', {
      body: { body: 'hello' }
    })
    expect(reply).toEqual({ status: 201, body: { id: 5, body: 'note' }, nextPage: undefined })
    expect(gitlab.seen).toEqual([
      {
        method: 'POST',
        url: '/api/v4/projects/7/merge_requests/42/notes',
        token: TOKEN,
        body: '{"body":"hello"}'
      }
    ])
  })

  it('a path that leaves the API address is refused before any request', async () => {
    const gitlab = await serve((_, response) => json(response, 200, {}))
    for (const path of ['https://elsewhere.example.com/steal', '../../admin', '//evil.example/x']) {
      await expect(api(gitlab.url).request('GET', path)).rejects.toThrow(
        `Refusing to send the GitLab token outside`
      )
    }
    expect(gitlab.seen).toEqual([])
  })

  it('a redirect is not followed: the token never reaches where it points', async () => {
    const elsewhere = await serve((_, response) => json(response, 200, {}))
    const gitlab = await serve((_, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/api/v4/projects/7` })
      response.end()
    })
    const error = await api(gitlab.url)
      .request('GET', 'projects/7')
      .catch((thrown: Error) => thrown)
    expect(error).toBeInstanceOf(PlatformError)
    expect((error as Error).message).toBe(
      'GitLab answered 302 to GET projects/7: a redirect, not followed (the token would go with it). Set CI_API_V4_URL to the address GitLab answers at.'
    )
    expect(elsewhere.seen).toEqual([])
  })

  it('429: tried again after Retry-After, once the clock allows', async () => {
    const gitlab = await serve((_, response, seen) =>
      seen.length === 1
        ? json(response, 429, { message: 'Too Many Requests' }, { 'retry-after': '7' })
        : json(response, 200, [])
    )
    const clock = new FakeClock()
    await expect(api(gitlab.url, clock).request('GET', 'projects/7')).resolves.toMatchObject({
      status: 200
    })
    expect(clock.sleeps).toEqual([7000])
    expect(gitlab.seen).toHaveLength(2)
  })

  it('429 asking to wait past the time-out: not waited, said with the server’s words', async () => {
    const gitlab = await serve((_, response) =>
      json(response, 429, { message: 'Too Many Requests' }, { 'retry-after': '120' })
    )
    const clock = new FakeClock()
    const error = await api(gitlab.url, clock, 30_000)
      .request('GET', 'projects/7')
      .catch((thrown: Error) => thrown)
    expect((error as Error).message).toMatch(
      /^GitLab answered 429 to GET projects\/7: Too Many Requests\. The server asked to wait 120 s/
    )
    expect(clock.sleeps).toEqual([])
  })

  it('401, 403 and 404 are refusals, never tried again; the token is out of their words', async () => {
    for (const status of [401, 403, 404]) {
      const gitlab = await serve((_, response) =>
        json(response, status, { message: `${status} Forbidden for ${TOKEN}` })
      )
      const error = await api(gitlab.url)
        .request('POST', 'projects/7/statuses/abc')
        .catch((thrown: Error) => thrown)
      expect(error).toBeInstanceOf(PlatformRefusal)
      expect((error as PlatformRefusal).status).toBe(status)
      expect((error as Error).message).toBe(
        `GitLab answered ${status} to POST projects/7/statuses/abc: ${status} Forbidden for ***`
      )
      expect(gitlab.seen).toHaveLength(1)
    }
  })

  it('a reply larger than the bound fails, said once', async () => {
    const gitlab = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      for (let i = 0; i <= REST_LIMITS.replyBytes / chunk.length; i++) response.write(chunk)
      response.end('[]')
    })
    await expect(api(gitlab.url).request('GET', 'projects/7')).rejects.toThrow(
      'the reply body is larger than 16 MB, the most that is read'
    )
  })
})

describe('GitLabApi.pages', () => {
  it('follows x-next-page with 100 a page, up to the bound, and says whether it saw all', async () => {
    const gitlab = await serve((request, response) => {
      const page = Number(new URL(request.url ?? '', 'http://x').searchParams.get('page'))
      json(response, 200, [{ page }], page < 5 ? { 'x-next-page': String(page + 1) } : {})
    })
    const all = await api(gitlab.url).pages(
      'projects/7/merge_requests/42/notes',
      { sort: 'asc' },
      10
    )
    expect(all).toEqual({ items: [1, 2, 3, 4, 5].map((page) => ({ page })), complete: true })
    expect(gitlab.seen[0]!.url).toBe(
      '/api/v4/projects/7/merge_requests/42/notes?sort=asc&per_page=100&page=1'
    )
    const some = await api(gitlab.url).pages('projects/7/merge_requests/42/notes', {}, 2)
    expect(some).toEqual({ items: [{ page: 1 }, { page: 2 }], complete: false })
  })

  it('a next page that does not move forward ends the listing: no loop', async () => {
    const gitlab = await serve((_, response) => json(response, 200, [1], { 'x-next-page': '1' }))
    await expect(api(gitlab.url).pages('projects/7/x', {}, 50)).resolves.toEqual({
      items: [1],
      complete: true
    })
    expect(gitlab.seen).toHaveLength(1)
  })
})
