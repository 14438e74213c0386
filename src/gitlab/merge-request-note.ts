/**
 * The decoration's writes on a GitLab merge request: one note per project, found again by its
 * hidden marker line and edited in place (never a second), and a commit status per project. Shapes
 * from GitLab's REST documentation: notes (`GET`, `POST`, `PUT
 * /projects/:id/merge_requests/:iid/notes[/:note_id]`, a body of at most 1,000,000 characters),
 * the current user (`GET /user`), commit statuses (`POST /projects/:id/statuses/:sha`: `state`,
 * `name`, `target_url` and `description`, each text at most 255 characters).
 */
import { carriesMarker } from '../report/pull-request-comment-body.js'
import { PlatformError } from '../http/rest-api.js'
import type { GitLabApi } from './gitlab-api.js'

export const NOTE_LIMITS = {
  /** GitLab's limit on a note's body. */
  bodyChars: 1_000_000,
  /** Pages of 100 notes read to find the project's: 2,000 notes. */
  notePages: 20
} as const

/** Where a merge request is: the project's id (or URL-encoded path) and the request's IID. */
export interface MergeRequestRef {
  projectId: string
  iid: string
}

/**
 * Writes `body` as the project's note on the merge request: edits the note the token's own user
 * wrote whose first line is `marker` (the body's own, hidden: see commentMarker), or creates it;
 * unless `write`, given the note found (or undefined), says to leave things as they are. Notes by anyone
 * else are never touched, so a note that copies the marker cannot take the verdict's place.
 *
 * @example await upsertNote(gitlab, { projectId: '7', iid: '42' }, marker, body) // { action: 'updated', id: 301 }
 */
export async function upsertNote(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef,
  marker: string,
  body: string,
  options: {
    /** Whether to write, given the note found (or undefined); by default always. */
    write?: (existing: string | undefined) => boolean
    /**
     * The token's own user's id, when the caller has read it (`ownUserId`); undefined when it could
     * not be read, and then no note is ours: a new one is written. Read here when not given.
     */
    me?: number | undefined
  } = {}
): Promise<{ action: 'created' | 'updated' | 'unchanged'; id: number | undefined }> {
  const { write = () => true } = options
  if (!body.startsWith(`${marker}\n`)) {
    throw new PlatformError('The note does not start with its marker line.')
  }
  if (body.length > NOTE_LIMITS.bodyChars) {
    throw new PlatformError(
      `The note has ${body.length} characters, more than GitLab's ${NOTE_LIMITS.bodyChars}.`
    )
  }
  const text = body
  const notes = `${mergeRequestPath(mergeRequest)}/notes`
  const me = 'me' in options ? options.me : await gitlab.ownUserId()
  const { items } = await gitlab.pages(
    notes,
    { sort: 'asc', order_by: 'created_at' },
    NOTE_LIMITS.notePages
  )
  const ours = items.find((note) => {
    const {
      body: noteBody,
      system,
      author
    } = (note ?? {}) as {
      body?: unknown
      system?: unknown
      author?: unknown
    }
    return (
      system !== true && me !== undefined && idOf(author) === me && carriesMarker(noteBody, marker)
    )
  })
  const id = idOf(ours)
  const existing = id === undefined ? undefined : String((ours as { body: string }).body)
  if (!write(existing)) return { action: 'unchanged', id }
  if (id !== undefined) {
    await gitlab.request('PUT', `${notes}/${id}`, { body: { body: text } })
    return { action: 'updated', id }
  }
  const created = idOf((await gitlab.request('POST', notes, { body: { body: text } })).body)
  if (created === undefined) throw new PlatformError('GitLab created the note but named no id.')
  return { action: 'created', id: created }
}

/** The merge request's address under the API: `projects/7/merge_requests/42`. */
export function mergeRequestPath({ projectId, iid }: MergeRequestRef): string {
  return `projects/${encodeURIComponent(projectId)}/merge_requests/${encodeURIComponent(iid)}`
}

/** An object's `id` when it is a positive whole number. */
function idOf(value: unknown): number | undefined {
  const id = (value as { id?: unknown } | null | undefined)?.id
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined
}
