/**
 * What the settings say of a project's pull-request comment, note or thread, and its bounds: apart
 * from the body's rendering (pull-request-comment-body.ts), so a run that writes no comment loads
 * none of it.
 */
import { QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * How large a comment may be. GitHub refuses a comment body over 65,536 characters: the
 * comment's sink counts UTF-16 units (never fewer than characters) within `githubChars`, and the
 * comment keeps under `chars` whatever the server sends.
 */
export const COMMENT_LIMITS = {
  /** GitHub's own limit on a comment body: the comment sink's limit. */
  githubChars: 65_536,
  /** What commentBody aims for. */
  chars: 60_000,
  /** Conditions listed; past them (or past the room left) "… and N more". */
  conditions: 50,
  /** New issues listed, most severe first. */
  issues: 10,
  /** Characters of the project key or source the marker names. */
  markerKeyChars: QUOTE_LIMITS.long
} as const

/** When a project's comment or note is written: always, only while it fails, or when its verdict changed. */
export const COMMENT_WHEN = ['always', 'failed', 'changed'] as const

export type CommentWhen = (typeof COMMENT_WHEN)[number]
