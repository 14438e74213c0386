/**
 * GitLab as a review platform: per project a commit status on the commit, and on a merge request
 * the project's note (GitLab renders the same HTML blocks as GitHub) and discussions on the diff
 * for the new issues. Shapes from GitLab's REST documentation:
 * - commit statuses: `POST /projects/:id/statuses/:sha` (`state`, `name`, `target_url`,
 *   `description`, each text at most 255 characters; `pipeline_id`);
 * - notes: `POST`, `PUT /projects/:id/merge_requests/:iid/notes[/:note_id]` (a body of at most
 *   1,000,000 characters); the current user: `GET /user`;
 * - the merge request's `diff_refs` (`GET /projects/:id/merge_requests/:iid`) and its files'
 *   diffs (`GET .../diffs`, 15.7 and later, paged; before, `GET .../changes`);
 * - discussions: `GET .../discussions` (every note of the merge request, each in its discussion:
 *   one listing finds the verdict notes and the diff discussions), `POST .../discussions` with a
 *   `position` (the `diff_refs` commits, `position_type` text, `old_path`, `new_path`, the
 *   `new_line` the merge request adds), and `PUT .../discussions/:id` with `resolved=true`;
 * - draft notes (lib/api/draft_notes.rb): `GET .../draft_notes` (the token's user's, unpaged),
 *   `POST .../draft_notes` (`note`, and the same `position`), `DELETE .../draft_notes/:id`, and
 *   `POST .../draft_notes/bulk_publish`, which publishes every pending draft of the token's user
 *   on the merge request as one review: one notification (app/workers/new_note_worker.rb sends
 *   none for a note of a review; the review's published event notifies once).
 */
import { PlatformError, PlatformRefusal } from '../../http/rest-api.js'
import {
  addedLines,
  cut,
  idOf,
  isNotFound,
  msg,
  oneLine,
  QUOTE_LIMITS,
  refusalSaid,
  type ChangedLines,
  type InlineComment,
  type InlineComments,
  type NewInlineComment,
  type ProjectVerdict,
  type Review,
  type ReviewPlatform,
  type Said,
  type VerdictComment
} from '../review-platform.js'
import type { GitLabApi } from './gitlab-api.js'

export const GITLAB_LIMITS = {
  /** GitLab's limit on a note's body. */
  noteChars: 1_000_000,
  /** Pages of 100 notes, or discussions, read to find ours: 2,000. */
  notePages: 20,
  /** Pages of 100 files of a diff: 3,000 files. */
  diffPages: 30,
  /** GitLab's limit on a commit status's texts. */
  statusChars: 255
} as const

/** Where the decoration goes: the GitLab project, its commit, and its merge request if any. */
export interface GitLabTarget {
  /** The project's id, or its URL-encoded path. */
  projectId: string
  /** The commit the statuses are set on. */
  sha: string
  /** The merge request's iid, when there is one. */
  mergeRequestIid: string | undefined
  /** The pipeline the statuses join, so a rule on its success sees them. */
  pipelineId: string | undefined
  /** What names each value, for the messages: `CI_PROJECT_ID`, or the setting given. */
  names: { project: Said; mergeRequest: Said; api: Said }
}

const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i

/**
 * The GitLab project and merge request `target` names, as a review platform.
 *
 * @example await decorate(gitlabPlatform(api, target), outcomes, options)
 */
export function gitlabPlatform(gitlab: GitLabApi, target: GitLabTarget): ReviewPlatform {
  const project = `projects/${encodeURIComponent(target.projectId)}`
  const iid = target.mergeRequestIid
  return {
    words: {
      name: 'GitLab',
      status: 'commit status',
      comment: 'note',
      check: msg`that ${target.names.api} is GitLab's REST API and that GitLab is up`
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.sha,
    setStatus: (verdict) => setStatus(gitlab, project, target, verdict),
    review:
      iid === undefined
        ? undefined
        : mergeRequest(
            gitlab,
            `${project}/merge_requests/${encodeURIComponent(iid)}`,
            iid,
            target.sha
          ),
    noReview: msg`Not a merge-request pipeline (no ${target.names.mergeRequest}): the commit statuses are set, and no note is written.`,
    close: () => gitlab.close()
  }
}

/** The project's commit status: success or failed as the policy judges the gate. */
async function setStatus(
  gitlab: GitLabApi,
  project: string,
  target: GitLabTarget,
  verdict: ProjectVerdict
): Promise<void> {
  const limit = GITLAB_LIMITS.statusChars
  const pipeline = target.pipelineId
  await gitlab.request('POST', `${project}/statuses/${encodeURIComponent(target.sha)}`, {
    body: {
      state: verdict.failing ? 'failed' : 'success',
      name: cut(`sonarqube/${verdict.label}`, limit),
      description: cut(verdict.words, limit),
      ...(verdict.dashboard && verdict.dashboard.length <= limit
        ? { target_url: verdict.dashboard }
        : {}),
      ...(pipeline && /^\d{1,20}$/.test(pipeline) ? { pipeline_id: Number(pipeline) } : {})
    }
  })
}

function mergeRequest(gitlab: GitLabApi, path: string, iid: string, sha: string): Review {
  const diff: Diff = { refs: undefined, oldPaths: new Map() }
  // One listing for the verdict notes and the diff discussions: GitLab's holds every note.
  let listed: Promise<Discussion[]> | undefined
  const listing = () => (listed ??= discussions(gitlab, `${path}/discussions`))
  return {
    name: `merge request !${iid}`,
    kind: 'merge request',
    commit: sha,
    markup: 'html',
    ownIdentity: () => gitlab.ownUserId(),
    async changedLines() {
      const changes = await readChangedLines(gitlab, path, diff.oldPaths)
      diff.refs = await readDiffRefs(gitlab, path)
      return changes
    },
    verdicts: {
      keyedBy: 'marker',
      async list() {
        return (await listing()).flatMap((discussion): VerdictComment[] => {
          const { body, system, author } = discussion.first
          const id = idOf(discussion.first)
          return id === undefined || system === true || typeof body !== 'string'
            ? []
            : [{ id, body, author: idOf(author) }]
        })
      },
      async create(_verdict, body) {
        checkNote(body)
        const reply = await gitlab.request('POST', `${path}/notes`, { body: { body } })
        const id = idOf(reply.body)
        if (id === undefined) throw new PlatformError('GitLab created the note but named no id.')
        return { id }
      },
      async update(note, body) {
        checkNote(body)
        await gitlab.request('PUT', `${path}/notes/${note.id}`, { body: { body } })
        return true
      }
    },
    inline: diffDiscussions(gitlab, path, iid, diff, listing)
  }
}

/** The merge request's latest diff, once read: its commits and each renamed file's old path. */
interface Diff {
  refs: DiffRefs | undefined
  oldPaths: Map<string, string>
}

/** The discussions on the diff: listed, started (as one review where GitLab can), resolved. */
function diffDiscussions(
  gitlab: GitLabApi,
  path: string,
  iid: string,
  diff: Diff,
  listing: () => Promise<Discussion[]>
): InlineComments {
  const positionOf = ({ file, line }: NewInlineComment) => ({
    position_type: 'text',
    ...diff.refs,
    old_path: diff.oldPaths.get(file) ?? file,
    new_path: file,
    new_line: line
  })
  return {
    step: 'the discussions on the diff',
    started: 'discussions started on the diff',
    resolved: 'resolved',
    notReady: () =>
      diff.refs
        ? undefined
        : `GitLab has not computed merge request !${iid}'s diff yet (no diff_refs): no discussions this run.`,
    list: async () =>
      (await listing()).map(({ id, first }): InlineComment => ({
        id,
        body: typeof first.body === 'string' ? first.body : undefined,
        resolved: first.resolved === true,
        author: idOf(first.author)
      })),
    async start(comments: readonly NewInlineComment[]) {
      // One discussion is one notification already, in one request.
      const why = comments.length > 1 ? await asOneReview(gitlab, path, comments, positionOf) : ''
      if (why === undefined) return undefined
      for (const comment of comments) {
        await gitlab.request('POST', `${path}/discussions`, {
          body: { body: comment.body, position: positionOf(comment) }
        })
      }
      return why && `GitLab: the discussions are started one by one, not as one review: ${why}.`
    },
    async resolve({ id }: InlineComment) {
      await gitlab.request('PUT', `${path}/discussions/${encodeURIComponent(id)}`, {
        body: { resolved: true }
      })
      return true
    }
  }
}

/** A note the API would refuse, refused before any request. */
function checkNote(body: string): void {
  if (body.length > GITLAB_LIMITS.noteChars) {
    throw new PlatformError(
      `The note has ${body.length} characters, more than GitLab's ${GITLAB_LIMITS.noteChars}.`
    )
  }
}

/** A discussion of the merge request: its id and its first note as GitLab sent it. */
interface Discussion {
  id: string
  first: { id?: unknown; body?: unknown; author?: unknown; resolved?: unknown; system?: unknown }
}

/** The discussions, page by page, each with its first note. */
async function discussions(gitlab: GitLabApi, path: string): Promise<Discussion[]> {
  const { items } = await gitlab.pages(path, {}, GITLAB_LIMITS.notePages)
  return items.flatMap((item): Discussion[] => {
    const { id, notes } = (item ?? {}) as { id?: unknown; notes?: unknown }
    const first = (Array.isArray(notes) ? notes[0] : undefined) as Discussion['first'] | undefined
    if (typeof id !== 'string' || !/^[0-9a-f]{1,64}$/i.test(id)) return []
    return [{ id, first: first ?? {} }]
  })
}

/**
 * The comments as draft notes published at once (`bulk_publish`): one review, one notification;
 * undefined when they went so. Otherwise why not, with nothing left behind: a GitLab without draft
 * notes for the token (404, 403), one that keeps no position on a draft (the draft is deleted), or
 * a token's user with drafts of their own pending, which publishing would send too (a person's
 * unsent review). Drafts this call made are deleted when it fails, so none stays pending.
 */
async function asOneReview(
  gitlab: GitLabApi,
  path: string,
  comments: readonly NewInlineComment[],
  positionOf: (comment: NewInlineComment) => Record<string, unknown>
): Promise<string | undefined> {
  let pending: unknown
  try {
    pending = (await gitlab.request('GET', `${path}/draft_notes`)).body
  } catch (error) {
    if (error instanceof PlatformRefusal && (error.status === 404 || error.status === 403)) {
      return `GitLab has no draft notes for this token (${error.status})`
    }
    throw error
  }
  if (!Array.isArray(pending)) return 'GitLab listed no draft notes'
  if (pending.length > 0) {
    return `the token's user has ${pending.length} draft note${pending.length === 1 ? '' : 's'} of their own pending on the merge request, which publishing would send too`
  }
  const made: number[] = []
  try {
    for (const comment of comments) {
      const position = positionOf(comment)
      const { body } = await gitlab.request('POST', `${path}/draft_notes`, {
        body: { note: comment.body, position }
      })
      const id = idOf(body)
      if (id === undefined) throw new PlatformError('GitLab created a draft note but named no id.')
      made.push(id)
      const kept = (body as { position?: Record<string, unknown> | null }).position
      if (kept?.['new_line'] !== position['new_line'] || kept?.['new_path'] !== comment.file) {
        await discard(gitlab, path, made)
        return 'GitLab kept no position on a draft note (it is deleted)'
      }
    }
    await gitlab.request('POST', `${path}/draft_notes/bulk_publish`)
    return undefined
  } catch (error) {
    await discard(gitlab, path, made)
    throw error
  }
}

/** Deletes the drafts this run made; one already published or gone is no failure. */
async function discard(gitlab: GitLabApi, path: string, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await gitlab.request('DELETE', `${path}/draft_notes/${id}`).catch(() => undefined)
  }
}

/** The commits of the merge request's latest diff version. */
interface DiffRefs {
  base_sha: string
  start_sha: string
  head_sha: string
}

/**
 * The merge request's `diff_refs`, or undefined while GitLab has not filled them (they are
 * computed after the merge request opens).
 */
async function readDiffRefs(gitlab: GitLabApi, path: string): Promise<DiffRefs | undefined> {
  const { body } = await gitlab.request('GET', path)
  const refs = (body as { diff_refs?: unknown } | null)?.diff_refs as
    Record<string, unknown> | null | undefined
  const sha = (name: string) => {
    const value = refs?.[name]
    return typeof value === 'string' && SHA.test(value) ? value : undefined
  }
  const [base, start, head] = [sha('base_sha'), sha('start_sha'), sha('head_sha')]
  return base && start && head ? { base_sha: base, start_sha: start, head_sha: head } : undefined
}

/**
 * The lines the merge request adds, file by file: from `.../diffs`, or on a GitLab before 15.7
 * (which answers it 404) from `.../changes`. A file whose diff GitLab left out (too large,
 * collapsed) counts as changed throughout; a deleted file has no lines. Each renamed file's old
 * path goes into `oldPaths` (a discussion's position names both).
 */
async function readChangedLines(
  gitlab: GitLabApi,
  path: string,
  oldPaths: Map<string, string>
): Promise<ChangedLines> {
  let files: unknown[]
  try {
    files = (await gitlab.pages(`${path}/diffs`, {}, GITLAB_LIMITS.diffPages)).items
  } catch (error) {
    if (!isNotFound(error)) throw error
    const { body } = await gitlab.request('GET', `${path}/changes`)
    const changes = (body as { changes?: unknown } | null)?.changes
    if (!Array.isArray(changes)) {
      throw new PlatformError('GitLab sent no changes for the merge request.')
    }
    files = changes
  }
  const lines: ChangedLines = new Map()
  for (const file of files) {
    const entry = (file ?? {}) as Record<string, unknown>
    const path = entry['new_path']
    if (typeof path !== 'string' || path === '' || entry['deleted_file'] === true) continue
    const diff = entry['diff']
    const left = entry['too_large'] === true || entry['collapsed'] === true
    lines.set(path, typeof diff === 'string' && diff !== '' && !left ? addedLines(diff) : 'whole')
    const old = entry['old_path']
    if (typeof old === 'string' && old !== '' && old !== path) oldPaths.set(path, old)
  }
  return lines
}

function refusalWords(error: PlatformRefusal, target: GitLabTarget): Said {
  const where = `project ${oneLine(target.projectId, QUOTE_LIMITS.short)}`
  const { project, mergeRequest } = target.names
  return refusalSaid('GitLab', error.status, {
    401: 'The token in GITLAB_TOKEN is not valid (401): give a project or group access token with the api scope (CI_JOB_TOKEN may not write notes or statuses).',
    403: `The token in GITLAB_TOKEN may not write to ${where} (403): it needs the api scope, and the Developer role to set commit statuses.`,
    404: msg`GitLab has no ${target.mergeRequestIid === undefined ? where : `merge request !${oneLine(target.mergeRequestIid, 40)} in ${where}`} for this token (404): check ${project} and ${mergeRequest}, and that the token's project or group is this one.`
  })
}
