/**
 * The command's decoration of a GitLab pipeline: per project, a commit status on the head commit
 * and, in a merge-request pipeline, the project's note on the merge request, written as the
 * pull-request comment is (one body for both platforms: GitLab renders the same HTML blocks) and
 * updated in place, and discussions on the diff for the most severe new issues. The first step
 * that fails ends the decoration with one warning (decorating, in decoration-steps.ts), which
 * changes neither the verdict nor the exit code: a refusal (401, 403, 404) names what the token or
 * the merge request lacks, any other failure what GitLab did and what to check.
 */
import type { FailPolicy } from '../fail-policy.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import type { FileLink } from '../report/new-issues-block.js'
import {
  commentBody,
  commentVerdict,
  shouldWrite,
  type CommentWhen
} from '../report/pull-request-comment-body.js'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, msg } from '../words.js'
import type { Severity } from '../findings/finding.js'
import { hasBranchAnalyses, narrowToChangedLines } from '../gate/on-changed-lines.js'
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
import type { PlatformRefusal } from '../http/rest-api.js'
import type { GitLabApi } from './gitlab-api.js'
import { readChangedLines, readDiffRefs } from './merge-request-diffs.js'
import { discussIssues } from './merge-request-discussions.js'
import { setCommitStatus } from './commit-status.js'
import { upsertNote, type MergeRequestRef } from './merge-request-note.js'

/** Where the decoration goes: the GitLab project, its commit, and its merge request if any. */
export interface GitLabPipeline {
  /** CI_PROJECT_ID. */
  projectId: string
  /** CI_COMMIT_SHA: the commit the statuses are set on. */
  sha: string
  /** CI_MERGE_REQUEST_IID, in a merge-request pipeline. */
  mergeRequestIid: string | undefined
  /** CI_PIPELINE_ID: the statuses join the pipeline, so a rule on its success sees them. */
  pipelineId: string | undefined
  /** Links a new issue's file to the file at the commit, on GitLab (from CI_PROJECT_URL). */
  fileLink: FileLink | undefined
}

export interface DecorationOptions {
  /** The note's sink: the command's words, the Sonar and GitLab tokens hidden, GitLab's limit. */
  sink: Sink
  policy: FailPolicy
  commentWhen: CommentWhen
  /** At most this many new discussions on the diff a run (0: none, and none resolved). */
  inlineLimit: number
  /** The least severe issue that gets a discussion. */
  inlineSeverity: Severity
  log: Log
}

/**
 * Decorates the pipeline for every outcome: the commit statuses; in a merge-request pipeline, the
 * lines the merge request adds (a branch analysis's issues narrowed to them, as Community Build
 * needs), each project's note, and the discussions on the diff. Resolves once done, whatever
 * GitLab answered; what happened is in the log.
 *
 * @example await decorateMergeRequest(gitlab, pipeline, outcomes, { sink, policy, commentWhen: 'always', inlineLimit: 10, inlineSeverity: 'info', log })
 */
export async function decorateMergeRequest(
  gitlab: GitLabApi,
  pipeline: GitLabPipeline,
  outcomes: readonly AnalysisOutcome[],
  options: DecorationOptions
): Promise<void> {
  const { log } = options
  const platform = {
    name: 'GitLab',
    check: "that CI_API_V4_URL is GitLab's REST API and that GitLab is up",
    refusal: (error: PlatformRefusal) => refusalWords(error, pipeline)
  }
  await decorating(log, platform, async (log) => {
    // One request at a time (GitLab's requests share one kept-alive connection), so a refusal
    // stops the decoration before anything else is sent.
    for (const outcome of outcomes) {
      await decorationStep(`the commit status for ${nameOf(outcome)}`, () =>
        setStatus(gitlab, pipeline, outcome, options)
      )
    }
    const iid = pipeline.mergeRequestIid
    if (iid === undefined) {
      log.info(
        'Not a merge-request pipeline (no CI_MERGE_REQUEST_IID): the commit statuses are set, and no note is written.'
      )
      return
    }
    const mergeRequest = { projectId: pipeline.projectId, iid }
    // Unknown (undefined): the note is written anew, and no discussion is resolved.
    const me = await ownIdentity(log, 'GitLab', () => gitlab.ownUserId())
    const wanted = hasBranchAnalyses(outcomes) || options.inlineLimit > 0
    const diff = wanted
      ? await decorationStep(`the lines merge request !${iid} changes`, async () => ({
          changes: await readChangedLines(gitlab, mergeRequest),
          refs: await readDiffRefs(gitlab, mergeRequest)
        }))
      : undefined
    const shown = diff
      ? narrowToChangedLines(outcomes, diff.changes.lines, `merge request !${iid}`, log)
      : outcomes
    for (const outcome of shown) {
      await decorationStep(`the note for ${nameOf(outcome)}`, async () => {
        const written = await writeNote(gitlab, mergeRequest, pipeline, outcome, me, options)
        log.info(
          written === 'unchanged'
            ? msg`GitLab: the note for ${nameOf(outcome)} is left as it is (${setting('comment')} ${options.commentWhen}).`
            : `GitLab: the note for ${nameOf(outcome)} is ${written} on merge request !${iid}.`
        )
      })
    }
    if (options.inlineLimit > 0 && diff?.refs) {
      const refs = diff.refs
      await decorationStep('the discussions on the diff', async () => {
        const done = await discussIssues(gitlab, mergeRequest, {
          ...issuesOf(shown),
          changes: diff.changes,
          diffRefs: refs,
          me,
          limit: options.inlineLimit,
          lowest: options.inlineSeverity,
          sink: options.sink
        })
        const past =
          done.leftOut > 0 ? msg`; ${done.leftOut} more past ${setting('inlineLimit')}` : ''
        log.info(
          msg`GitLab: ${done.started} discussions started on the diff${past}, ${done.resolved} resolved (their issues are gone).`
        )
      })
    } else if (options.inlineLimit > 0 && diff) {
      log.info(
        `GitLab has not computed merge request !${iid}'s diff yet (no diff_refs): no discussions this run.`
      )
    }
  })
}

/** The project's commit status: success or failed as the policy judges the gate. */
async function setStatus(
  gitlab: GitLabApi,
  pipeline: GitLabPipeline,
  outcome: AnalysisOutcome,
  { sink, policy }: DecorationOptions
): Promise<void> {
  await setCommitStatus(gitlab, {
    projectId: pipeline.projectId,
    sha: pipeline.sha,
    // Through the sink like every text sent: a key that holds a secret is not sent with it.
    projectKey: sink.text(projectName(outcome)),
    state: failing(outcome, policy) ? 'failed' : 'success',
    description: sink.text(statusWords(outcome, policy, sink)),
    targetUrl: dashboardOf(outcome),
    pipelineId: pipeline.pipelineId
  })
}

/**
 * The note, unless `commentWhen` says to leave it: `failed` writes no new note for a passing
 * gate (an existing one is still updated, so it never shows a failure that is gone); `changed`
 * leaves the note alone while its verdict is the same.
 */
async function writeNote(
  gitlab: GitLabApi,
  mergeRequest: MergeRequestRef,
  pipeline: GitLabPipeline,
  outcome: AnalysisOutcome,
  me: number | undefined,
  { sink, policy, commentWhen }: DecorationOptions
): Promise<'created' | 'updated' | 'unchanged'> {
  const verdict = commentVerdict(outcome, policy)
  const body = commentBody(outcome, pipeline.sha, { sink, policy, fileLink: pipeline.fileLink })
  const marker = body.slice(0, body.indexOf('\n'))
  const write = (existing: string | undefined) => shouldWrite(commentWhen, verdict, existing)
  const { action } = await upsertNote(gitlab, mergeRequest, marker, body, { write, me })
  return action
}

/** The one warning for a refusal: what the token or the merge request lacks. */
function refusalWords(error: PlatformRefusal, pipeline: GitLabPipeline): string {
  const where = `project ${oneLine(pipeline.projectId, QUOTE_LIMITS.short)}`
  const base = 'GitLab refused the decoration; the verdict and the exit code are unchanged.'
  switch (error.status) {
    case 401:
      return `${base} The token in GITLAB_TOKEN is not valid (401): give a project or group access token with the api scope (CI_JOB_TOKEN may not write notes or statuses).`
    case 403:
      return `${base} The token in GITLAB_TOKEN may not write to ${where} (403): it needs the api scope, and the Developer role to set commit statuses.`
    default:
      return `${base} GitLab has no ${pipeline.mergeRequestIid === undefined ? where : `merge request !${oneLine(pipeline.mergeRequestIid, 40)} in ${where}`} for this token (404): check CI_PROJECT_ID and CI_MERGE_REQUEST_IID, and that the token's project or group is this one.`
  }
}
