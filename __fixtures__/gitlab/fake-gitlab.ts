/**
 * A GitLab REST API (v4) on loopback for the merge-request decoration's tests, its requests and
 * replies shaped from GitLab's documentation (doc/api/notes.md, discussions.md,
 * merge_requests.md, commits.md, rest/index.md) and sources (lib/api/entities/diff.rb,
 * app/models/diff_note.rb, lib/api/draft_notes.rb): one project (7) and its merge request (42),
 * the token's user, notes, diff discussions with positions (a `new_line` that is not an added line
 * is refused as GitLab refuses it: 400, "line_code can't be blank"), the discussions listing that
 * holds every note (a note in an individual discussion of its own), draft notes published at once
 * by `bulk_publish` (each becomes a discussion; every publishing counted), resolving, commit
 * statuses, the merge request's `diff_refs` and paged `diffs`, `x-next-page` pagination, and on
 * demand a refusal of every request (401, 403, 404) or 429 with `Retry-After` first.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const GITLAB_PROJECT = '7'
export const MERGE_REQUEST_IID = '42'
export const BOT = { id: 77, username: 'sonar-bot', name: 'Sonar bot' }
export const SOMEONE = { id: 5, username: 'mallory', name: 'Mallory' }

/** The merge request's diff commits, as `diff_refs` gives them. */
export const DIFF_REFS = {
  base_sha: 'b'.repeat(40),
  start_sha: 'c'.repeat(40),
  head_sha: 'd'.repeat(40)
}

export interface FakeNote {
  id: number
  body: string
  author: { id: number; username: string }
  system: boolean
  type?: string | null
  resolvable?: boolean
  resolved?: boolean
  position?: Record<string, unknown>
}

export interface FakeDiscussion {
  id: string
  individual_note: boolean
  notes: FakeNote[]
}

/** A file of the merge request's diff, as `GET .../diffs` gives it. */
export interface FakeDiff {
  old_path: string
  new_path: string
  diff: string
  new_file?: boolean
  renamed_file?: boolean
  deleted_file?: boolean
  too_large?: boolean
  collapsed?: boolean
}

export interface RecordedGitLabRequest {
  method: string
  path: string
  query: string
  privateToken: string | undefined
  authorization: string | undefined
  body: Record<string, unknown> | undefined
}

export interface FakeGitLabOptions {
  diffs?: FakeDiff[]
  notes?: FakeNote[]
  discussions?: FakeDiscussion[]
  /** Every request is refused with this status, as GitLab refuses a token that may not. */
  refuse?: 401 | 403 | 404
  /** The first N requests get 429 with Retry-After: 1. */
  tooManyFirst?: number
  /** GitLab before 15.7: no `.../diffs` (404), `.../changes` instead. */
  before157?: boolean
  /** diff_refs not computed yet (null). */
  noDiffRefs?: boolean
  /** The token GitLab takes; another is 401. */
  token?: string
  /** `GET /user` refused (403), or answered without the user's `id`: who the token is is unknown. */
  user?: 403 | 'no-id'
  /**
   * Draft notes: `absent` (a GitLab without them: 404), `refused` to the token (403), `no-position` (one whose API takes no
   * `position`: the draft keeps none), or the token's user's drafts already pending.
   */
  drafts?: 'absent' | 'refused' | 'no-position' | FakeDraft[]
  /** The draft written Nth (from 1) is refused: 400, as GitLab answers a draft it cannot save. */
  refuseDraft?: number
}

/** A draft note of the token's user, as `GET .../draft_notes` gives it. */
export interface FakeDraft {
  id: number
  author_id: number
  note: string
  position: Record<string, unknown> | null
}

/**
 * A unified diff that adds `count` lines after line `after` of a file (its lines after+1 to
 * after+count, new side), as GitLab's `diff` field holds it: from the hunk header, no file header.
 *
 * @example addingLines(2, 3) // '@@ -2,1 +2,4 @@\n context\n+added line 3\n+added line 4\n+added line 5'
 */
export function addingLines(after: number, count: number): string {
  const added = Array.from({ length: count }, (_, index) => `+added line ${after + 1 + index}`)
  return [`@@ -${after},1 +${after},${count + 1} @@`, ' context', ...added].join('\n')
}

/**
 * Starts the fake; `url` is its API address (`http://127.0.0.1:port/api/v4`), as CI_API_V4_URL.
 *
 * @example const gitlab = await startFakeGitLab({ diffs: [{ old_path: 'src/app.ts', new_path: 'src/app.ts', diff: addingLines(3, 5) }] })
 */
export async function startFakeGitLab(options: FakeGitLabOptions = {}) {
  const requests: RecordedGitLabRequest[] = []
  const notes: FakeNote[] = options.notes ?? []
  const discussions: FakeDiscussion[] = options.discussions ?? []
  const statuses: Record<string, unknown>[] = []
  const drafts: FakeDraft[] = Array.isArray(options.drafts) ? options.drafts : []
  /** How many drafts each `bulk_publish` published. */
  const reviews: number[] = []
  let draftsWritten = 0
  const diffs = options.diffs ?? []
  let nextId = 1000
  let tooMany = options.tooManyFirst ?? 0
  const mr = `/api/v4/projects/${GITLAB_PROJECT}/merge_requests/${MERGE_REQUEST_IID}`

  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://gitlab')
      let body: Record<string, unknown> | undefined
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined
      } catch {
        return send(response, 400, { message: '400 Bad request - body is not JSON' })
      }
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        privateToken: header(request, 'private-token'),
        authorization: header(request, 'authorization'),
        body
      })
      if (tooMany > 0) {
        tooMany--
        return send(response, 429, { message: 'Retry later' }, { 'retry-after': '1' })
      }
      const token = options.token ?? 'glpat-fake-token'
      if (header(request, 'private-token') !== token) {
        return send(response, 401, { message: '401 Unauthorized' })
      }
      if (options.refuse) {
        return send(response, options.refuse, { message: `${options.refuse} refused` })
      }
      route(request.method ?? 'GET', url, body, response)
    })
  })

  function route(
    method: string,
    url: URL,
    body: Record<string, unknown> | undefined,
    response: ServerResponse
  ): void {
    const path = url.pathname
    if (path === '/api/v4/user' && method === 'GET') {
      if (options.user === 403) return send(response, 403, { message: '403 Forbidden' })
      return send(response, 200, options.user === 'no-id' ? { username: BOT.username } : BOT)
    }
    if (path === mr && method === 'GET') {
      return send(response, 200, {
        iid: Number(MERGE_REQUEST_IID),
        project_id: Number(GITLAB_PROJECT),
        sha: DIFF_REFS.head_sha,
        source_branch: 'feature/login',
        target_branch: 'main',
        web_url: `http://gitlab.example/shop/-/merge_requests/${MERGE_REQUEST_IID}`,
        diff_refs: options.noDiffRefs ? null : DIFF_REFS
      })
    }
    if (path === `${mr}/diffs` && method === 'GET') {
      if (options.before157) return send(response, 404, { message: '404 Not Found' })
      return page(response, url, diffs)
    }
    if (path === `${mr}/changes` && method === 'GET') {
      return send(response, 200, { iid: Number(MERGE_REQUEST_IID), changes: diffs })
    }
    if (path === `${mr}/notes` && method === 'GET') return page(response, url, notes)
    if (path === `${mr}/notes` && method === 'POST') {
      const note = { id: nextId++, body: String(body?.['body']), author: BOT, system: false }
      notes.push(note)
      return send(response, 201, note)
    }
    const noteEdit = new RegExp(`^${mr}/notes/(\\d+)$`).exec(path)
    if (noteEdit && method === 'PUT') {
      const note = notes.find(({ id }) => id === Number(noteEdit[1]))
      if (!note) return send(response, 404, { message: '404 Note Not Found' })
      if (note.author.id !== BOT.id) return send(response, 403, { message: '403 Forbidden' })
      note.body = String(body?.['body'])
      return send(response, 200, note)
    }
    if (path === `${mr}/discussions` && method === 'GET') return page(response, url, everyNote())
    if (path === `${mr}/discussions` && method === 'POST') {
      const refused = refusedPosition(body?.['body'], body?.['position'])
      if (refused) return send(response, 400, refused)
      return send(response, 201, startDiscussion(String(body?.['body']), body?.['position']))
    }
    if (path.startsWith(`${mr}/draft_notes`)) return draftNotes(method, path, body, response)
    const resolve = new RegExp(`^${mr}/discussions/([0-9a-f]+)$`).exec(path)
    if (resolve && method === 'PUT') {
      const discussion = discussions.find(({ id }) => id === resolve[1])
      if (!discussion) return send(response, 404, { message: '404 Discussion Not Found' })
      if (typeof body?.['resolved'] !== 'boolean') {
        return send(response, 400, { error: 'resolved is missing' })
      }
      for (const note of discussion.notes) note.resolved = body['resolved']
      return send(response, 200, discussion)
    }
    const status = new RegExp(`^/api/v4/projects/${GITLAB_PROJECT}/statuses/([0-9a-f]{40})$`).exec(
      path
    )
    if (status && method === 'POST') {
      const state = body?.['state']
      if (!['pending', 'running', 'success', 'failed', 'canceled'].includes(String(state))) {
        return send(response, 400, { error: 'state does not have a valid value' })
      }
      for (const field of ['description', 'target_url', 'ref']) {
        if (String(body?.[field] ?? '').length > 255) {
          return send(response, 400, {
            message: { [field]: ['is too long (maximum is 255 characters)'] }
          })
        }
      }
      statuses.push({ sha: status[1], ...body })
      return send(response, 201, { id: nextId++, sha: status[1], ...body })
    }
    send(response, 404, { message: '404 Not Found' })
  }

  /**
   * GitLab's discussions listing: every note, a note written with `POST .../notes` in an
   * individual discussion of its own, in the order they were written.
   */
  function everyNote(): FakeDiscussion[] {
    const own = notes.map((note) => ({
      id: note.id.toString(16).padStart(40, '0'),
      individual_note: true,
      notes: [note]
    }))
    return [...own, ...discussions].sort((a, b) => (a.notes[0]?.id ?? 0) - (b.notes[0]?.id ?? 0))
  }

  /** Why GitLab refuses this note's body and position (400), or undefined when it takes them. */
  function refusedPosition(text: unknown, given: unknown): Record<string, string> | undefined {
    if (typeof text !== 'string' || text === '') return { error: 'body is missing' }
    if (!given) return undefined
    const position = given as Record<string, unknown>
    const sameRefs = Object.entries(DIFF_REFS).every(([key, sha]) => position[key] === sha)
    const file = diffs.find((diff) => diff.new_path === position['new_path'])
    const added = file ? addedOf(file.diff) : new Set<number>()
    const valid =
      position['position_type'] === 'text' &&
      sameRefs &&
      file &&
      position['old_path'] === file.old_path &&
      added.has(Number(position['new_line']))
    return valid
      ? undefined
      : {
          message:
            '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'
        }
  }

  /** A discussion started by the token's user: on the diff when a position is given. */
  function startDiscussion(text: string, position: unknown): FakeDiscussion {
    const note: FakeNote = {
      id: nextId++,
      body: text,
      author: BOT,
      system: false,
      type: position ? 'DiffNote' : 'DiscussionNote',
      resolvable: true,
      resolved: false,
      ...(position ? { position: position as Record<string, unknown> } : {})
    }
    const discussion = {
      id: (nextId++).toString(16).padStart(40, 'a'),
      individual_note: false,
      notes: [note]
    }
    discussions.push(discussion)
    return discussion
  }

  /** The token's user's draft notes: listed, created, deleted, and published all at once. */
  function draftNotes(
    method: string,
    path: string,
    body: Record<string, unknown> | undefined,
    response: ServerResponse
  ): void {
    if (options.drafts === 'absent') return send(response, 404, { message: '404 Not Found' })
    if (options.drafts === 'refused') return send(response, 403, { message: '403 Forbidden' })
    if (path === `${mr}/draft_notes` && method === 'GET') return send(response, 200, drafts)
    if (path === `${mr}/draft_notes` && method === 'POST') {
      const text = body?.['note']
      // GitLab checks a draft's position when it is published, not when it is written.
      if (typeof text !== 'string' || text === '')
        return send(response, 400, { error: 'note is missing' })
      if (++draftsWritten === options.refuseDraft) {
        return send(response, 400, {
          message: { note: ['is too long (maximum is 1000000 characters)'] }
        })
      }
      const position =
        options.drafts === 'no-position'
          ? null
          : ((body?.['position'] as FakeDraft['position']) ?? null)
      const draft = { id: nextId++, author_id: BOT.id, note: text, position }
      drafts.push(draft)
      return send(response, 201, draft)
    }
    if (path === `${mr}/draft_notes/bulk_publish` && method === 'POST') {
      for (const draft of drafts) {
        if (!refusedPosition(draft.note, draft.position))
          startDiscussion(draft.note, draft.position)
      }
      reviews.push(drafts.length)
      drafts.length = 0
      return send(response, 204, '')
    }
    const one = new RegExp(`^${mr}/draft_notes/(\\d+)$`).exec(path)
    const index = one ? drafts.findIndex(({ id }) => id === Number(one[1])) : -1
    if (one && method === 'DELETE' && index >= 0) {
      drafts.splice(index, 1)
      return send(response, 204, '')
    }
    send(response, 404, { message: '404 Not Found' })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/v4`,
    requests,
    notes,
    discussions,
    drafts,
    reviews,
    statuses,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeGitLab = Awaited<ReturnType<typeof startFakeGitLab>>

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(status === 204 ? undefined : JSON.stringify(body))
}

/** `page` and `per_page` (at most 100, default 20), `x-next-page` empty on the last page. */
function page(response: ServerResponse, url: URL, items: readonly unknown[]): void {
  const number = Number(url.searchParams.get('page') ?? '1')
  const size = Math.min(100, Number(url.searchParams.get('per_page') ?? '20'))
  const slice = items.slice((number - 1) * size, number * size)
  const more = number * size < items.length
  send(response, 200, slice, {
    'x-page': String(number),
    'x-per-page': String(size),
    'x-next-page': more ? String(number + 1) : '',
    'x-total': String(items.length)
  })
}

/** The new-side numbers of a diff's `+` lines. */
function addedOf(diff: string): Set<number> {
  const added = new Set<number>()
  let next: number | undefined
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line)
    if (hunk) next = Number(hunk[1])
    else if (next === undefined) continue
    else if (line.startsWith('+')) added.add(next++)
    else if (line.startsWith(' ')) next++
  }
  return added
}
