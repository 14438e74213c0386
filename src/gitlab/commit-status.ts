/**
 * A project's commit status on GitLab (`POST projects/:id/statuses/:sha`), so that a
 * merge-request rule can require it.
 */
import { cut } from '../untrusted-text.js'
import type { GitLabApi } from './gitlab-api.js'

/** GitLab's limit on a commit status's texts. */
const STATUS_CHARS = 255

/** A commit status's state, as GitLab names them. */
type CommitState = 'pending' | 'running' | 'success' | 'failed' | 'canceled'

/**
 * The project's commit status on `sha` (`name` sonarqube/<project>), so that a merge-request rule
 * can require it: its description cut to GitLab's 255 characters, the dashboard as its target
 * when its address fits.
 */
export async function setCommitStatus(
  gitlab: GitLabApi,
  status: {
    projectId: string
    sha: string
    projectKey: string
    state: CommitState
    description: string
    targetUrl: string | undefined
    /** CI_PIPELINE_ID: the status joins the pipeline, whose success a merge-request rule requires. */
    pipelineId?: string
  }
): Promise<void> {
  const name = cut(`sonarqube/${status.projectKey}`, STATUS_CHARS)
  const targetUrl =
    status.targetUrl && status.targetUrl.length <= STATUS_CHARS
      ? { target_url: status.targetUrl }
      : {}
  await gitlab.request(
    'POST',
    `projects/${encodeURIComponent(status.projectId)}/statuses/${encodeURIComponent(status.sha)}`,
    {
      body: {
        state: status.state,
        name,
        description: cut(status.description, STATUS_CHARS),
        ...targetUrl,
        ...(status.pipelineId && /^\d{1,20}$/.test(status.pipelineId)
          ? { pipeline_id: Number(status.pipelineId) }
          : {})
      }
    }
  )
}
