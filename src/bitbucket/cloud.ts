/**
 * The command's decoration in Bitbucket Pipelines (Bitbucket Cloud): per project, a build status
 * on the commit and a Code Insights report with the new issues as annotations, and on a pull
 * request one comment per project, written in Markdown (Bitbucket renders no raw HTML) from the
 * one body and edited in place. Shapes from Bitbucket Cloud's OpenAPI description: `POST
 * .../commit/{commit}/statuses/build` (`key` at most 40 characters, `state`
 * SUCCESSFUL/FAILED, `name`, `url`, `description`; the same key replaces the status), `GET`,
 * `POST`, `PUT`, `DELETE .../pullrequests/{id}/comments` (`content.raw`, `deleted`, `user`,
 * listed `pagelen` 100 with `next`), the current account (`GET /user`: its `uuid`).
 *
 * A comment is ours when its hidden first line is our marker and its author (`user.uuid`) is the
 * token's own account. A repository, project or workspace access token writes as a bot account
 * of its own, which `GET /user` does not show (Bitbucket answers 401, "Token is invalid or not
 * supported for this endpoint"): then the comment is written anew, the reply names the bot
 * account, and the earlier comments by that account carrying the marker are deleted, so one
 * stays; what anyone else wrote is never edited nor deleted.
 */
import type { FailPolicy } from '../fail-policy.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { MARKDOWN_MARKUP } from '../report/markup.js'
import {
  commentBody,
  commentVerdict,
  markerOf,
  shouldWrite,
  type CommentWhen
} from '../report/pull-request-comment-body.js'
import {
  dashboardOf,
  decorating,
  decorationStep,
  failing,
  nameOf,
  statusWords
} from '../platform/decoration-steps.js'
import { ownIdentity } from '../platform/own-identity.js'
import type { PlatformRefusal } from '../http/rest-api.js'
import type { Sink } from '../sink.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, msg } from '../words.js'
import type { BitbucketApi } from './bitbucket-api.js'
import { repositoryPath, reportId, writeReport, type BitbucketCommit } from './code-insights.js'

export const BITBUCKET_LIMITS = {
  /** What a comment's body may take: Bitbucket Cloud names no limit; Data Center's is 32,768. */
  commentChars: 30_000,
  /** Pages of 100 comments read to find the project's: 2,000 comments. */
  commentPages: 20,
  statusChars: 255
} as const

/** Where the decoration goes: the repository, its commit, and its pull request if any. */
export interface BitbucketPipeline extends BitbucketCommit {
  /** BITBUCKET_PR_ID, in a pull-request pipeline. */
  pullRequestId: string | undefined
}

interface BitbucketDecorationOptions {
  /** The comment's sink: Markdown's escaped forms of both tokens hidden, the comment's limit. */
  sink: Sink
  policy: FailPolicy
  commentWhen: CommentWhen
  /** Through Bitbucket Pipelines' proxy, without a token: it takes Code Insights requests only. */
  reportsOnly?: boolean
  log: Log
}

/**
 * Decorates the commit (status and report) and the pull request (comment) for every outcome.
 * Resolves once done, whatever Bitbucket answered; what happened is in the log.
 *
 * @example await decorateBitbucket(bitbucket, pipeline, outcomes, { sink, policy, commentWhen: 'always', log })
 */
export async function decorateBitbucket(
  bitbucket: BitbucketApi,
  pipeline: BitbucketPipeline,
  outcomes: readonly AnalysisOutcome[],
  options: BitbucketDecorationOptions
): Promise<void> {
  const { log } = options
  const platform = {
    name: 'Bitbucket',
    check: "that BITBUCKET_API_URL, when set, is Bitbucket Cloud's API, and that Bitbucket is up",
    refusal: (error: PlatformRefusal) => refusalWords(error, pipeline)
  }
  await decorating(log, platform, async (log) => {
    for (const outcome of outcomes) {
      if (!options.reportsOnly) {
        await decorationStep(`the build status for ${nameOf(outcome)}`, () =>
          setBuildStatus(bitbucket, pipeline, outcome, options)
        )
      }
      await decorationStep(`the report for ${nameOf(outcome)}`, async () => {
        const { annotations } = await writeReport(bitbucket, pipeline, outcome, options)
        log.info(
          `Bitbucket: the report for ${nameOf(outcome)} is on commit ${pipeline.commit.slice(0, 12)}, with ${annotations} annotations.`
        )
      })
    }
    if (options.reportsOnly) {
      log.info(
        'Bitbucket: without BITBUCKET_TOKEN the reports go through the Pipelines proxy, which takes Code Insights only: no build status, no comment.'
      )
      return
    }
    const id = pipeline.pullRequestId
    if (id === undefined) {
      log.info(
        'Not a pull-request pipeline (no BITBUCKET_PR_ID): the build statuses and reports are set, and no comment is written.'
      )
      return
    }
    const comments = `${repositoryPath(pipeline.repository)}/pullrequests/${encodeURIComponent(id)}/comments`
    const existing = await decorationStep(`the comments of pull request #${id}`, () =>
      bitbucket.pages(comments, BITBUCKET_LIMITS.commentPages)
    )
    let me = await ownIdentity(log, 'Bitbucket', () => ownAccount(bitbucket), {
      instead:
        'the comment is written anew, and the earlier ones by the account Bitbucket names as its author are deleted',
      // An access token's ordinary case: Bitbucket shows it no account.
      level: 'info'
    })
    for (const outcome of outcomes) {
      await decorationStep(`the comment for ${nameOf(outcome)}`, async () => {
        const { written, author } = await writeComment(
          bitbucket,
          comments,
          existing,
          me,
          pipeline,
          outcome,
          options
        )
        me ??= author
        log.info(
          written === 'unchanged'
            ? msg`Bitbucket: the comment for ${nameOf(outcome)} is left as it is (${setting('comment')} ${options.commentWhen}).`
            : `Bitbucket: the comment for ${nameOf(outcome)} is ${written} on pull request #${id}.`
        )
      })
    }
  })
}

/** The project's build status: SUCCESSFUL or FAILED as the policy judges the gate. */
async function setBuildStatus(
  bitbucket: BitbucketApi,
  pipeline: BitbucketPipeline,
  outcome: AnalysisOutcome,
  { sink, policy }: BitbucketDecorationOptions
): Promise<void> {
  const failed = failing(outcome, policy)
  const dashboard = dashboardOf(outcome)
  await bitbucket.request(
    'POST',
    `${repositoryPath(pipeline.repository)}/commit/${encodeURIComponent(pipeline.commit)}/statuses/build`,
    {
      body: {
        key: reportId(projectName(outcome)),
        state: failed ? 'FAILED' : 'SUCCESSFUL',
        name: sink.text(
          cut(`sonarqube/${oneLine(projectName(outcome))}`, BITBUCKET_LIMITS.statusChars)
        ),
        // Bitbucket requires an address: the dashboard, else the repository.
        url: dashboard ?? `https://bitbucket.org/${pipeline.repository}`,
        description: sink.text(
          cut(statusWords(outcome, policy, sink), BITBUCKET_LIMITS.statusChars)
        )
      }
    }
  )
}

/**
 * The token's own account (`GET /user`): its `uuid`, the one field every account has (an access
 * token's bot account has no Atlassian `account_id`).
 */
async function ownAccount(bitbucket: BitbucketApi): Promise<string | undefined> {
  return uuidOf((await bitbucket.request('GET', 'user')).body)
}

/** An account's `uuid` (`{…}`, as Bitbucket writes it), lower-cased to compare. */
function uuidOf(account: unknown): string | undefined {
  const uuid = (account as { uuid?: unknown } | null | undefined)?.uuid
  return typeof uuid === 'string' && /^\{[0-9a-f-]{1,40}\}$/i.test(uuid)
    ? uuid.toLowerCase()
    : undefined
}

interface Comment {
  id: number
  raw: string
  /** Its author's `uuid`. */
  author: string | undefined
  /** As the listing gave it. */
  item: unknown
}

/** A comment as the listing gives it, its shape checked. */
function asComment(item: unknown): Comment | undefined {
  const { id, content, deleted, user } = (item ?? {}) as {
    id?: unknown
    content?: { raw?: unknown }
    deleted?: unknown
    user?: unknown
  }
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || deleted === true) return undefined
  return typeof content?.raw === 'string'
    ? { id, raw: content.raw, author: uuidOf(user), item }
    : undefined
}

/**
 * The project's comment, edited in place or created, unless `commentWhen` says to leave it. Ours
 * is the one carrying the marker whose author is `me`, the token's account. With `me` unknown,
 * the comment is created, and its author, as Bitbucket's reply names it, is returned: the earlier
 * comments by that author carrying the marker are then deleted. While a comment that may be ours
 * is there, it is never left saying what is no longer so.
 */
async function writeComment(
  bitbucket: BitbucketApi,
  comments: string,
  existing: unknown[],
  me: string | undefined,
  pipeline: BitbucketPipeline,
  outcome: AnalysisOutcome,
  { sink, policy, commentWhen }: BitbucketDecorationOptions
): Promise<{ written: 'created' | 'updated' | 'unchanged'; author: string | undefined }> {
  const body = commentBody(outcome, pipeline.commit, {
    sink,
    policy,
    markup: MARKDOWN_MARKUP,
    limit: BITBUCKET_LIMITS.commentChars
  })
  const marker = markerOf(body)
  const carrying = existing
    .map(asComment)
    .filter(
      (comment): comment is Comment => comment !== undefined && markerOf(comment.raw) === marker
    )
  const ours = me === undefined ? undefined : carrying.find(({ author }) => author === me)
  const write =
    (me === undefined && carrying.length > 0) ||
    shouldWrite(commentWhen, commentVerdict(outcome, policy), ours?.raw)
  if (!write) return { written: 'unchanged', author: me }
  const content = { content: { raw: body } }
  if (ours) {
    await bitbucket.request('PUT', `${comments}/${ours.id}`, { body: content })
    return { written: 'updated', author: me }
  }
  const { body: created } = await bitbucket.request('POST', comments, { body: content })
  const author = me ?? uuidOf((created as { user?: unknown } | undefined)?.user)
  if (me === undefined && author !== undefined) {
    for (const earlier of carrying.filter((comment) => comment.author === author)) {
      await bitbucket.request('DELETE', `${comments}/${earlier.id}`)
      existing.splice(existing.indexOf(earlier.item), 1)
    }
  }
  // Two outcomes naming one project share one comment: the later one edits it.
  existing.push(created)
  return { written: 'created', author }
}

/** The one warning for a refusal: what the token, the repository or the pull request lacks. */
function refusalWords(error: PlatformRefusal, pipeline: BitbucketPipeline): string {
  const base = 'Bitbucket refused the decoration; the verdict and the exit code are unchanged.'
  const repository = oneLine(pipeline.repository, QUOTE_LIMITS.short)
  switch (error.status) {
    case 401:
      return `${base} The token in BITBUCKET_TOKEN is not valid (401): give a repository or workspace access token.`
    case 403:
      return `${base} The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write scope for statuses and reports, and pull requests write for the comment.`
    default:
      return `${base} Bitbucket shows this token no repository ${repository}${pipeline.pullRequestId === undefined ? '' : ` or pull request #${oneLine(pipeline.pullRequestId, 20)}`} (404): check BITBUCKET_REPO_FULL_NAME and BITBUCKET_PR_ID, and that the token is this repository's or its workspace's.`
  }
}
