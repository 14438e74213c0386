/**
 * What a review platform is to the decoration: the one interface every platform under
 * `src/platforms/` implements, and everything a platform may use besides the HTTP layer. A
 * platform only moves what the driver (`decorate.ts`, which holds the rules they share) hands it
 * to its API and back: the driver decides what is said, which comments are ours, and what is
 * written, started and resolved.
 *
 * To add a platform: a folder here with a `ReviewPlatform`, and one row in the table of
 * `src/cli/decoration.ts`, which opens it. docs/architecture.md says more.
 */
import type { Clock } from '../clock.js'
import type { ChangedLines } from '../findings/changed-lines.js'
import type { Finding } from '../findings/finding.js'
import { PlatformRefusal, type RestApi } from '../http/rest-api.js'
import { msg, type Said } from '../words.js'
import { cut, oneLine } from '../untrusted-text.js'

export type { Clock } from '../clock.js'
export { addedLines, type ChangedLines } from '../findings/changed-lines.js'
export { findingAnnotation, LEVEL_OF_SEVERITY } from '../findings/annotations.js'
export { bySeverity, type Finding, type Severity } from '../findings/finding.js'
export { severityIn } from '../findings/severity-scales.js'
export { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
export { msg, setting, type Said } from '../words.js'

/** The token's own identity on a platform: a user's, an account's or a bot's id. */
export type Identity = string | number

/** One project's verdict as a platform shows it, every text already through the sink. */
export interface ProjectVerdict {
  /** The project key as the server names it: only ever digested into an id (`digestId`). */
  key: string
  /** The project key as sent (through the sink, whole). */
  label: string
  /** The project key on one line, for the log. */
  name: string
  /** Whether the platform shows it failed: the gate fails the policy, or was not read. */
  failing: boolean
  /** A project this run did not analyse (`allProjects`): shown passing, neutral where it can be. */
  notAnalysed?: true
  /** The verdict in one line (`Quality Gate failed: 2 of 7 conditions failed`). */
  words: string
  /** The analysis's dashboard on the server (http(s), without credentials), when known. */
  dashboard: string | undefined
  /** The new issues read, most severe first. */
  findings: readonly Finding[]
  /** How many new issues the server counts, when they were read. */
  newIssues: number | undefined
  /** The verdict and the first new issues as HTML blocks, within `limit` characters. */
  reportHtml(limit: number): string
  /** A text the platform sends, through the sink: every form of every secret hidden. */
  say(text: string): string
  /** The figures a report shows: the gate, the new issues, the new code's coverage, duplication. */
  figures: readonly Figure[]
}

/** One figure of a report, as Code Insights' data fields take them. */
export interface Figure {
  title: string
  type: 'TEXT' | 'NUMBER' | 'PERCENTAGE'
  value: string | number
}

/** A verdict's comment on the review (a note, a comment, a thread's first comment). */
export interface VerdictComment {
  id: number
  body: string
  author: Identity | undefined
  /** The project key its property names, where the platform keeps it apart (`keyedBy`). */
  project?: string | undefined
}

/** A comment on one issue's line (a discussion, a review comment, a thread). */
export interface InlineComment {
  id: string
  /** Its first comment: its marker line names its issue, unless the platform keeps it apart. */
  body: string | undefined
  /** The issue key its property names, where the platform keeps it apart. */
  issueKey?: string | undefined
  resolved: boolean
  author: Identity | undefined
}

/** An issue's comment to start: its finding, the line it goes on, and its body. */
export interface NewInlineComment {
  finding: Finding
  /** The file as the review names it (a path without a secret in it). */
  file: string
  line: number
  body: string
}

/** A platform's words: its name, what it calls each thing it writes, and what to check. */
export interface PlatformWords {
  /** `GitLab`, `Bitbucket`, `Azure DevOps`, `GitHub`, `Gitea`: the first word of its lines. */
  name: string
  /** What a status is called: `commit status`, `build status`, `status`. */
  status: string
  /** What the verdict's comment is called: `note`, `comment`, `thread`. */
  comment: string
  /** What a report is called (`report` by default; GitHub's: `check run`). */
  report?: string
  /** What to check when the platform does not answer as its API does. */
  check: Said
}

/**
 * A platform the decoration writes to, for one commit and, when the CI names one, one review (a
 * pull or merge request). Each method is one step: its failure, whatever it is, ends the
 * decoration with one warning (a refusal in the platform's own words: `refusal`).
 */
export interface ReviewPlatform {
  readonly words: PlatformWords
  /** The one warning for a refusal (401, 403, 404): what the token or the review lacks. */
  refusal(error: PlatformRefusal): Said
  /** The project's status on the commit, so that a rule can require it. */
  setStatus?(verdict: ProjectVerdict): Promise<void>
  /**
   * The project's report on the commit, with its new issues: how many annotations it has, or
   * what was done instead, in one line.
   */
  writeReport?(verdict: ProjectVerdict): Promise<number | Said>
  /** The commit decorated. */
  readonly commit: string
  /** The review, when the CI names one and the platform may write to it. */
  readonly review: Review | undefined
  /** Why there is no review to write to, said in one line, when there is none. */
  readonly noReview?: Said | undefined
  /** Ends the kept-alive connections. */
  close(): void
}

/** How a platform's review takes the decoration's comments. */
export interface Review {
  /** `merge request !7`, `pull request #7`. */
  name: string
  /** What the platform calls a review: `merge request`, `pull request`. */
  kind: string
  /** The commit the verdict's comment names. */
  commit: string
  /** The comments' markup and their limit, in characters. */
  markup: 'html' | 'markdown'
  /** At most this many characters a comment (default: the comment's own bound, GitHub's). */
  commentChars?: number
  /**
   * The token's own identity, or undefined when the reply names none. `identity` says how an
   * unknown one is taken: said as a `warning` (the default), or as `info` where it is a token's
   * ordinary case, and what the platform does `instead`.
   */
  ownIdentity(): Promise<Identity | undefined>
  identity?: { level: 'info' | 'warning'; instead: string }
  /** The lines the review changes (`whole` files where the platform gives files, not lines). */
  changedLines?(): Promise<ChangedLines>
  /** Whether `changedLines` names lines (the default) or files. */
  granularity?: 'lines' | 'files'
  verdicts: VerdictComments
  inline?: InlineComments
}

/** The verdict comments of a review: one per project, ours found again and edited in place. */
interface VerdictComments {
  /** A comment names its project by its marker line, or by its project key (a property). */
  keyedBy: 'marker' | 'project'
  /** Listed once a run, bounded. */
  list(): Promise<VerdictComment[]>
  /** Writes a new one; its id and author, when the reply names them. */
  create(
    verdict: ProjectVerdict,
    body: string
  ): Promise<{ id?: number | undefined; author?: Identity | undefined }>
  /** Edits it in place; false when it is gone (deleted since it was listed). */
  update(comment: VerdictComment, body: string): Promise<boolean>
  /**
   * Where a platform may delete: with the identity unknown, the earlier comments carrying the
   * marker whose author the reply to `create` names (the token's own, then) are deleted.
   */
  remove?(comment: VerdictComment): Promise<void>
}

/** Comments on the issues' lines: started together where the platform can, resolved when gone. */
export interface InlineComments {
  /** The step's name and the log's words: `discussions started on the diff`, `resolved`. */
  step: string
  started: string
  resolved: string
  /** Listed once a run, bounded; `identity`, when the platform asks it, narrows what is read. */
  list(identity: () => Promise<Identity | undefined>): Promise<InlineComment[]>
  /** Why none can be started this run, once the changed lines are read (GitLab's diff not ready). */
  notReady?(): string | undefined
  /**
   * Starts them all: one request where the platform has a review to batch them in. Says why, in
   * a line for the log, when they could not go as that one review and went one by one.
   */
  start(comments: readonly NewInlineComment[]): Promise<string | void>
  /** Resolves it; false where the platform cannot (Forgejo, Gitea before 1.26). */
  resolve(comment: InlineComment): Promise<boolean>
}

/** A repository a forge names `owner/name` (GitHub, Gitea, Forgejo): its commit and pull request. */
export interface ForgeTarget {
  owner: string
  repo: string
  /** The commit the statuses go on: the pull request's head, so the forge shows them on it. */
  commit: string
  pullRequest: number | undefined
  /** What names each value, for the messages: `CHANGE_URL`, or the setting given. */
  names: { repository: Said; pullRequest: Said; api: Said }
}

/** A forge's pull request: its target, with the pull request's number. */
export type ForgePullRequest = ForgeTarget & { pullRequest: number }

/**
 * The repository's address under a forge's API.
 *
 * @example forgeRepository({ owner: 'octo', repo: 'shop' }) // 'repos/octo/shop'
 */
export function forgeRepository({ owner, repo }: Pick<ForgeTarget, 'owner' | 'repo'>): string {
  return `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
}

/**
 * A project's commit status as GitHub's API takes it, and Gitea's and Forgejo's, which follow it
 * (`state`, `context`, `description`, `target_url`): success or failure as the gate is judged,
 * its texts cut to `limits`.
 */
export function forgeStatus(
  verdict: ProjectVerdict,
  limits: { contextChars: number; descriptionChars: number }
): Record<string, string> {
  return {
    state: verdict.failing ? 'failure' : 'success',
    context: cut(`sonarqube/${verdict.label}`, limits.contextChars),
    description: cut(verdict.words, limits.descriptionChars),
    ...(verdict.dashboard ? { target_url: verdict.dashboard } : {})
  }
}

/** Sets the project's commit status (forgeStatus's) on the target's commit. */
export async function setForgeStatus(
  api: RestApi,
  target: ForgeTarget,
  verdict: ProjectVerdict,
  limits: { contextChars: number; descriptionChars: number }
): Promise<void> {
  const path = `${forgeRepository(target)}/statuses/${encodeURIComponent(target.commit)}`
  await api.request('POST', path, { body: forgeStatus(verdict, limits) })
}

/**
 * A forge's verdict comments: its pull request's issue's comments, found again by their marker,
 * listed by `list` from their address; one deleted since it was listed (404) is written anew.
 */
export function forgeVerdicts(
  api: RestApi,
  target: ForgePullRequest,
  list: (path: string) => Promise<VerdictComment[]>
): VerdictComments {
  const repository = forgeRepository(target)
  const comments = `${repository}/issues/${target.pullRequest}/comments`
  return {
    keyedBy: 'marker',
    list: () => list(comments),
    async create(_verdict, body) {
      return { id: idOf((await api.request('POST', comments, { body: { body } })).body) }
    },
    async update(comment, body) {
      const path = `${repository}/issues/comments/${comment.id}`
      try {
        await api.request('PATCH', path, { body: { body } })
        return true
      } catch (error) {
        if (isNotFound(error)) return false
        throw error
      }
    }
  }
}

/** A forge's comment as listed (`id`, `body`, `user`), its shape checked. */
export function forgeComment(item: unknown): VerdictComment[] {
  const { body, user } = (item ?? {}) as { body?: unknown; user?: unknown }
  const id = idOf(item)
  return id === undefined || typeof body !== 'string' ? [] : [{ id, body, author: idOf(user) }]
}

/**
 * Starts the issues' comments as one review of a forge's pull request (`event` COMMENT): one
 * request, one notification; `onLine` places each on its line as the forge asks.
 */
export async function startForgeReview(
  api: RestApi,
  target: ForgePullRequest,
  comments: readonly NewInlineComment[],
  onLine: (comment: NewInlineComment) => Record<string, unknown>
): Promise<void> {
  const issues = comments.length === 1 ? 'issue' : 'issues'
  await api.request('POST', `${forgeRepository(target)}/pulls/${target.pullRequest}/reviews`, {
    body: {
      event: 'COMMENT',
      body: `SonarQube: ${comments.length} new ${issues} on the lines this pull request changes.`,
      comments: comments.map(onLine)
    }
  })
}

/** What every platform is made with: the token's API, the time it has and who asks. */
export interface PlatformConnection {
  token: string
  userAgent: string
  clock: Clock
  /** Clock time its requests end by: the decoration's deadline (src/deadline.ts). */
  deadline: number
}

/**
 * A project's id on a platform that keys statuses and reports by one: `sonarqube-` and the key's
 * digest, so no key can break an address, and two keys never share one.
 *
 * @example digestId('shop') // 'sonarqube-5fa8a1…' (30 characters)
 */
export function digestId(key: string, length = 20): string {
  // Loaded when first used: the action's start does without node:crypto.
  const { createHash } = process.getBuiltinModule('node:crypto')
  return `sonarqube-${createHash('sha256').update(key).digest('hex').slice(0, length)}`
}

/** An object's `id` when it is a positive whole number. */
export function idOf(value: unknown): number | undefined {
  return positiveId((value as { id?: unknown } | null | undefined)?.id)
}

/** `id` when it is a positive whole number. */
export function positiveId(id: unknown): number | undefined {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/** A 404: what was asked is not there (deleted, or a route an older server lacks). */
export function isNotFound(error: unknown): boolean {
  return error instanceof PlatformRefusal && error.status === 404
}

/** Rethrows `error` unless it is a 404: a request's `.catch` where nothing there is no failure. */
export function ignoreNotFound(error: unknown): void {
  if (!isNotFound(error)) throw error
}

/** What a build status's texts may take on both Bitbucket's. */
const BUILD_STATUS_CHARS = 255

/**
 * A project's build status as both Bitbucket's take it: keyed by the project key's digest, so the
 * same key replaces it; `url` is required, so `orUrl` when the dashboard is unknown.
 */
export function buildStatus(verdict: ProjectVerdict, orUrl: string): Record<string, string> {
  return {
    key: digestId(verdict.key),
    state: verdict.failing ? 'FAILED' : 'SUCCESSFUL',
    name: verdict.say(cut(`sonarqube/${oneLine(verdict.key)}`, BUILD_STATUS_CHARS)),
    url: verdict.dashboard ?? orUrl,
    description: cut(verdict.words, BUILD_STATUS_CHARS)
  }
}

/**
 * A platform's one warning for a refusal: that it refused, and what the token (401), its rights
 * (403) or what it names (404, and any other status) lack.
 */
export function refusalSaid(
  name: string,
  status: number,
  lacks: Record<401 | 403 | 404, Said>
): Said {
  const why = status === 401 || status === 403 ? lacks[status] : lacks[404]
  return msg`${name} refused the decoration; the verdict and the exit code are unchanged. ${why}`
}
