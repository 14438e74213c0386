/**
 * Which comments are the decoration's own, on every platform: a comment, note, discussion or
 * thread is ours only when it carries our marker (or our issue's key) **and** its author is the
 * token's own identity, read from the platform once a run. Anyone who may comment on the pull
 * request can copy a marker; nobody else can write as the token. When the identity cannot be
 * read, nothing is edited, resolved or closed: the verdict is written anew, and one line says so.
 */
import { messageOf } from '../errors.js'
import type { Log } from '../log.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * The token's own identity as `read` finds it, or undefined, said in one warning, when it cannot
 * be read (a refusal, a failure, a reply that names none). Never throws.
 *
 * @example const me = await ownIdentity(log, 'GitLab', () => gitlab.ownUserId()) // 77, or undefined
 */
export async function ownIdentity<T>(
  log: Pick<Log, 'info' | 'warning'>,
  platform: string,
  read: () => Promise<T | undefined>,
  {
    instead = 'the verdict is written anew, and nothing is edited, resolved or closed',
    level = 'warning'
  }: {
    /** What the platform does instead, said in the line; by default the rule above. */
    instead?: string
    /** `info` where an unknown identity is a token's ordinary case (Bitbucket's access tokens). */
    level?: 'info' | 'warning'
  } = {}
): Promise<T | undefined> {
  let why: string
  try {
    const identity = await read()
    if (identity !== undefined) return identity
    why = 'the reply names none'
  } catch (error) {
    why = messageOf(error)
  }
  log[level](
    `${platform}: the token's own identity could not be read (${oneLine(why, QUOTE_LIMITS.short)}), so no comment is known as ours: ${instead}.`
  )
  return undefined
}
