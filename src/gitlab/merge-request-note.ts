/**
 * The decoration's writes on a GitLab merge request: one note per project, found again by a
 * hidden marker and edited in place (never a second), and a commit status per project. Shapes
 * from GitLab's REST documentation: notes (`GET`, `POST`, `PUT
 * /projects/:id/merge_requests/:iid/notes[/:note_id]`, a body of at most 1,000,000 characters),
 * the current user (`GET /user`), commit statuses (`POST /projects/:id/statuses/:sha`: `state`,
 * `name`, `target_url` and `description`, each text at most 255 characters).
 */
import { cut } from '../untrusted-text.js'
import { GitLabError, type GitLabApi } from './gitlab-api.js'

export const NOTE_LIMITS = {
  /** GitLab's limit on a note's body. */
  bodyChars: 1_000_000,
  /** Pages of 100 notes read to find the project's: 2,000 notes. */
  notePages: 20,
  /** GitLab's limit on a commit status's texts. */
  statusChars: 255
} as const

/**
 * The hidden first line of the project's note: an HTML comment GitLab does not render, the
 * project key in hex so that no key can end the comment or pass for another's.
 *
 * @example noteMarker('shop') // '<!-- sonar-quality-gate 73686f70 -->'
 */
export function noteMarker(projectKey: string): string {
  return `<!-- sonar-quality-gate ${Buffer.from(projectKey, 'utf8').toString('hex')} -->`
}

/** Where a merge request is: the project's id (or URL-encoded path) and the request's IID. */
export interface MergeRequestRef {
  projectId: string
  iid: string
}

/**
 * Writes `body` as the project's note on the merge request: edits the note the token's own user
 * wrote with the project's marker, or creates it. Notes by anyone else are never touched, so a
 * note that copies the marker cannot take the verdict's place.
 *
 * @example await upsertNote(gitlab, { projectId: '7', iid: '42' }, 'shop', body) // { action: 'updated', id: 301 }
 */
export async function upsertNote(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef,
  projectKey: string,
  body: string
): Promise<{ action: 'created' | 'updated'; id: number }> {
  const marker = noteMarker(projectKey)
  const text = `${marker}\n${body}`
  if (text.length > NOTE_LIMITS.bodyChars) {
    throw new GitLabError(
      `The note for ${projectKey} has ${text.length} characters, more than GitLab's ${NOTE_LIMITS.bodyChars}.`
    )
  }
  const notes = `${mergeRequestPath(mergeRequest)}/notes`
  const me = idOf((await gitlab.request('GET', 'user')).body)
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
      system !== true &&
      me !== undefined &&
      idOf(author) === me &&
      typeof noteBody === 'string' &&
      noteBody.startsWith(marker)
    )
  })
  const id = idOf(ours)
  if (id !== undefined) {
    await gitlab.request('PUT', `${notes}/${id}`, { body: { body: text } })
    return { action: 'updated', id }
  }
  const created = idOf((await gitlab.request('POST', notes, { body: { body: text } })).body)
  if (created === undefined) throw new GitLabError('GitLab created the note but named no id.')
  return { action: 'created', id: created }
}

/** A commit status's state, as GitLab names them. */
export type CommitState = 'pending' | 'running' | 'success' | 'failed' | 'canceled'

/**
 * The project's commit status on `sha` (`name` sonarqube/<project>), so that a merge-request rule
 * can require it: its description cut to GitLab's 255 characters, the dashboard as its target
 * when its address fits.
 */
export async function setCommitStatus(
  gitlab: GitLabApi,
  status: {
    projectId: string
    sha: string
    projectKey: string
    state: CommitState
    description: string
    targetUrl: string | undefined
  }
): Promise<void> {
  const name = cut(`sonarqube/${status.projectKey}`, NOTE_LIMITS.statusChars)
  const targetUrl =
    status.targetUrl && status.targetUrl.length <= NOTE_LIMITS.statusChars
      ? { target_url: status.targetUrl }
      : {}
  await gitlab.request(
    'POST',
    `projects/${encodeURIComponent(status.projectId)}/statuses/${encodeURIComponent(status.sha)}`,
    {
      body: {
        state: status.state,
        name,
        description: cut(status.description, NOTE_LIMITS.statusChars),
        ...targetUrl
      }
    }
  )
}

function mergeRequestPath({ projectId, iid }: MergeRequestRef): string {
  return `projects/${encodeURIComponent(projectId)}/merge_requests/${encodeURIComponent(iid)}`
}

/** An object's `id` when it is a positive whole number. */
function idOf(value: unknown): number | undefined {
  const id = (value as { id?: unknown } | null | undefined)?.id
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined
}
