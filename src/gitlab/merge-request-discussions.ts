/**
 * Discussions on a merge request's diff for its most severe new issues, as GitLab's REST API
 * takes them (`POST /projects/:id/merge_requests/:iid/discussions` with a `position`: the
 * `diff_refs` commits, `position_type` text, `old_path`, `new_path` and the `new_line` the merge
 * request adds), at most `limit` a run, never two for one issue (a marker line carries its key),
 * and those whose issue a later run no longer reports resolved (`PUT .../discussions/:id` with
 * `resolved=true`). Only discussions the token's own user started are resolved or stand for an
 * issue's discussion; with that user unknown, none is resolved.
 */
import { SEVERITY_ORDER, bySeverity, type Finding, type Severity } from '../findings/finding.js'
import type { ChangedLines } from '../findings/changed-lines.js'
import { issueDiscussionBody, issueKeyOf } from '../report/issue-discussion.js'
import type { Sink } from '../sink.js'
import type { GitLabApi } from './gitlab-api.js'
import type { DiffRefs, MergeRequestChanges } from './merge-request-diffs.js'
import { mergeRequestPath, type MergeRequestRef } from './merge-request-note.js'

export const DISCUSSION_LIMITS = {
  /** The most discussions started a run, by default. */
  perRun: 10,
  /** Pages of 100 discussions read to find ours: 2,000 discussions. */
  pages: 20
} as const

/** A discussion carrying an issue's marker: its id, its issue, whether it is resolved and ours. */
interface IssueDiscussion {
  id: string
  issueKey: string
  resolved: boolean
  /** Started by the token's own user: only these are ever resolved. */
  ours: boolean
}

interface DiscussionOptions {
  /** The new issues of every analysis, narrowed to the merge request where they were. */
  findings: readonly Finding[]
  /**
   * Whether `findings` are every issue the analyses report: only then is a discussion whose
   * issue is not among them resolved (an issue not read is not gone).
   */
  complete: boolean
  changes: MergeRequestChanges
  diffRefs: DiffRefs
  /**
   * The token's own user's id; undefined when it could not be read: then no discussion is
   * resolved, and none is started for an issue any discussion already carries.
   */
  me: number | undefined
  /** At most this many new discussions a run. */
  limit: number
  /** The least severe issue that gets one. */
  lowest: Severity
  sink: Sink
}

/** What the run did: discussions started, and resolved. */
interface DiscussionsDone {
  started: number
  resolved: number
  /** Issues on the merge request's lines past the limit, left without a discussion. */
  leftOut: number
}

/**
 * Starts the discussions the new issues call for and resolves those of issues gone.
 *
 * @example await discussIssues(gitlab, mergeRequest, { findings, complete: true, changes, diffRefs, me, limit: 10, lowest: 'info', sink })
 */
export async function discussIssues(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef,
  options: DiscussionOptions
): Promise<DiscussionsDone> {
  const path = `${mergeRequestPath(mergeRequest)}/discussions`
  const keyed = await issueDiscussions(gitlab, path, options.me)
  const ours = keyed.filter((discussion) => discussion.ours)
  // Another's copy of an issue's marker does not stand in for ours, unless ours cannot be known.
  const discussed = new Set(
    (options.me === undefined ? keyed : ours).map(({ issueKey }) => issueKey)
  )
  const candidates = bySeverity(options.findings).flatMap((finding) => {
    if (discussed.has(finding.key)) return []
    if (SEVERITY_ORDER.indexOf(finding.severity) > SEVERITY_ORDER.indexOf(options.lowest)) {
      return []
    }
    const line = addedLineOf(finding, options.changes.lines)
    // A path is sent as it is (GitLab matches it to the diff): one that holds a secret is not.
    const file = finding.file ?? ''
    const old = options.changes.oldPaths.get(file) ?? file
    const safe = options.sink.text(file) === file && options.sink.text(old) === old
    return line === undefined || !safe ? [] : [{ finding, line }]
  })
  const now = candidates.slice(0, Math.max(0, options.limit))
  for (const { finding, line } of now) {
    const file = finding.file!
    await gitlab.request('POST', path, {
      body: {
        body: issueDiscussionBody(finding, options.sink),
        position: {
          position_type: 'text',
          ...options.diffRefs,
          old_path: options.changes.oldPaths.get(file) ?? file,
          new_path: file,
          new_line: line
        }
      }
    })
  }
  let resolved = 0
  if (options.complete) {
    const current = new Set(options.findings.map(({ key }) => key))
    for (const discussion of ours) {
      if (discussion.resolved || current.has(discussion.issueKey)) continue
      await gitlab.request('PUT', `${path}/${encodeURIComponent(discussion.id)}`, {
        body: { resolved: true }
      })
      resolved++
    }
  }
  return { started: now.length, resolved, leftOut: candidates.length - now.length }
}

/**
 * The first line of the finding's region that the merge request adds: a position's `new_line`
 * must be one, or GitLab refuses it (400, "line_code can't be blank"). A file whose diff GitLab
 * left out has no line known to be added.
 */
function addedLineOf(finding: Finding, lines: ChangedLines): number | undefined {
  if (finding.file === undefined || finding.region === undefined) return undefined
  const added = lines.get(finding.file)
  if (added === undefined || added === 'whole') return undefined
  const { startLine, endLine } = finding.region
  for (let line = startLine; line <= Math.min(endLine, startLine + 10_000); line++) {
    if (added.has(line)) return line
  }
  return undefined
}

/** The discussions whose first note carries an issue's marker, page by page. */
async function issueDiscussions(
  gitlab: GitLabApi,
  path: string,
  me: number | undefined
): Promise<IssueDiscussion[]> {
  const { items } = await gitlab.pages(path, {}, DISCUSSION_LIMITS.pages)
  return items.flatMap((item): IssueDiscussion[] => {
    const { id, notes } = (item ?? {}) as { id?: unknown; notes?: unknown }
    const first = (Array.isArray(notes) ? notes[0] : undefined) as
      { body?: unknown; author?: { id?: unknown }; resolved?: unknown } | undefined
    const issueKey = issueKeyOf(first?.body)
    if (typeof id !== 'string' || !/^[0-9a-f]{1,64}$/i.test(id) || issueKey === undefined) return []
    const ours = me !== undefined && first?.author?.id === me
    return [{ id, issueKey, resolved: first?.resolved === true, ours }]
  })
}
