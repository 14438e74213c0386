/**
 * The command's decoration of an Azure DevOps pull request from Azure Pipelines, per project: a
 * pull-request status (appended, never edited: the latest of a context is the one shown, and a
 * branch policy can require it), one thread whose first comment is the verdict in Markdown from
 * the one body, edited in place, and a thread per new issue on its file and line, at most
 * `inlineLimit`, never two for one issue, closed once a later run no longer reports it. Threads
 * are found again by their `properties` (as Microsoft's own clients do), and are ours only when
 * their first comment's author is the token's own identity (`authenticatedUser` of the
 * collection's `_apis/connectionData`): anyone may start a thread with the same properties, and
 * theirs is never edited nor closed. Shapes from the REST
 * API's specification (api-version 7.1): `POST .../pullRequests/{id}/statuses` (`state`,
 * `description`, `context` {`genre`, `name`}, `targetUrl`), `GET`, `POST .../threads`, `PATCH
 * .../threads/{id}` (`status`), `PATCH .../threads/{id}/comments/{commentId}` (`content`), and
 * `GET .../iterations`, `.../iterations/{id}/changes` (`$top`, `$skip`): Azure DevOps gives the
 * files a pull request changes, not its lines.
 */
import type { FailPolicy } from '../fail-policy.js'
import { bySeverity, SEVERITY_ORDER, type Finding, type Severity } from '../findings/finding.js'
import type { ChangedLines } from '../findings/changed-lines.js'
import { hasBranchAnalyses, narrowToChangedLines } from '../gate/on-changed-lines.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { issueDiscussionBody } from '../report/issue-discussion.js'
import { MARKDOWN_MARKUP } from '../report/markup.js'
import {
  commentBody,
  commentVerdict,
  shouldWrite,
  type CommentWhen
} from '../report/pull-request-comment-body.js'
import {
  dashboardOf,
  decorating,
  decorationStep,
  failing,
  issuesOf,
  nameOf,
  statusWords
} from '../platform/decoration-steps.js'
import { ownIdentity } from '../platform/own-identity.js'
import { PlatformError, type PlatformRefusal } from '../http/rest-api.js'
import type { Sink } from '../sink.js'
import { cut, oneLine } from '../untrusted-text.js'
import { setting, msg } from '../words.js'
import { identityId, type AzureApi } from './azure-api.js'

export const AZURE_LIMITS = {
  /** A comment's content: Azure DevOps takes 150,000 characters. */
  commentChars: 150_000,
  descriptionChars: 255,
  /** Changes read per request, and requests: 20,000 files. */
  changesPerPage: 2000,
  changePages: 10
} as const

/** The thread property that names the project of a verdict's thread, and an issue's key. */
const PROJECT_PROPERTY = 'sonarqube.project'
const ISSUE_PROPERTY = 'sonarqube.issue'

interface AzurePullRequest {
  /** SYSTEM_PULLREQUEST_PULLREQUESTID. */
  id: string
}

interface AzureDecorationOptions {
  /** The comments' sink: Markdown's escaped forms of both tokens hidden. */
  sink: Sink
  policy: FailPolicy
  commentWhen: CommentWhen
  inlineLimit: number
  inlineSeverity: Severity
  /** The commit the verdict is of (BUILD_SOURCEVERSION: the merge commit). */
  commit: string
  log: Log
}

/**
 * Decorates the pull request for every outcome. Resolves once done, whatever Azure DevOps
 * answered; what happened is in the log.
 *
 * @example await decorateAzure(azure, { id: '42' }, outcomes, options)
 */
export async function decorateAzure(
  azure: AzureApi,
  pullRequest: AzurePullRequest,
  outcomes: readonly AnalysisOutcome[],
  options: AzureDecorationOptions
): Promise<void> {
  const { log } = options
  const base = `pullRequests/${encodeURIComponent(pullRequest.id)}`
  const platform = {
    name: 'Azure DevOps',
    check:
      'that SYSTEM_COLLECTIONURI is the collection of Azure DevOps, and that Azure DevOps is up',
    refusal: (error: PlatformRefusal) => refusalWords(error, pullRequest)
  }
  await decorating(log, platform, async (log) => {
    for (const outcome of outcomes) {
      await decorationStep(`the status for ${nameOf(outcome)}`, () =>
        postStatus(azure, base, outcome, options)
      )
    }
    const files =
      hasBranchAnalyses(outcomes) || options.inlineLimit > 0
        ? await decorationStep(`the files pull request !${pullRequest.id} changes`, () =>
            changedFiles(azure, base)
          )
        : undefined
    const shown = files
      ? narrowToChangedLines(outcomes, files, `pull request !${pullRequest.id}`, log)
      : outcomes
    if (files && hasBranchAnalyses(outcomes)) {
      log.info(
        'Azure DevOps gives the files a pull request changes, not its lines: the issues are narrowed to those files.'
      )
    }
    // Unknown (undefined): the verdict's thread is started anew, and no thread is closed.
    const me = await ownIdentity(log, 'Azure DevOps', () => azure.ownIdentity())
    const threads = await decorationStep('the threads', () => listThreads(azure, base))
    for (const outcome of shown) {
      await decorationStep(`the thread for ${nameOf(outcome)}`, async () => {
        const written = await writeVerdictThread(azure, base, threads, me, outcome, options)
        log.info(
          written === 'unchanged'
            ? msg`Azure DevOps: the thread for ${nameOf(outcome)} is left as it is (${setting('comment')} ${options.commentWhen}).`
            : `Azure DevOps: the thread for ${nameOf(outcome)} is ${written} on pull request !${pullRequest.id}.`
        )
      })
    }
    if (options.inlineLimit > 0 && files) {
      await decorationStep('the issue threads', async () => {
        const done = await issueThreads(azure, base, threads, me, issuesOf(shown), files, options)
        log.info(
          `Azure DevOps: ${done.started} issue threads started, ${done.closed} closed (their issues are gone).`
        )
      })
    }
  })
}

async function postStatus(
  azure: AzureApi,
  base: string,
  outcome: AnalysisOutcome,
  { sink, policy }: AzureDecorationOptions
): Promise<void> {
  const failed = failing(outcome, policy)
  const dashboard = dashboardOf(outcome)
  await azure.request('POST', `${base}/statuses`, {
    body: {
      state: failed ? 'failed' : 'succeeded',
      description: sink.text(
        cut(statusWords(outcome, policy, sink), AZURE_LIMITS.descriptionChars)
      ),
      context: {
        genre: 'sonarqube',
        name: sink.text(cut(`quality-gate/${oneLine(projectName(outcome))}`, 200))
      },
      ...(dashboard ? { targetUrl: dashboard } : {})
    }
  })
}

/** A thread as the listing gives it, its shape checked. */
interface Thread {
  id: number
  status: string | undefined
  firstComment: { id: number; content: string } | undefined
  /** Who started it: its first comment's author's id. */
  author: string | undefined
  properties: Record<string, string>
}

async function listThreads(azure: AzureApi, base: string): Promise<Thread[]> {
  const { body } = await azure.request('GET', `${base}/threads`)
  const value = (body as { value?: unknown } | undefined)?.value
  // A listing without its list is not an empty one: taken for one, a new thread would be started
  // on every run.
  if (!Array.isArray(value)) throw notAList('threads')
  return value.flatMap((item): Thread[] => {
    const { id, status, comments, properties, isDeleted } = (item ?? {}) as Record<string, unknown>
    if (typeof id !== 'number' || isDeleted === true) return []
    const first = Array.isArray(comments)
      ? (comments[0] as Record<string, unknown> | undefined)
      : undefined
    const own: Record<string, string> = {}
    for (const [name, entry] of Object.entries((properties ?? {}) as Record<string, unknown>)) {
      const value = (entry as { $value?: unknown } | null)?.$value
      if (typeof value === 'string') own[name] = value
    }
    return [
      {
        id,
        status: typeof status === 'string' ? status : undefined,
        firstComment:
          first && typeof first['id'] === 'number' && typeof first['content'] === 'string'
            ? { id: first['id'], content: first['content'] }
            : undefined,
        author: identityId(first?.['author']),
        properties: own
      }
    ]
  })
}

/** The project's verdict thread: its first comment edited, or the thread started. */
async function writeVerdictThread(
  azure: AzureApi,
  base: string,
  threads: Thread[],
  me: string | undefined,
  outcome: AnalysisOutcome,
  { sink, policy, commentWhen, commit }: AzureDecorationOptions
): Promise<'created' | 'updated' | 'unchanged'> {
  const key = sink.text(projectName(outcome))
  const body = commentBody(outcome, commit, {
    sink,
    policy,
    markup: MARKDOWN_MARKUP,
    limit: AZURE_LIMITS.commentChars
  })
  const ours = threads.find(
    (thread) =>
      thread.properties[PROJECT_PROPERTY] === key && me !== undefined && thread.author === me
  )
  if (!shouldWrite(commentWhen, commentVerdict(outcome, policy), ours?.firstComment?.content)) {
    return 'unchanged'
  }
  if (ours?.firstComment) {
    await azure.request('PATCH', `${base}/threads/${ours.id}/comments/${ours.firstComment.id}`, {
      body: { content: body }
    })
    return 'updated'
  }
  const { body: created } = await azure.request('POST', `${base}/threads`, {
    body: {
      comments: [{ parentCommentId: 0, content: body, commentType: 1 }],
      status: 'active',
      properties: { [PROJECT_PROPERTY]: { $type: 'System.String', $value: key } }
    }
  })
  const id = (created as { id?: unknown } | undefined)?.id
  if (typeof id === 'number') {
    threads.push({
      id,
      status: 'active',
      firstComment: undefined,
      author: me,
      properties: { [PROJECT_PROPERTY]: key }
    })
  }
  return 'created'
}

/**
 * A thread per new issue in a file the pull request changes, the most severe first, at most
 * `inlineLimit`, none for an issue that has one of ours (with `me` unknown: any thread); our
 * threads of issues no longer reported closed, when every issue was read.
 */
async function issueThreads(
  azure: AzureApi,
  base: string,
  threads: Thread[],
  me: string | undefined,
  issues: { findings: Finding[]; complete: boolean },
  files: ChangedLines,
  { sink, inlineLimit, inlineSeverity }: AzureDecorationOptions
): Promise<{ started: number; closed: number }> {
  const ours = threads.filter((thread) => me !== undefined && thread.author === me)
  // Another's thread with an issue's property does not stand in for ours, unless ours is unknown.
  const discussed = new Set(
    (me === undefined ? threads : ours).flatMap((thread) => thread.properties[ISSUE_PROPERTY] ?? [])
  )
  const candidates = bySeverity(issues.findings).filter(
    (finding) =>
      !discussed.has(finding.key) &&
      SEVERITY_ORDER.indexOf(finding.severity) <= SEVERITY_ORDER.indexOf(inlineSeverity) &&
      finding.file !== undefined &&
      finding.region !== undefined &&
      files.has(finding.file) &&
      sink.text(finding.file) === finding.file
  )
  const now = candidates.slice(0, Math.max(0, inlineLimit))
  for (const finding of now) {
    const line = finding.region!.startLine
    await azure.request('POST', `${base}/threads`, {
      body: {
        comments: [
          {
            parentCommentId: 0,
            content: issueDiscussionBody(finding, sink, MARKDOWN_MARKUP),
            commentType: 1
          }
        ],
        status: 'active',
        threadContext: {
          filePath: `/${finding.file!}`,
          rightFileStart: { line, offset: 1 },
          rightFileEnd: { line, offset: 1 }
        },
        properties: { [ISSUE_PROPERTY]: { $type: 'System.String', $value: finding.key } }
      }
    })
  }
  let closed = 0
  if (issues.complete) {
    const current = new Set(issues.findings.map(({ key }) => key))
    for (const thread of ours) {
      const key = thread.properties[ISSUE_PROPERTY]
      if (key === undefined || current.has(key) || thread.status === 'closed') continue
      await azure.request('PATCH', `${base}/threads/${thread.id}`, { body: { status: 'closed' } })
      closed++
    }
  }
  return { started: now.length, closed }
}

/**
 * The files the pull request's latest iteration changes (its changes, paged by `$top` and
 * `$skip`), each counting as changed throughout: Azure DevOps gives files, not lines.
 */
async function changedFiles(azure: AzureApi, base: string): Promise<ChangedLines> {
  const { body } = await azure.request('GET', `${base}/iterations`)
  const iterations = (body as { value?: unknown } | undefined)?.value
  if (!Array.isArray(iterations)) throw notAList('iterations')
  const ids = iterations.flatMap((item) => {
    const id = (item as { id?: unknown } | null)?.id
    return typeof id === 'number' && Number.isSafeInteger(id) ? [id] : []
  })
  const files: ChangedLines = new Map()
  if (ids.length === 0) return files
  const latest = Math.max(...ids)
  let skip = 0
  for (let page = 0; page < AZURE_LIMITS.changePages; page++) {
    const { body: changes } = await azure.request('GET', `${base}/iterations/${latest}/changes`, {
      query: { $top: String(AZURE_LIMITS.changesPerPage), $skip: String(skip) }
    })
    const reply = (changes ?? {}) as { changeEntries?: unknown; nextSkip?: unknown }
    for (const entry of Array.isArray(reply.changeEntries) ? reply.changeEntries : []) {
      const { item, changeType } = (entry ?? {}) as {
        item?: { path?: unknown }
        changeType?: unknown
      }
      const path = typeof item?.path === 'string' ? item.path.replace(/^\//, '') : ''
      if (
        path === '' ||
        String(changeType)
          .split(',')
          .some((type) => type.trim() === 'delete')
      )
        continue
      files.set(path, 'whole')
    }
    const next = reply.nextSkip
    if (typeof next !== 'number' || next <= skip) break
    skip = next
  }
  return files
}

/** A listing's reply without its `value` list. */
function notAList(what: 'threads' | 'iterations'): PlatformError {
  return new PlatformError(
    `Azure DevOps's reply to GET pullRequests/…/${what} is not a list of ${what} (no "value").`
  )
}

/** The one warning for a refusal: the missing permission, said once. */
function refusalWords(error: PlatformRefusal, pullRequest: AzurePullRequest): string {
  const base = 'Azure DevOps refused the decoration; the verdict and the exit code are unchanged.'
  switch (error.status) {
    case 401:
      return `${base} SYSTEM_ACCESSTOKEN is not valid (401): map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)).`
    case 403:
      return `${base} The build service may not write to the pull request (403): give it "Contribute to pull requests" on the repository (Project settings › Repositories › Security).`
    default:
      return `${base} Azure DevOps shows this token no pull request !${oneLine(pullRequest.id, 20)} in the repository (404): check SYSTEM_PULLREQUEST_PULLREQUESTID and BUILD_REPOSITORY_ID.`
  }
}
