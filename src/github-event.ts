/**
 * GitHub Actions' event file (GITHUB_EVENT_PATH), read for the action and the command alike: the
 * objects of its payload, and a `pull_request` event's pull request. Every field is untrusted:
 * each is taken only once checked.
 */
import { readBoundedFile, type BoundedFile } from './bounded-file.js'
import { messageOf } from './errors.js'
import { isFullSha } from './settings.js'
import { oneLine, QUOTE_LIMITS } from './untrusted-text.js'

/** The most of a GitHub Actions run's event file read (GitHub caps webhook payloads at 25 MB). */
export const EVENT_FILE_BYTES = 25 * 1024 * 1024

/** The event's payload, or why it could not be read, in words. */
type EventFile = { payload: unknown } | { problem: string }

/** A `pull_request` event's pull request, as far as its file says it. */
interface EventPullRequest {
  number?: number
  /** Its head commit, in lower case, when the file gives a full SHA. */
  headSha?: string
  /** When it was last updated (a push to it, among others), as the file says: at most 40 characters. */
  updatedAt?: string
}

/**
 * The event file's payload, read within EVENT_FILE_BYTES, or why it could not be read.
 *
 * @example const file = await readEventFile(env['GITHUB_EVENT_PATH'])
 */
export async function readEventFile(path: string | undefined): Promise<EventFile> {
  if (!path) return { problem: 'GITHUB_EVENT_PATH is not set, so the pull request is unknown' }
  const read = await readBoundedFile(path, EVENT_FILE_BYTES)
  if (read.outcome !== 'read')
    return { problem: `the event file could not be read: ${unread(read)}` }
  try {
    return { payload: JSON.parse(read.bytes.toString('utf8')) as unknown }
  } catch (error) {
    return { problem: `the event file could not be read: ${quote(error)}` }
  }
}

/**
 * One object of the run's event payload (`pull_request`, `workflow_run`), or undefined when the
 * file is not given, cannot be read, is not JSON or holds no such object.
 *
 * @example const run = await eventObject(env['GITHUB_EVENT_PATH'], 'workflow_run')
 */
export async function eventObject(
  path: string | undefined,
  field: string
): Promise<Record<string, unknown> | undefined> {
  const file = await readEventFile(path)
  return 'payload' in file ? objectOf(objectOf(file.payload)?.[field]) : undefined
}

/**
 * The pull request a `pull_request` or `pull_request_target` payload names: each field only when
 * it is what it should be.
 *
 * @example pullRequestOf(payload) // { number: 42, headSha: 'be6c75b8…', updatedAt: '2026-…' }
 */
export function pullRequestOf(payload: unknown): EventPullRequest {
  const pull = objectOf(objectOf(payload)?.['pull_request'])
  const number = pull?.['number']
  const sha = objectOf(pull?.['head'])?.['sha']
  const updatedAt = pull?.['updated_at']
  return {
    ...(typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? { number } : {}),
    ...(typeof sha === 'string' && isFullSha(sha) ? { headSha: sha.toLowerCase() } : {}),
    ...(typeof updatedAt === 'string' ? { updatedAt: updatedAt.slice(0, 40) } : {})
  }
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** Why the event file was not read, in a few words. */
function unread(read: Exclude<BoundedFile, { outcome: 'read' }>): string {
  switch (read.outcome) {
    case 'missing':
    case 'unreadable':
      return quote(read.error)
    case 'not-a-file':
      return `it is ${read.kind}, not a regular file`
    case 'too-large':
      return `it is larger than ${EVENT_FILE_BYTES} bytes`
  }
}

/** An error's message fit to quote: one line, cut. The log's gate escapes it. */
function quote(error: unknown): string {
  return oneLine(messageOf(error), QUOTE_LIMITS.long)
}
