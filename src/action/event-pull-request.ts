import { pullRequestOf, readEventFile } from '../github-event.js'
import { oneLine } from '../untrusted-text.js'

/** The events whose pull request the action knows. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target']

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

/** The event files read, by path and repository. */
const eventsRead = new Map<string, Promise<EventPullRequest>>()

/**
 * The pull request of a `pull_request` or `pull_request_target` event, from the runner's event
 * file, and the repository from GITHUB_REPOSITORY; or why it cannot be known, in words. The file
 * is read once however many features ask.
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

/** owner/name from GITHUB_REPOSITORY, when it is one. */
export function repositoryOf(env: NodeJS.ProcessEnv): { owner: string; repo: string } | undefined {
  const name = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  return name ? { owner: name[1]!, repo: name[2]! } : undefined
}

async function readEventPullRequest(env: NodeJS.ProcessEnv): Promise<EventPullRequest> {
  const repository = repositoryOf(env)
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
      ...repository,
      issue_number: number,
      headSha,
      ...(updatedAt === undefined ? {} : { updatedAt })
    }
  }
}
