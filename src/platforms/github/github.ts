/**
 * GitHub as a review platform, from any CI: per project a commit status on the commit (or, where
 * asked, a check run standing for it: check-run.ts), and on a pull request the project's comment
 * (HTML blocks, found again by its marker and its author) and the issues' comments on the lines
 * the pull request changes, started as **one review** (one request, one notification) and
 * resolved once their issue is gone. Shapes from GitHub's REST description (api.github.com,
 * 2022-11-28) and its GraphQL API:
 * - `POST /repos/{owner}/{repo}/statuses/{sha}` (`state` error/failure/pending/success,
 *   `target_url`, `description`, `context`; GitHub refuses a description over 140 characters);
 * - `GET`, `POST /repos/{owner}/{repo}/issues/{number}/comments` (paged by `page`, `per_page`
 *   100, `Link`), `PATCH /repos/{owner}/{repo}/issues/comments/{id}`;
 * - `GET /repos/{owner}/{repo}/pulls/{number}/files` (`filename`, `status`, `patch`; at most
 *   3,000 files, 100 a page);
 * - `POST /repos/{owner}/{repo}/pulls/{number}/reviews` (`event` COMMENT, `body`, `comments[]`:
 *   `path`, `line`, `side` RIGHT, `body`): a line not in the diff fails the whole review (422), so
 *   only lines the patch adds are commented on;
 * - the review threads (`pullRequest.reviewThreads`: `id`, `isResolved`, the first comment's
 *   `body` and author's `databaseId`) and `resolveReviewThread`, which only GraphQL has;
 * - the token's own account: `GET /user`, or for an installation token (which GitHub refuses
 *   it, 403) GraphQL's `viewer`.
 */
import { PlatformRefusal } from '../../http/rest-api.js'
import {
  addedLines,
  forgeComment,
  forgeRepository,
  forgeStatus,
  forgeVerdicts,
  idOf,
  msg,
  oneLine,
  positiveId,
  QUOTE_LIMITS,
  refusalSaid,
  setForgeStatus,
  startForgeReview,
  type ChangedLines,
  type ForgePullRequest,
  type ForgeTarget,
  type InlineComment,
  type ProjectVerdict,
  type Review,
  type ReviewPlatform,
  type Said,
  type VerdictComment
} from '../review-platform.js'
import { writeCheckRun, type CheckRunStyle } from './check-run.js'
import type { GitHubApi } from './github-api.js'
import { githubSaid, isRateLimit, statusOf } from './github-api.js'

/** GitHub's bounds as the decoration keeps them (exported for the tests that read them). */
export const GITHUB_LIMITS = {
  /** GitHub refuses a status's description over 140 characters. */
  descriptionChars: 140,
  /** A status's context: GitHub names no limit; the key is cut to keep it readable. */
  contextChars: 100,
  /** Pages of 100 comments searched for ours: 3,000 comments. */
  commentPages: 30,
  /** Pages of 100 files: GitHub lists at most 3,000 files of a pull request. */
  filePages: 30,
  /** Pages of 100 review threads read to find ours: 1,000 threads. */
  threadPages: 10,
  perPage: 100
} as const

/**
 * A project's check run standing for its commit status: the status's name, concluded as the
 * gate is judged; a commit status where the token may not create check runs.
 */
export const GATE_CHECK_RUN: CheckRunStyle = {
  name: (verdict) => forgeStatus(verdict, GITHUB_LIMITS).context!,
  passing: 'success',
  orStatus: true
}

/** Where the decoration goes on GitHub: the repository, the commit, the pull request if any. */
export type GitHubTarget = ForgeTarget

/**
 * The GitHub repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(githubPlatform(new GitHubApi({ token, apiUrl, clock, deadline }), target), outcomes, options)
 */
export function githubPlatform(
  github: GitHubApi,
  target: GitHubTarget,
  { checkRuns }: { checkRuns?: CheckRunStyle | undefined } = {}
): ReviewPlatform {
  const repository = forgeRepository(target)
  const number = target.pullRequest
  const status = (verdict: ProjectVerdict) => setForgeStatus(github, target, verdict, GITHUB_LIMITS)
  // Check runs where the token may; once refused (not an app's token, or no checks permission),
  // each project's commit status stands for its check run.
  let checksRefused: PlatformRefusal | undefined
  const checkRun =
    checkRuns &&
    (async (verdict: ProjectVerdict): Promise<number | Said> => {
      if (!checksRefused) {
        try {
          return await writeCheckRun(github, repository, target.commit, verdict, checkRuns)
        } catch (error) {
          const refused = error instanceof PlatformRefusal && error.status === 403
          if (!refused || !checkRuns.orStatus || isRateLimit(error)) throw error
          checksRefused = error
        }
      }
      await status(verdict)
      return `GitHub: the token may not create check runs (${githubSaid(checksRefused)}); a GitHub App's installation token with the checks write permission may. The commit status for ${verdict.name} is set instead.`
    })
  return {
    words: {
      name: 'GitHub',
      status: 'commit status',
      comment: 'comment',
      report: 'check run',
      check: msg`that ${target.names.api} is GitHub's REST API and that GitHub is up`
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.commit,
    setStatus: checkRun ? undefined : status,
    writeReport: checkRun,
    review:
      number === undefined ? undefined : pullRequest(github, { ...target, pullRequest: number }),
    noReview: msg`Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
    close: () => github.close()
  }
}

function pullRequest(github: GitHubApi, target: ForgePullRequest): Review {
  return {
    name: `pull request #${target.pullRequest}`,
    kind: 'pull request',
    commit: target.commit,
    markup: 'html',
    ownIdentity: () => ownAccount(github),
    changedLines: () => listChangedLines(github, forgeRepository(target), target.pullRequest),
    verdicts: forgeVerdicts(github, target, (path) => listComments(github, path)),
    inline: {
      step: 'the review of the new issues',
      started: 'comments started in one review',
      resolved: 'resolved',
      list: () => reviewThreads(github, target),
      start: (comments) =>
        startForgeReview(github, target, comments, ({ file, line, body }) => ({
          path: file,
          line,
          side: 'RIGHT',
          body
        })),
      async resolve(thread) {
        await github.graphql(
          'mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }',
          { id: thread.id }
        )
        return true
      }
    }
  }
}

/**
 * The token's own account id. A user's token (a personal access token, a GitHub App's user
 * token) reads it from `GET /user`. An installation token (the job's GITHUB_TOKEN, another
 * app's) may not (GitHub answers 403, "Resource not accessible by integration"); GraphQL's
 * `viewer` names the app's bot account for it: `github-actions[bot]` for the job's token, and an
 * app's own bot, never another's, for an app's token.
 */
async function ownAccount(github: GitHubApi): Promise<number | undefined> {
  try {
    return idOf((await github.request('GET', 'user')).body)
  } catch (error) {
    if (statusOf(error) !== 403) throw error
  }
  const reply = await github.graphql('query { viewer { databaseId } }')
  return positiveId(
    (reply as { viewer?: { databaseId?: unknown } } | undefined)?.viewer?.databaseId
  )
}

/**
 * The pull request's comments, a page at a time (at most 30 pages of 100). The next page is
 * asked for by its number, never by the address the reply names: the token goes to the API's
 * address only.
 */
async function listComments(github: GitHubApi, path: string): Promise<VerdictComment[]> {
  const found: VerdictComment[] = []
  for (let page = 1; page <= GITHUB_LIMITS.commentPages; page++) {
    const reply = await github.request('GET', path, {
      query: { per_page: String(GITHUB_LIMITS.perPage), page: String(page) }
    })
    const items: unknown = reply.body
    if (!Array.isArray(items)) break
    found.push(...(items as unknown[]).flatMap(forgeComment))
    if (items.length === 0 || !/rel="next"/.test(reply.header('link') ?? '')) break
  }
  return found
}

/**
 * The lines the pull request adds or changes, per file, page by page (at most 30 pages of 100
 * files): a file without a patch (GitHub leaves it out for a large diff, and for a binary file)
 * counts as changed throughout; a removed file has none.
 *
 * @example const changed = await listChangedLines(github, 'repos/octo/shop', 7)
 */
export async function listChangedLines(
  github: GitHubApi,
  repository: string,
  number: number
): Promise<ChangedLines> {
  const changed: ChangedLines = new Map()
  for (let page = 1; page <= GITHUB_LIMITS.filePages; page++) {
    const { body: files } = await github.request('GET', `${repository}/pulls/${number}/files`, {
      query: { per_page: String(GITHUB_LIMITS.perPage), page: String(page) }
    })
    if (!Array.isArray(files)) break
    for (const file of files as unknown[]) {
      const { filename, patch, status } = (file ?? {}) as Record<string, unknown>
      if (typeof filename !== 'string' || status === 'removed') continue
      changed.set(filename, typeof patch === 'string' ? addedLines(patch) : 'whole')
    }
    if (files.length < GITHUB_LIMITS.perPage) break
  }
  return changed
}

const THREADS_QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        nodes { id isResolved comments(first: 1) { nodes { body author { ... on User { databaseId } ... on Bot { databaseId } } } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`

/** The pull request's review threads with their first comment, through GraphQL, bounded. */
async function reviewThreads(
  github: GitHubApi,
  target: ForgePullRequest
): Promise<InlineComment[]> {
  const threads: InlineComment[] = []
  let after: string | null = null
  for (let page = 0; page < GITHUB_LIMITS.threadPages; page++) {
    const data = (await github.graphql(THREADS_QUERY, {
      owner: target.owner,
      repo: target.repo,
      number: target.pullRequest,
      after
    })) as ThreadsReply | undefined
    const connection = data?.repository?.pullRequest?.reviewThreads
    for (const node of Array.isArray(connection?.nodes) ? connection.nodes : []) {
      const first = node?.comments?.nodes?.[0]
      if (typeof node?.id !== 'string' || !/^[\w=-]{1,200}$/.test(node.id)) continue
      threads.push({
        id: node.id,
        body: typeof first?.body === 'string' ? first.body : undefined,
        resolved: node.isResolved === true,
        author: positiveId(first?.author?.databaseId)
      })
    }
    const next = connection?.pageInfo
    if (next?.hasNextPage !== true || typeof next.endCursor !== 'string') break
    after = next.endCursor
  }
  return threads
}

/** GraphQL's reply to THREADS_QUERY, every field unchecked until read. */
interface ThreadsReply {
  repository?: {
    pullRequest?: {
      reviewThreads?: {
        nodes?: Array<{
          id?: unknown
          isResolved?: unknown
          comments?: { nodes?: Array<{ body?: unknown; author?: { databaseId?: unknown } | null }> }
        } | null>
        pageInfo?: { hasNextPage?: unknown; endCursor?: unknown }
      }
    }
  }
}

function refusalWords(error: PlatformRefusal, target: GitHubTarget): Said {
  const repository = oneLine(`${target.owner}/${target.repo}`, QUOTE_LIMITS.short)
  return refusalSaid('GitHub', error.status, {
    401: "The token in GITHUB_TOKEN is not valid (401): give a personal access token, or a GitHub App's installation token.",
    // A refusal the rate limit gave is a 403 (a 429 is tried again, never a refusal).
    403: isRateLimit(error)
      ? `GitHub's API rate limit was reached (${error.status}): the next run decorates again.`
      : `The token in GITHUB_TOKEN may not write to ${repository} (403): a fine-grained token needs "Commit statuses" and "Pull requests" read and write; a classic token the repo scope; an installation token the statuses and pull_requests permissions.`,
    404: msg`GitHub shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}, and that the token may see the repository.`
  })
}
