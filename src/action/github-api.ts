/**
 * GitHub's API as the action's GitHub features use it (the pull-request comment, the issues
 * check run, the lines a pull request changes): the event's pull request, an Octokit whose
 * replies are bounded and whose own messages go through the log, and GitHub's failures in words,
 * recognised as Octokit's RequestError. `@actions/github` is loaded here only, so a run that uses
 * none of them never loads it.
 */
import type { getOctokit } from '@actions/github'
import { RequestError } from '@octokit/request-error'
import { EVENT_FILE_BYTES, pullRequestOf, readEventFile } from '../github-event.js'
import { messageOf } from '../errors.js'
import type { Log } from '../log.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/** The events whose pull request the action knows. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target']

export const GITHUB_API_LIMITS = {
  /** The event payload file (GitHub caps webhook payloads at 25 MB). */
  eventFileBytes: EVENT_FILE_BYTES,
  /** One reply of the API (100 comments of 65,536 characters, JSON-escaped, fit). */
  replyBytes: 64 * 1024 * 1024
} as const

const DEFAULT_API_URL = 'https://api.github.com'

export type Octokit = ReturnType<typeof getOctokit>

/** The repository, and the pull request of the event with the commit it is at. */
export interface PullRequest {
  owner: string
  repo: string
  issue_number: number
  headSha: string
  /** When the pull request was last updated (a push to it, among others), as the event says. */
  updatedAt?: string
}

type EventPullRequest = { pullRequest: PullRequest } | { problem: string }

/** The event files read, by path and repository: each is read once per run. */
const eventsRead = new Map<string, Promise<EventPullRequest>>()

/**
 * The pull request of a `pull_request` or `pull_request_target` event, from the event file, and
 * the repository from GITHUB_REPOSITORY; or why it cannot be known, in words. The file is read
 * once however many features ask.
 */
export function eventPullRequest(env: NodeJS.ProcessEnv): Promise<EventPullRequest> {
  const key = `${env['GITHUB_EVENT_PATH'] ?? ''}\n${env['GITHUB_REPOSITORY'] ?? ''}`
  let read = eventsRead.get(key)
  if (!read) {
    read = readEventPullRequest(env)
    eventsRead.set(key, read)
  }
  return read
}

async function readEventPullRequest(env: NodeJS.ProcessEnv): Promise<EventPullRequest> {
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  if (!repository) {
    return {
      problem: `GITHUB_REPOSITORY is not owner/name (${oneLine(env['GITHUB_REPOSITORY'] ?? '')})`
    }
  }
  const file = await readEventFile(env['GITHUB_EVENT_PATH'])
  if ('problem' in file) return file
  const { number, headSha, updatedAt } = pullRequestOf(file.payload)
  if (number === undefined) return { problem: 'the event file names no pull request number' }
  if (headSha === undefined) return { problem: 'the event file names no head commit' }
  return {
    pullRequest: {
      owner: repository[1]!,
      repo: repository[2]!,
      issue_number: number,
      headSha,
      ...(updatedAt === undefined ? {} : { updatedAt })
    }
  }
}

/** The API's address without a trailing slash, or undefined when it is not http(s). */
export function apiBase(value: string | undefined): string | undefined {
  const text = value?.trim() || DEFAULT_API_URL
  try {
    const url = new URL(text)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    if (url.username || url.password) return undefined
    return url.href.replace(/\/+$/, '')
  } catch {
    return undefined
  }
}

/**
 * `@actions/github`'s Octokit, loaded only now, with replies bounded in size and its own
 * warnings written to the log as information. `fetch` is the tests'; by default
 * `@actions/github`'s, which honours proxies.
 */
export async function connect(
  token: string,
  baseUrl: string,
  { log, fetch: given }: { log: Log; fetch?: typeof globalThis.fetch }
): Promise<Octokit> {
  const [{ getOctokit }, { defaults }] = await Promise.all([
    import('@actions/github'),
    import('@actions/github/lib/utils')
  ])
  const fetch: typeof globalThis.fetch =
    given ?? (defaults.request?.fetch as typeof globalThis.fetch | undefined) ?? globalThis.fetch
  const quiet = {
    debug: () => {},
    info: () => {},
    warn: (message: string) => log.info(`GitHub's API: ${oneLine(message, QUOTE_LIMITS.long)}`),
    error: (message: string) => log.info(`GitHub's API: ${oneLine(message, QUOTE_LIMITS.long)}`)
  }
  return getOctokit(token, {
    baseUrl,
    log: quiet,
    request: { fetch: boundedFetch(fetch, GITHUB_API_LIMITS.replyBytes), log: quiet }
  })
}

/** A fetch whose replies fail once their body passes `maxBytes`. */
function boundedFetch(fetch: typeof globalThis.fetch, maxBytes: number): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!response.body) return response
    if (Number(response.headers.get('content-length')) > maxBytes) {
      await response.body.cancel()
      throw new Error(`GitHub's API replied with more than ${maxBytes} bytes`)
    }
    let bytes = 0
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength
          if (bytes > maxBytes) {
            controller.error(new Error(`GitHub's API replied with more than ${maxBytes} bytes`))
          } else {
            controller.enqueue(chunk)
          }
        }
      })
    )
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
    Object.defineProperty(bounded, 'url', { value: response.url })
    return bounded
  }
}

/** A 403 or 404 from GitHub: the token may not write (or see) what was asked. */
export function isRefusal(error: unknown): boolean {
  const status = statusOf(error)
  return (status === 403 || status === 404) && !isRateLimit(error)
}

/** A 403 or 429 that GitHub's rate limit gave. */
export function isRateLimit(error: unknown): boolean {
  if (!(error instanceof RequestError)) return false
  return (
    (error.status === 403 || error.status === 429) &&
    (error.response?.headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(error.message))
  )
}

/** What GitHub said, or that it did not reply: Octokit gives a request with no reply status 500 too. */
export function githubSaid(error: unknown): string {
  return error instanceof RequestError && error.response
    ? `GitHub said: ${error.status} ${quote(error)}`
    : `no reply from GitHub's API: ${quote(error)}`
}

/** The HTTP status of Octokit's error (RequestError); undefined for any other failure. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof RequestError ? error.status : undefined
}

/** An error's message fit to quote: one line, cut. The log's gate escapes it. */
export function quote(error: unknown): string {
  return oneLine(cut(messageOf(error), QUOTE_LIMITS.long), QUOTE_LIMITS.long)
}
