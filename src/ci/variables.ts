/**
 * A CI variable read as untrusted: trimmed, and an address taken only when it is http(s) without
 * credentials. Apart from the CI's targets (review-targets.ts), so the action, which tells Gitea
 * and Forgejo Actions apart, loads none of those.
 */
import { pullRequestOf, readEventFile } from '../github-event.js'
import { msg, setting, type Said } from '../words.js'

export type Env = NodeJS.ProcessEnv

/** What cannot be taken, in words that name the variable or the option. */
export interface Missing {
  missing: Said
}

/** What the settings give of a repository from any CI, each winning over the CI's. */
export interface Given {
  repository?: string | undefined
  /** The review's number or id. */
  pullRequest?: string | undefined
  commit?: string | undefined
}

/** A repository's `owner/name` on GitHub, Gitea and Forgejo. */
export const OWNER_REPO = /^([\w.-]{1,100})\/([\w.-]{1,100})$/

/** A pull request's number on GitHub, Gitea and Forgejo. */
export const PULL_NUMBER = /^[1-9][0-9]{0,9}$/

/** Neither the settings nor the CI name the commit to decorate as a full SHA. */
export const NO_COMMIT = msg`no commit to decorate: give ${setting('commit')} with the commit the scan analysed`

/** The variable's value, trimmed; undefined when unset or empty. */
export function variable(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined
}

/** An http(s) address without credentials, or undefined. */
export function httpUrl(value: string | undefined): URL | undefined {
  if (!value || !URL.canParse(value)) return undefined
  const url = new URL(value)
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    return undefined
  }
  return url
}

/**
 * A platform's API under its server's address (`/api/v4` on GitLab, `/api/v1` on Gitea), unless
 * the address already ends with it.
 */
export function apiBelow(server: URL, api: string): URL {
  const base = server.href.replace(/\/+$/, '')
  return new URL(base.endsWith(api) ? base : `${base}${api}`)
}

/**
 * On a `pull_request` or `pull_request_target` event of GitHub, Gitea or Forgejo Actions, its
 * pull request as the event file says it; undefined on any other event.
 */
export async function eventPullRequest(
  env: Env
): Promise<ReturnType<typeof pullRequestOf> | undefined> {
  const event = env['GITHUB_EVENT_NAME'] ?? ''
  if (event !== 'pull_request' && event !== 'pull_request_target') return undefined
  const file = await readEventFile(env['GITHUB_EVENT_PATH'])
  return pullRequestOf('payload' in file ? file.payload : undefined)
}
