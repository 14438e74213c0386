/**
 * GitHub's failures as the action's GitHub features tell them apart: Octokit's own error
 * (RequestError) with its status and reply, from the real Octokit the action makes, given
 * replies by its `fetch`; anything else that only looks like one is no refusal.
 */
import { RequestError } from '@octokit/request-error'
import { describe, expect, it } from 'vitest'
import {
  connect,
  githubSaid,
  isRateLimit,
  isRefusal,
  statusOf
} from '../../src/action/github-api.js'
import type { Log } from '../../src/log.js'

const API = 'https://api.github.test'

const quiet: Log = {
  info: () => {},
  warning: () => {},
  notice: () => {},
  startGroup: () => {},
  endGroup: () => {}
}

/** What Octokit throws when GitHub's API answers with `reply` (or when fetch itself fails). */
async function octokitFailure(reply: () => Response): Promise<unknown> {
  const fetch: typeof globalThis.fetch = () => Promise.resolve(reply())
  const octokit = await connect('ghs_token', API, { log: quiet, fetch })
  return octokit.rest.issues
    .listComments({ owner: 'octo', repo: 'app', issue_number: 7 })
    .then(() => undefined)
    .catch((error: unknown) => error)
}

const replyWith =
  (status: number, message: string, headers: Record<string, string> = {}) =>
  () =>
    Response.json({ message }, { status, headers })

describe('a reply GitHub refused with is Octokit’s RequestError, told apart by its status', () => {
  it('a 403 that is no rate limit: a refusal, with what GitHub said', async () => {
    const error = await octokitFailure(
      replyWith(403, 'Resource not accessible by integration', { 'x-ratelimit-remaining': '42' })
    )
    expect(error).toBeInstanceOf(RequestError)
    expect(statusOf(error)).toBe(403)
    expect(isRefusal(error)).toBe(true)
    expect(isRateLimit(error)).toBe(false)
    expect(githubSaid(error)).toMatch(/^GitHub said: 403 Resource not accessible by integration/)
  })

  it('a 404: a refusal too (the token may not see what was asked)', async () => {
    const error = await octokitFailure(replyWith(404, 'Not Found'))
    expect(isRefusal(error)).toBe(true)
    expect(githubSaid(error)).toMatch(/^GitHub said: 404 Not Found/)
  })

  it('a 403 or 429 with no requests left: the rate limit, not a refusal', async () => {
    for (const status of [403, 429]) {
      const error = await octokitFailure(
        replyWith(status, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' })
      )
      expect(isRateLimit(error)).toBe(true)
      expect(isRefusal(error)).toBe(false)
    }
  })

  it('a 500: neither', async () => {
    const error = await octokitFailure(replyWith(500, 'Server Error'))
    expect(statusOf(error)).toBe(500)
    expect(isRefusal(error)).toBe(false)
    expect(isRateLimit(error)).toBe(false)
  })
})

describe('no reply, or a failure that is not Octokit’s, is never a refusal', () => {
  it('fetch failing: Octokit’s error without a reply says there was none', async () => {
    const error = await octokitFailure(() => {
      throw new TypeError('fetch failed')
    })
    expect(error).toBeInstanceOf(RequestError)
    expect(isRefusal(error)).toBe(false)
    expect(githubSaid(error)).toBe("no reply from GitHub's API: fetch failed")
  })

  it('an object shaped like a 403 reply is not taken for one', () => {
    const lookalike = Object.assign(new Error('Forbidden'), {
      status: 403,
      response: { headers: { 'x-ratelimit-remaining': '0' } }
    })
    expect(statusOf(lookalike)).toBeUndefined()
    expect(isRefusal(lookalike)).toBe(false)
    expect(isRateLimit(lookalike)).toBe(false)
    expect(githubSaid(lookalike)).toBe("no reply from GitHub's API: Forbidden")
  })
})
