/**
 * GitHub's failures as the action's GitHub features tell them apart: the platforms' REST policy's
 * own errors (PlatformRefusal, PlatformError) with GitHub's status and words as fields, from the
 * real GitHubApi the action makes, given replies by msw; anything else that only looks like one
 * is no refusal.
 */
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { useMockServer } from '../../__fixtures__/msw.js'
import {
  GitHubApi,
  githubSaid,
  isRateLimit,
  isRefusal,
  statusOf
} from '../../src/platforms/github/github-api.js'
import { systemClock } from '../../src/clock.js'
import { PlatformError, PlatformRefusal } from '../../src/http/rest-api.js'

const API = 'https://api.github.test'
const COMMENTS = `${API}/repos/octo/app/issues/7/comments`

const server = useMockServer()

/** What GitHubApi throws when GitHub's API answers every try with `reply`. */
async function githubFailure(reply: () => Response): Promise<unknown> {
  let tries = 0
  server.use(
    http.get(COMMENTS, () => {
      tries++
      return reply()
    })
  )
  const api = new GitHubApi({
    token: 'ghs_token',
    apiUrl: API,
    deadline: Date.now() + 30_000,
    clock: systemClock
  })
  try {
    return await api
      .request('GET', 'repos/octo/app/issues/7/comments')
      .then(() => undefined)
      .catch((error: unknown) => Object.assign(error as object, { tries }))
  } finally {
    api.close()
  }
}

const replyWith =
  (status: number, message: string, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json({ message }, { status, headers })

describe('a reply GitHub refused with is a PlatformRefusal, told apart by its status', () => {
  it('a 403 that is no rate limit: a refusal, with what GitHub said', async () => {
    const error = await githubFailure(
      replyWith(403, 'Resource not accessible by integration', { 'x-ratelimit-remaining': '42' })
    )
    expect(error).toBeInstanceOf(PlatformRefusal)
    expect(statusOf(error)).toBe(403)
    expect(isRefusal(error)).toBe(true)
    expect(isRateLimit(error)).toBe(false)
    expect(githubSaid(error)).toMatch(/^GitHub said: 403 Resource not accessible by integration/)
  })

  it('a 404: a refusal too (the token may not see what was asked)', async () => {
    const error = await githubFailure(replyWith(404, 'Not Found'))
    expect(isRefusal(error)).toBe(true)
    expect(githubSaid(error)).toMatch(/^GitHub said: 404 Not Found/)
  })

  it('a 403 or 429 with no requests left: the rate limit, not a refusal', async () => {
    for (const status of [403, 429]) {
      const error = await githubFailure(
        replyWith(status, 'API rate limit exceeded', {
          'x-ratelimit-remaining': '0',
          'retry-after': '3600'
        })
      )
      expect(isRateLimit(error)).toBe(true)
      expect(isRefusal(error)).toBe(false)
    }
  })

  it('a 500: neither, after at most 4 tries (as Octokit’s retry plugin makes)', async () => {
    const error = await githubFailure(replyWith(500, 'Server Error'))
    expect(error).toBeInstanceOf(PlatformError)
    expect(statusOf(error)).toBe(500)
    expect(isRefusal(error)).toBe(false)
    expect(isRateLimit(error)).toBe(false)
    expect((error as { tries: number }).tries).toBe(4)
    expect(githubSaid(error)).toBe('GitHub said: 500 Server Error')
  })
})

describe('no reply, or a failure that is not the REST policy’s, is never a refusal', () => {
  it('no reply: said as none, with why', async () => {
    const error = await githubFailure(() => HttpResponse.error())
    expect(error).toBeInstanceOf(PlatformError)
    expect(statusOf(error)).toBeUndefined()
    expect(isRefusal(error)).toBe(false)
    expect(githubSaid(error)).toMatch(/^no reply from GitHub's API: \S/)
  })

  it('an object shaped like a 403 reply is not taken for one', () => {
    const lookalike = Object.assign(new Error('Forbidden'), {
      status: 403,
      answer: { status: 403, said: 'Forbidden', rateLimited: true },
      response: { headers: { 'x-ratelimit-remaining': '0' } }
    })
    expect(statusOf(lookalike)).toBeUndefined()
    expect(isRefusal(lookalike)).toBe(false)
    expect(isRateLimit(lookalike)).toBe(false)
    expect(githubSaid(lookalike)).toBe("no reply from GitHub's API: Forbidden")
  })
})

describe('GraphQL beside the REST API', () => {
  it.each([
    ['https://api.github.test', 'https://api.github.test/graphql'],
    ['https://ghe.example.test/api/v3', 'https://ghe.example.test/api/graphql']
  ])('REST at %s: GraphQL at %s, its data returned', async (apiUrl, graphqlUrl) => {
    server.use(
      http.post(graphqlUrl, () => HttpResponse.json({ data: { viewer: { databaseId: 7 } } }))
    )
    const api = new GitHubApi({
      token: 'ghs_token',
      apiUrl,
      deadline: Date.now() + 30_000,
      clock: systemClock
    })
    try {
      await expect(api.graphql('query { viewer { databaseId } }')).resolves.toEqual({
        viewer: { databaseId: 7 }
      })
    } finally {
      api.close()
    }
  })

  it('GraphQL’s own errors are a PlatformError naming the first', async () => {
    server.use(
      http.post(`${API}/graphql`, () =>
        HttpResponse.json({ errors: [{ message: 'Something went wrong' }] })
      )
    )
    const api = new GitHubApi({
      token: 'ghs_token',
      apiUrl: API,
      deadline: Date.now() + 30_000,
      clock: systemClock
    })
    try {
      await expect(api.graphql('query { viewer { databaseId } }')).rejects.toThrow(
        "GitHub's GraphQL API answered: Something went wrong"
      )
    } finally {
      api.close()
    }
  })
})
