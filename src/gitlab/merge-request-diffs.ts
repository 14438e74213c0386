/**
 * What a merge request changes, as GitLab's REST API says it: its `diff_refs` (the three commits
 * a diff discussion's position names: `GET /projects/:id/merge_requests/:iid`), and its files'
 * diffs (`GET .../diffs`, 15.7 and later, paged; before 15.7 `GET .../changes`, one reply), from
 * which the lines it adds. Bounded: at most 30 pages of 100 files, each diff read no further than
 * changed-lines.ts reads a patch.
 */
import { addedLines, type ChangedLines } from '../findings/changed-lines.js'
import { PlatformError, PlatformRefusal } from '../http/rest-api.js'
import type { GitLabApi } from './gitlab-api.js'
import { mergeRequestPath, type MergeRequestRef } from './merge-request-note.js'

const DIFF_LIMITS = { pages: 30 } as const

/** The commits of the merge request's latest diff version. */
export interface DiffRefs {
  base_sha: string
  start_sha: string
  head_sha: string
}

/** The lines the merge request adds per new path, and each renamed file's old path. */
export interface MergeRequestChanges {
  lines: ChangedLines
  /** The old path of a renamed file, by its new path (a position names both). */
  oldPaths: ReadonlyMap<string, string>
}

const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i

/**
 * The merge request's `diff_refs`, or undefined while GitLab has not filled them (they are
 * computed after the merge request opens).
 */
export async function readDiffRefs(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef
): Promise<DiffRefs | undefined> {
  const { body } = await gitlab.request('GET', mergeRequestPath(mergeRequest))
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
 * collapsed) counts as changed throughout; a deleted file has no lines.
 */
export async function readChangedLines(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef
): Promise<MergeRequestChanges> {
  let files: unknown[]
  try {
    const { items } = await gitlab.pages(
      `${mergeRequestPath(mergeRequest)}/diffs`,
      {},
      DIFF_LIMITS.pages
    )
    files = items
  } catch (error) {
    if (!(error instanceof PlatformRefusal && error.status === 404)) throw error
    const { body } = await gitlab.request('GET', `${mergeRequestPath(mergeRequest)}/changes`)
    const changes = (body as { changes?: unknown } | null)?.changes
    if (!Array.isArray(changes))
      throw new PlatformError('GitLab sent no changes for the merge request.')
    files = changes
  }
  const lines: ChangedLines = new Map()
  const oldPaths = new Map<string, string>()
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
  return { lines, oldPaths }
}
