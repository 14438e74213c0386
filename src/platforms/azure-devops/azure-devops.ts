/**
 * Azure DevOps as a review platform, for a pull request built by Azure Pipelines: per project a
 * pull-request status (appended, never edited: the latest of a context is the one shown, and a
 * branch policy can require it), one thread whose first comment is the verdict in Markdown,
 * edited in place, and a thread per new issue on its file and line, closed once a later run no
 * longer reports it. Threads are found again by their `properties` (as Microsoft's own clients
 * do); who started them is their first comment's author, and the token's own identity is
 * `authenticatedUser` of the collection's `_apis/connectionData`. Shapes from the REST API's
 * specification (api-version 7.1): `POST .../pullRequests/{id}/statuses` (`state`, `description`,
 * `context` {`genre`, `name`}, `targetUrl`), `GET`, `POST .../threads`, `PATCH
 * .../threads/{id}` (`status`), `PATCH .../threads/{id}/comments/{commentId}` (`content`), and
 * `GET .../iterations`, `.../iterations/{id}/changes` (`$top`, `$skip`): Azure DevOps gives the
 * files a pull request changes, not its lines.
 */
import { PlatformError, type PlatformRefusal } from '../../http/rest-api.js'
import {
  cut,
  oneLine,
  refusalSaid,
  type ChangedLines,
  type InlineComment,
  type InlineComments,
  type ProjectVerdict,
  type ReviewPlatform,
  type Said,
  type VerdictComment
} from '../review-platform.js'
import { identityId, type AzureApi } from './azure-api.js'

const AZURE_LIMITS = {
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

/** The pull request, and the commit its verdict is of (the build's: the merge commit). */
interface AzureTarget {
  pullRequestId: string
  commit: string
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

/**
 * The Azure DevOps pull request `target` names, as a review platform.
 *
 * @example await decorate(azureDevOps(api, { pullRequestId: '42', commit }), outcomes, options)
 */
export function azureDevOps(azure: AzureApi, target: AzureTarget): ReviewPlatform {
  const id = target.pullRequestId
  const base = `pullRequests/${encodeURIComponent(id)}`
  // Listed once for the verdicts' threads and the issues' both.
  let listed: Promise<Thread[]> | undefined
  const threads = () => (listed ??= listThreads(azure, base))
  const firstComments = new Map<number, number>()
  return {
    words: {
      name: 'Azure DevOps',
      status: 'status',
      comment: 'thread',
      check:
        'that SYSTEM_COLLECTIONURI is the collection of Azure DevOps, and that Azure DevOps is up'
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.commit,
    setStatus: (verdict) => postStatus(azure, base, verdict),
    review: {
      name: `pull request !${id}`,
      kind: 'pull request',
      commit: target.commit,
      markup: 'markdown',
      commentChars: AZURE_LIMITS.commentChars,
      ownIdentity: () => azure.ownIdentity(),
      changedLines: () => changedFiles(azure, base),
      granularity: 'files',
      verdicts: {
        keyedBy: 'project',
        async list() {
          return (await threads()).flatMap((thread): VerdictComment[] => {
            const project = thread.properties[PROJECT_PROPERTY]
            const first = thread.firstComment
            if (project === undefined || !first) return []
            firstComments.set(thread.id, first.id)
            return [{ id: thread.id, body: first.content, author: thread.author, project }]
          })
        },
        async create(verdict, content) {
          const { body } = await azure.request('POST', `${base}/threads`, {
            body: {
              comments: [{ parentCommentId: 0, content, commentType: 1 }],
              status: 'active',
              properties: { [PROJECT_PROPERTY]: { $type: 'System.String', $value: verdict.label } }
            }
          })
          const created = (body ?? {}) as { id?: unknown; comments?: unknown }
          const thread = typeof created.id === 'number' ? created.id : undefined
          const first = Array.isArray(created.comments)
            ? (created.comments[0] as { id?: unknown } | undefined)?.id
            : undefined
          if (thread !== undefined && typeof first === 'number') firstComments.set(thread, first)
          return { id: thread }
        },
        async update(thread, content) {
          const comment = firstComments.get(thread.id)
          if (comment === undefined) return false
          await azure.request('PATCH', `${base}/threads/${thread.id}/comments/${comment}`, {
            body: { content }
          })
          return true
        }
      },
      inline: issueThreads(azure, base, threads)
    },
    close: () => azure.close()
  }
}

/** The issues' threads on their files' lines, found again by their issue's property. */
function issueThreads(
  azure: AzureApi,
  base: string,
  threads: () => Promise<Thread[]>
): InlineComments {
  return {
    step: 'the issue threads',
    started: 'issue threads started',
    resolved: 'closed',
    list: async () =>
      (await threads()).flatMap((thread): InlineComment[] => {
        const issueKey = thread.properties[ISSUE_PROPERTY]
        if (issueKey === undefined) return []
        const resolved = thread.status === 'closed'
        return [
          { id: String(thread.id), body: undefined, issueKey, resolved, author: thread.author }
        ]
      }),
    async start(comments) {
      for (const { finding, file, line, body } of comments) {
        await azure.request('POST', `${base}/threads`, {
          body: {
            comments: [{ parentCommentId: 0, content: body, commentType: 1 }],
            status: 'active',
            threadContext: {
              filePath: `/${file}`,
              rightFileStart: { line, offset: 1 },
              rightFileEnd: { line, offset: 1 }
            },
            properties: { [ISSUE_PROPERTY]: { $type: 'System.String', $value: finding.key } }
          }
        })
      }
    },
    async resolve(thread) {
      await azure.request('PATCH', `${base}/threads/${thread.id}`, {
        body: { status: 'closed' }
      })
      return true
    }
  }
}

async function postStatus(azure: AzureApi, base: string, verdict: ProjectVerdict): Promise<void> {
  await azure.request('POST', `${base}/statuses`, {
    body: {
      state: verdict.failing ? 'failed' : 'succeeded',
      description: cut(verdict.words, AZURE_LIMITS.descriptionChars),
      context: {
        genre: 'sonarqube',
        name: verdict.say(cut(`quality-gate/${oneLine(verdict.key)}`, 200))
      },
      ...(verdict.dashboard ? { targetUrl: verdict.dashboard } : {})
    }
  })
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
      const deleted = String(changeType)
        .split(',')
        .some((type) => type.trim() === 'delete')
      if (path !== '' && !deleted) files.set(path, 'whole')
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

function refusalWords(error: PlatformRefusal, target: AzureTarget): Said {
  return refusalSaid('Azure DevOps', error.status, {
    401: 'SYSTEM_ACCESSTOKEN is not valid (401): map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)).',
    403: 'The build service may not write to the pull request (403): give it "Contribute to pull requests" on the repository (Project settings › Repositories › Security).',
    404: `Azure DevOps shows this token no pull request !${oneLine(target.pullRequestId, 20)} in the repository (404): check SYSTEM_PULLREQUEST_PULLREQUESTID and BUILD_REPOSITORY_ID.`
  })
}
