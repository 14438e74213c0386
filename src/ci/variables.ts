/**
 * A CI variable read as untrusted: trimmed, and an address taken only when it is http(s) without
 * credentials. Apart from the CI's targets (review-targets.ts), so the action, which tells Gitea
 * and Forgejo Actions apart, loads none of those.
 */
import type { Said } from '../words.js'

type Env = NodeJS.ProcessEnv

/** What cannot be taken, in words that name the variable or the option. */
export interface Missing {
  missing: Said
}

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
