/**
 * `--decorate` in a GitLab pipeline: the pipeline's facts from GitLab's predefined variables
 * (CI_API_V4_URL, CI_PROJECT_ID, CI_PROJECT_URL, CI_COMMIT_SHA, CI_MERGE_REQUEST_IID,
 * CI_PIPELINE_ID), the token from GITLAB_TOKEN, and the decoration itself. The GitLab token goes
 * to the origin of CI_API_V4_URL only and is hidden from the log and the note, like the Sonar
 * token, which never goes to GitLab. Nothing here changes the verdict or the exit code: what is
 * missing is one warning.
 */
import { decorationDeadline } from '../deadline.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { GitLabApi } from '../gitlab/gitlab-api.js'
import { decorateMergeRequest, type GitLabPipeline } from '../gitlab/merge-request-decoration.js'
import { NOTE_LIMITS } from '../gitlab/merge-request-note.js'
import { fileLinkUnder } from '../report/new-issues-block.js'
import { summaryForms } from '../report/summary-text.js'
import {
  decoratedCommit,
  httpUrl,
  platformSink,
  type DecorationContext
} from './decoration-context.js'

/**
 * Decorates the GitLab pipeline with the outcomes, or says in one warning why it cannot.
 *
 * @example await decorateGitLab(outcomes, { env, log, secrets, policy, commentWhen: 'always', clock, deadline, userAgent })
 */
export async function decorateGitLab(
  outcomes: readonly AnalysisOutcome[],
  context: DecorationContext
): Promise<void> {
  const { env, log } = context
  const found = gitlabPipeline(env, context.commit)
  if ('missing' in found) {
    log.warning(
      `--decorate: ${found.missing}; nothing is decorated. It runs in a GitLab CI job, with a project or group access token (api scope) in GITLAB_TOKEN.`
    )
    return
  }
  const token = env['GITLAB_TOKEN']?.trim()
  if (!token) {
    log.warning(
      '--decorate: GITLAB_TOKEN is not set; nothing is decorated. Set it to a project or group access token with the api scope, from a masked CI/CD variable (CI_JOB_TOKEN may not write notes or statuses).'
    )
    return
  }
  const sink = platformSink(context, token, {
    escapedForms: summaryForms,
    limit: NOTE_LIMITS.bodyChars
  })
  const { apiUrl, pipeline } = found
  const gitlab = new GitLabApi({
    apiUrl,
    token,
    userAgent: context.userAgent,
    clock: context.clock,
    deadline: decorationDeadline(context)
  })
  try {
    await decorateMergeRequest(gitlab, pipeline, outcomes, {
      sink,
      policy: context.policy,
      commentWhen: context.commentWhen,
      inlineLimit: context.inlineLimit,
      inlineSeverity: context.inlineSeverity,
      log
    })
  } finally {
    gitlab.close()
  }
}

/**
 * The pipeline GitLab's variables describe, or what is missing. CI_API_V4_URL must be an http(s)
 * address without credentials; the commit a full SHA. The statuses go on `commit` (--commit)
 * when given, else on CI_COMMIT_SHA (decoratedCommit); on another commit than the pipeline's
 * they name no pipeline (GitLab would find none of that commit with its id, and start one).
 */
export function gitlabPipeline(
  env: NodeJS.ProcessEnv,
  commit?: string
): { apiUrl: URL; pipeline: GitLabPipeline } | { missing: string } {
  const value = (name: string) => env[name]?.trim() || undefined
  const apiUrl = httpUrl(value('CI_API_V4_URL'))
  if (!apiUrl) return { missing: 'CI_API_V4_URL is not an http(s) address (not a GitLab CI job?)' }
  const projectId = value('CI_PROJECT_ID')
  if (!projectId || !/^\d{1,20}$/.test(projectId)) {
    return { missing: 'CI_PROJECT_ID is not a project id' }
  }
  const pipelineSha = value('CI_COMMIT_SHA')
  if (!pipelineSha || !/^[0-9a-f]{40}$|^[0-9a-f]{64}$/i.test(pipelineSha)) {
    return { missing: 'CI_COMMIT_SHA is not a full commit SHA' }
  }
  const sha = decoratedCommit({ commit }, pipelineSha)
  const iid = value('CI_MERGE_REQUEST_IID')
  const projectUrl = httpUrl(value('CI_PROJECT_URL'))
  return {
    apiUrl,
    pipeline: {
      projectId,
      sha,
      mergeRequestIid: iid && /^\d{1,20}$/.test(iid) ? iid : undefined,
      pipelineId:
        sha.toLowerCase() === pipelineSha.toLowerCase() ? value('CI_PIPELINE_ID') : undefined,
      fileLink: projectUrl
        ? fileLinkUnder(`${projectUrl.href.replace(/\/+$/, '')}/-/blob/${sha}`)
        : undefined
    }
  }
}
