/**
 * Bitbucket Cloud as a review platform: per project a build status and a Code Insights report on
 * the commit, with the new issues as the report's annotations, and on a pull request one comment
 * per project, in Markdown (Bitbucket renders no raw HTML). Shapes from Bitbucket Cloud's
 * OpenAPI description:
 * - `POST .../commit/{commit}/statuses/build` (`key` at most 40 characters, `state`
 *   SUCCESSFUL/FAILED, `name`, `url`, `description`; the same key replaces the status);
 * - `PUT /repositories/{workspace}/{repo_slug}/commit/{commit}/reports/{reportId}` (title,
 *   details, report_type, result PASSED/FAILED, link, at most 10 data fields), then `POST
 *   .../reports/{reportId}/annotations`, a JSON array of at most 100 a request and 1,000 a report
 *   (external_id, annotation_type, severity, path, line, summary of at most 450 characters,
 *   link); a report PUT again keeps its old annotations, so it is deleted first;
 * - `GET`, `POST`, `PUT`, `DELETE .../pullrequests/{id}/comments` (`content.raw`, `deleted`,
 *   `user`, listed `pagelen` 100 with `next`), and the current account (`GET /user`: its `uuid`).
 *
 * A repository, project or workspace access token writes as a bot account of its own, which `GET
 * /user` does not show (Bitbucket answers 401, "Token is invalid or not supported for this
 * endpoint"): then the comment is written anew, the reply names the bot account, and that
 * account's earlier comments carrying the marker are deleted (the driver's rule), so one stays.
 */
import type { PlatformRefusal } from '../../http/rest-api.js'
import {
  buildStatus,
  cut,
  digestId,
  ignoreNotFound,
  oneLine,
  QUOTE_LIMITS,
  refusalSaid,
  severityIn,
  type Finding,
  type ProjectVerdict,
  type ReviewPlatform,
  type Said,
  type VerdictComment
} from '../review-platform.js'
import type { BitbucketApi } from './bitbucket-api.js'

export const BITBUCKET_LIMITS = {
  /** What a comment's body may take: Bitbucket Cloud names no limit; Data Center's is 32,768. */
  commentChars: 30_000,
  /** Pages of 100 comments read to find the project's: 2,000 comments. */
  commentPages: 20,
  annotationsPerRequest: 100,
  annotationsPerReport: 1000,
  summaryChars: 450,
  detailsChars: 2000,
  titleChars: 450
} as const

/** Where the decoration goes: the repository, its commit, and its pull request if any. */
interface BitbucketTarget {
  /** `workspace/repo_slug`. */
  repository: string
  commit: string
  pullRequestId: string | undefined
  /** Through Bitbucket Pipelines' proxy, without a token: it takes Code Insights requests only. */
  reportsOnly: boolean
}

/**
 * The Bitbucket Cloud repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(bitbucketCloud(api, target), outcomes, options)
 */
export function bitbucketCloud(bitbucket: BitbucketApi, target: BitbucketTarget): ReviewPlatform {
  const repository = repositoryPath(target.repository)
  const commit = `${repository}/commit/${encodeURIComponent(target.commit)}`
  const id = target.pullRequestId
  const comments = `${repository}/pullrequests/${encodeURIComponent(id ?? '')}/comments`
  return {
    words: {
      name: 'Bitbucket',
      status: 'build status',
      comment: 'comment',
      check: "that BITBUCKET_API_URL, when set, is Bitbucket Cloud's API, and that Bitbucket is up"
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.commit,
    ...(target.reportsOnly
      ? {}
      : {
          setStatus: async (verdict: ProjectVerdict) => {
            await bitbucket.request('POST', `${commit}/statuses/build`, {
              body: buildStatus(verdict, `https://bitbucket.org/${target.repository}`)
            })
          }
        }),
    writeReport: (verdict) =>
      writeReport(bitbucket, `${commit}/reports/${digestId(verdict.key)}`, verdict),
    review:
      target.reportsOnly || id === undefined
        ? undefined
        : {
            name: `pull request #${id}`,
            kind: 'pull request',
            commit: target.commit,
            markup: 'markdown',
            commentChars: BITBUCKET_LIMITS.commentChars,
            ownIdentity: async () => uuidOf((await bitbucket.request('GET', 'user')).body),
            identity: {
              level: 'info',
              instead:
                'the comment is written anew, and the earlier ones by the account Bitbucket names as its author are deleted'
            },
            verdicts: {
              keyedBy: 'marker',
              list: async () =>
                (await bitbucket.pages(comments, BITBUCKET_LIMITS.commentPages)).flatMap(asComment),
              async create(_verdict, raw) {
                const { body } = await bitbucket.request('POST', comments, {
                  body: { content: { raw } }
                })
                const created = (body ?? {}) as { id?: unknown; user?: unknown }
                return {
                  id: typeof created.id === 'number' ? created.id : undefined,
                  author: uuidOf(created.user)
                }
              },
              async update(comment, raw) {
                await bitbucket.request('PUT', `${comments}/${comment.id}`, {
                  body: { content: { raw } }
                })
                return true
              },
              async remove(comment) {
                await bitbucket.request('DELETE', `${comments}/${comment.id}`)
              }
            }
          },
    noReview: target.reportsOnly
      ? 'Bitbucket: without BITBUCKET_TOKEN the reports go through the Pipelines proxy, which takes Code Insights only: no build status, no comment.'
      : 'Not a pull-request pipeline (no BITBUCKET_PR_ID): the build statuses and reports are set, and no comment is written.',
    close: () => bitbucket.close()
  }
}

/**
 * Writes the project's report and its annotations, the most severe new issues first, at most
 * 1,000. Returns how many annotations were written.
 */
async function writeReport(
  bitbucket: BitbucketApi,
  path: string,
  verdict: ProjectVerdict
): Promise<number> {
  // No report yet: nothing to delete.
  await bitbucket.request('DELETE', path).catch(ignoreNotFound)
  await bitbucket.request('PUT', path, {
    body: {
      title: verdict.say(cut(`SonarQube: ${oneLine(verdict.key)}`, BITBUCKET_LIMITS.titleChars)),
      details: cut(verdict.words, BITBUCKET_LIMITS.detailsChars),
      report_type: 'BUG',
      reporter: 'SonarQube',
      result: verdict.failing ? 'FAILED' : 'PASSED',
      ...(verdict.dashboard ? { link: verdict.dashboard } : {}),
      data: verdict.figures
    }
  })
  const annotations = verdict.findings
    .slice(0, BITBUCKET_LIMITS.annotationsPerReport)
    .map((finding) => annotation(finding, verdict.say))
  for (let at = 0; at < annotations.length; at += BITBUCKET_LIMITS.annotationsPerRequest) {
    await bitbucket.request('POST', `${path}/annotations`, {
      body: annotations.slice(at, at + BITBUCKET_LIMITS.annotationsPerRequest)
    })
  }
  return annotations.length
}

const BITBUCKET_SEVERITY = severityIn('bitbucketCloud')

const ANNOTATION_TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL'])

/** One issue as an annotation: plain text (Bitbucket shows it as such), through the sink. */
function annotation(finding: Finding, say: (text: string) => string): Record<string, unknown> {
  const rule = oneLine(finding.ruleName ?? finding.rule)
  return {
    external_id: externalId(finding.key),
    annotation_type: ANNOTATION_TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
    severity: BITBUCKET_SEVERITY(finding.severity),
    summary: say(cut(oneLine(finding.message, Infinity), BITBUCKET_LIMITS.summaryChars)),
    details: say(cut(`${rule} (${finding.severityWord})`, BITBUCKET_LIMITS.detailsChars)),
    link: say(finding.url),
    ...(finding.file !== undefined && say(finding.file) === finding.file
      ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
      : {})
  }
}

/**
 * An annotation's id: the issue key, prefixed as Bitbucket asks; a key with other characters
 * than those keys hold, by its digest.
 *
 * @example externalId('AYIssue00001') // 'sonarqube-AYIssue00001'
 */
function externalId(key: string): string {
  return /^[\w.:-]{1,200}$/.test(key) ? `sonarqube-${key}` : digestId(key, 32)
}

/** `repositories/{workspace}/{repo_slug}`, each part encoded. */
function repositoryPath(fullName: string): string {
  const [workspace = '', slug = ''] = fullName.split('/')
  return `repositories/${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}`
}

/** An account's `uuid` (`{…}`, as Bitbucket writes it), lower-cased to compare. */
function uuidOf(account: unknown): string | undefined {
  const uuid = (account as { uuid?: unknown } | null | undefined)?.uuid
  return typeof uuid === 'string' && /^\{[0-9a-f-]{1,40}\}$/i.test(uuid)
    ? uuid.toLowerCase()
    : undefined
}

/** A comment as the listing gives it, its shape checked. */
function asComment(item: unknown): VerdictComment[] {
  const { id, content, deleted, user } = (item ?? {}) as {
    id?: unknown
    content?: { raw?: unknown }
    deleted?: unknown
    user?: unknown
  }
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || deleted === true) return []
  return typeof content?.raw === 'string' ? [{ id, body: content.raw, author: uuidOf(user) }] : []
}

function refusalWords(error: PlatformRefusal, target: BitbucketTarget): Said {
  const repository = oneLine(target.repository, QUOTE_LIMITS.short)
  return refusalSaid('Bitbucket', error.status, {
    401: 'The token in BITBUCKET_TOKEN is not valid (401): give a repository or workspace access token.',
    403: `The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write scope for statuses and reports, and pull requests write for the comment.`,
    404: `Bitbucket shows this token no repository ${repository}${target.pullRequestId === undefined ? '' : ` or pull request #${oneLine(target.pullRequestId, 20)}`} (404): check BITBUCKET_REPO_FULL_NAME and BITBUCKET_PR_ID, and that the token is this repository's or its workspace's.`
  })
}
