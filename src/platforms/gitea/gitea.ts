/**
 * Gitea and Forgejo as a review platform (`/api/v1`, the same shapes on both): per project a
 * commit status, and on a pull request the project's comment (Markdown, found again by its
 * marker and its author, edited in place) and the issues on the lines the pull request adds as
 * **one** review (one request, one notification), whose comments are resolved once their issue
 * is gone where the server can. Shapes from Gitea's API description (templates/swagger/v1_json.tmpl,
 * routers/api/v1/api.go) and Forgejo's:
 * - `POST /repos/{owner}/{repo}/statuses/{sha}` (`CreateStatusOption`: `state`
 *   pending/success/error/failure/warning, `target_url`, `description`, `context`);
 * - `GET`, `POST /repos/{owner}/{repo}/issues/{index}/comments` (a pull request's index is its
 *   issue's; the listing is not paged: every comment), `PATCH
 *   /repos/{owner}/{repo}/issues/comments/{id}`; the token's own user: `GET /user`;
 * - `GET /repos/{owner}/{repo}/pulls/{index}.diff`: the diff as text (the files listing carries
 *   no patch), from which the lines the pull request adds;
 * - `POST /repos/{owner}/{repo}/pulls/{index}/reviews` (`CreatePullReviewOptions`: `event`
 *   COMMENT, `body`, `comments[]`: `path`, `body`, `new_position`, the file's line, and
 *   `old_position` 0); `GET .../reviews` (`page`, `limit` at most 50) and `GET
 *   .../reviews/{id}/comments` (`id`, `body`, `user`, `resolver`);
 * - `POST /repos/{owner}/{repo}/pulls/comments/{id}/resolve` (Gitea 1.26 and later; Forgejo has
 *   none: its comments stay as they are, and none is counted resolved).
 * The token goes as `token <token>`, as the API description asks, to the API's origin only.
 */
import type { PlatformRefusal, RestApi } from '../../http/rest-api.js'
import {
  addedLines,
  forgeComment,
  forgeRepository,
  forgeVerdicts,
  idOf,
  isNotFound,
  msg,
  oneLine,
  QUOTE_LIMITS,
  refusalSaid,
  setForgeStatus,
  startForgeReview,
  type ChangedLines,
  type ForgePullRequest,
  type ForgeTarget,
  type Identity,
  type InlineComment,
  type Review,
  type ReviewPlatform,
  type Said
} from '../review-platform.js'

const GITEA_LIMITS = {
  /** A status's texts: the API names no limit; kept to a line. */
  contextChars: 255,
  descriptionChars: 255,
  /** Gitea's largest page (`[api] MAX_RESPONSE_ITEMS`, 50 by default). */
  perPage: 50,
  /** Pages of reviews read, and reviews whose comments are read: 500 and 100. */
  reviewPages: 10,
  reviewsRead: 100,
  /** The pull request's diff: 16 MB, as any reply. */
  diffFiles: 3000
} as const

/** Where the decoration goes on Gitea or Forgejo. */
export interface GiteaTarget extends ForgeTarget {
  /** `Gitea` or `Forgejo`: the platform's name in every line. */
  kind: 'Gitea' | 'Forgejo'
}

/**
 * The Gitea or Forgejo repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(giteaPlatform(rest, target), outcomes, options)
 */
export function giteaPlatform(gitea: RestApi, target: GiteaTarget): ReviewPlatform {
  const number = target.pullRequest
  return {
    words: {
      name: target.kind,
      status: 'commit status',
      comment: 'comment',
      check: msg`that ${target.names.api} is ${target.kind}'s API (/api/v1) and that ${target.kind} is up`
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.commit,
    setStatus: (verdict) => setForgeStatus(gitea, target, verdict, GITEA_LIMITS),
    review:
      number === undefined ? undefined : pullRequest(gitea, { ...target, pullRequest: number }),
    noReview: msg`Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
    close: () => gitea.close()
  }
}

function pullRequest(gitea: RestApi, target: ForgePullRequest): Review {
  const pulls = `${forgeRepository(target)}/pulls`
  const pull = `${pulls}/${target.pullRequest}`
  // Forgejo and Gitea before 1.26 have no API to resolve a comment: found once, asked no more.
  let cannotResolve = false
  return {
    name: `pull request #${target.pullRequest}`,
    kind: 'pull request',
    commit: target.commit,
    markup: 'markdown',
    ownIdentity: async () => idOf((await gitea.request('GET', 'user')).body),
    changedLines: () => changedLines(gitea, pull),
    // The listing is not paged: every comment.
    verdicts: forgeVerdicts(gitea, target, async (path) => {
      const { body } = await gitea.request('GET', path)
      return (Array.isArray(body) ? (body as unknown[]) : []).flatMap(forgeComment)
    }),
    inline: {
      step: 'the review of the new issues',
      started: 'comments started in one review',
      resolved: 'resolved',
      list: (identity) => reviewComments(gitea, pull, identity),
      start: (comments) =>
        startForgeReview(gitea, target, comments, ({ file, line, body }) => ({
          path: file,
          body,
          new_position: line,
          old_position: 0
        })),
      async resolve(comment) {
        if (cannotResolve) return false
        try {
          await gitea.request('POST', `${pulls}/comments/${comment.id}/resolve`)
          return true
        } catch (error) {
          // No such route: Forgejo, or Gitea before 1.26.
          if (!isNotFound(error)) throw error
          cannotResolve = true
          return false
        }
      }
    }
  }
}

/**
 * The review comments of the pull request: its reviews, a page of 50 at a time (at most 10
 * pages), and the comments of each review by `me` (of every review when `me` is unknown), at most
 * 100 reviews' comments.
 */
async function reviewComments(
  gitea: RestApi,
  pull: string,
  identity: () => Promise<Identity | undefined>
): Promise<InlineComment[]> {
  const reviews: number[] = []
  // Asked once there is a review: then only the token's own are read.
  for (let page = 1; page <= GITEA_LIMITS.reviewPages; page++) {
    const { body } = await gitea.request('GET', `${pull}/reviews`, {
      query: { page: String(page), limit: String(GITEA_LIMITS.perPage) }
    })
    const items = Array.isArray(body) ? (body as unknown[]) : []
    const me = items.length > 0 ? await identity() : undefined
    for (const item of items) {
      const id = idOf(item)
      const author = idOf((item as { user?: unknown } | null)?.user)
      if (id !== undefined && (me === undefined || author === me)) reviews.push(id)
    }
    if (items.length < GITEA_LIMITS.perPage) break
  }
  const comments: InlineComment[] = []
  for (const review of reviews.slice(-GITEA_LIMITS.reviewsRead)) {
    const { body } = await gitea.request('GET', `${pull}/reviews/${review}/comments`)
    for (const item of Array.isArray(body) ? (body as unknown[]) : []) {
      const { body: text, user, resolver } = (item ?? {}) as Record<string, unknown>
      const id = idOf(item)
      if (id === undefined) continue
      comments.push({
        id: String(id),
        body: typeof text === 'string' ? text : undefined,
        resolved: resolver !== null && resolver !== undefined,
        author: idOf(user)
      })
    }
  }
  return comments
}

/**
 * The lines the pull request adds, file by file, from its diff (`.diff`): a binary file counts as
 * changed throughout; a deleted one has none.
 */
async function changedLines(gitea: RestApi, pull: string): Promise<ChangedLines> {
  const { body } = await gitea.request('GET', `${pull}.diff`, { text: true })
  const changed: ChangedLines = new Map()
  const sections = (typeof body === 'string' ? body : '').split(/^diff --git /m).slice(1)
  for (const section of sections.slice(0, GITEA_LIMITS.diffFiles)) {
    const path = /^\+\+\+ b\/(.+)$/m.exec(section)?.[1]
    if (path !== undefined) {
      changed.set(path, addedLines(section.slice(section.search(/^@@/m))))
      continue
    }
    // A binary file names its path only in the header line: `a/<path> b/<path>`.
    const binary = /^a\/(\S+) b\/(\S+)\n(?:(?!\+\+\+ )[^\n]*\n)*Binary files/.exec(section)
    if (binary && !/^deleted file mode/m.test(section)) changed.set(binary[2]!, 'whole')
  }
  return changed
}

function refusalWords(error: PlatformRefusal, target: GiteaTarget): Said {
  const { kind } = target
  const repository = oneLine(`${target.owner}/${target.repo}`, QUOTE_LIMITS.short)
  return refusalSaid(kind, error.status, {
    401: 'The token in GITEA_TOKEN is not valid (401): give an access token of a user who may write to the repository.',
    403: `The token in GITEA_TOKEN may not write to ${repository} (403): it needs the write:repository and write:issue scopes.`,
    404: msg`${kind} shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}.`
  })
}
