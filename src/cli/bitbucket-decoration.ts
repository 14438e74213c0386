/**
 * `--decorate` in Bitbucket Pipelines: the pipeline's facts from Bitbucket's variables
 * (BITBUCKET_REPO_FULL_NAME, BITBUCKET_COMMIT, BITBUCKET_PR_ID; BITBUCKET_API_URL overrides the
 * API's address), the token from BITBUCKET_TOKEN (a repository or workspace access token) or,
 * without one, Bitbucket Pipelines' proxy for Code Insights, and the decoration itself. The token goes to the API's origin only and is hidden from the log and
 * the comment, like the Sonar token, which never goes to Bitbucket. Nothing here changes the
 * verdict or the exit code: what is missing is one warning.
 */
import { decorationDeadline } from '../deadline.js'
import { BitbucketApi, BITBUCKET_API } from '../bitbucket/bitbucket-api.js'
import { BITBUCKET_LIMITS, decorateBitbucket, type BitbucketPipeline } from '../bitbucket/cloud.js'
import { decorateDataCenter } from '../bitbucket/data-center.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { RestApi } from '../http/rest-api.js'
import { markdownForms } from '../report/markup.js'
import {
  decoratedCommit,
  httpUrl,
  platformSink,
  type DecorationContext
} from './decoration-context.js'

/**
 * Decorates the Bitbucket commit and pull request with the outcomes, or says in one warning why
 * it cannot.
 *
 * @example await decorateInBitbucket(outcomes, context)
 */
export async function decorateInBitbucket(
  outcomes: readonly AnalysisOutcome[],
  context: DecorationContext
): Promise<void> {
  const { env, log } = context
  const found = bitbucketPipeline(env, context.commit)
  if ('missing' in found) {
    log.warning(`--decorate: ${found.missing}; nothing is decorated.`)
    return
  }
  const token = env['BITBUCKET_TOKEN']?.trim() || undefined
  // Without a token, Bitbucket Pipelines' proxy signs the Code Insights requests of the build:
  // plain http to the API, through localhost:29418 (BITBUCKET_PIPELINES_PROXY overrides it).
  const pipelinesProxy = token
    ? undefined
    : httpUrl(value(env, 'BITBUCKET_PIPELINES_PROXY') ?? PIPELINES_PROXY)
  if (!token && !pipelinesProxy) {
    log.warning(
      '--decorate: BITBUCKET_PIPELINES_PROXY is not an http address; nothing is decorated.'
    )
    return
  }
  const sink = platformSink(context, token, {
    escapedForms: markdownForms,
    limit: BITBUCKET_LIMITS.commentChars
  })
  const bitbucket = new BitbucketApi({
    apiUrl: token ? found.apiUrl : new URL(found.apiUrl.href.replace(/^https:/, 'http:')),
    token,
    ...(pipelinesProxy ? { pipelinesProxy } : {}),
    userAgent: context.userAgent,
    clock: context.clock,
    deadline: decorationDeadline(context)
  })
  try {
    await decorateBitbucket(bitbucket, found.pipeline, outcomes, {
      sink,
      policy: context.policy,
      commentWhen: context.commentWhen,
      reportsOnly: token === undefined,
      log
    })
  } finally {
    bitbucket.close()
  }
}

/** Bitbucket Pipelines' proxy for Code Insights, as its documentation names it. */
const PIPELINES_PROXY = 'http://localhost:29418'

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[name]?.trim() || undefined
}

/**
 * The pipeline Bitbucket's variables describe, or what is missing; its commit is `commit`
 * (--commit) when given, else BITBUCKET_COMMIT (decoratedCommit).
 */
export function bitbucketPipeline(
  env: NodeJS.ProcessEnv,
  commit?: string
): { apiUrl: URL; pipeline: BitbucketPipeline } | { missing: string } {
  const value = (name: string) => env[name]?.trim() || undefined
  const repository = value('BITBUCKET_REPO_FULL_NAME')
  if (!repository || !/^[\w.-]{1,100}\/[\w.-]{1,100}$/.test(repository)) {
    return { missing: 'BITBUCKET_REPO_FULL_NAME is not workspace/repository' }
  }
  const pipelineCommit = value('BITBUCKET_COMMIT')
  if (!pipelineCommit || !/^[0-9a-f]{40}$/i.test(pipelineCommit)) {
    return { missing: 'BITBUCKET_COMMIT is not a full commit SHA' }
  }
  const apiUrl = httpUrl(value('BITBUCKET_API_URL') ?? BITBUCKET_API)
  if (!apiUrl) return { missing: 'BITBUCKET_API_URL is not an http(s) address' }
  const id = value('BITBUCKET_PR_ID')
  return {
    apiUrl,
    pipeline: {
      repository,
      commit: decoratedCommit({ commit }, pipelineCommit),
      pullRequestId: id && /^\d{1,12}$/.test(id) ? id : undefined
    }
  }
}

/**
 * Decorates a commit on Bitbucket Data Center (--bitbucket-server, --bitbucket-project,
 * --bitbucket-repo) with the outcomes: a Code Insights report and a build status per project,
 * on the commit decoratedCommit gives (--commit, else the CI's); or says in one warning why it
 * cannot.
 *
 * @example await decorateInBitbucketServer(outcomes, { url, project, repository }, commit, context)
 */
export async function decorateInBitbucketServer(
  outcomes: readonly AnalysisOutcome[],
  repository: { url: string; project: string; repository: string },
  commit: string | undefined,
  context: DecorationContext
): Promise<void> {
  const { env, log } = context
  const server = httpUrl(repository.url)
  if (!server) {
    log.warning('--decorate: --bitbucket-server is not an http(s) address; nothing is decorated.')
    return
  }
  if (!commit || !/^[0-9a-f]{40}$/i.test(commit)) {
    log.warning(
      '--decorate: no commit to decorate on Bitbucket Data Center; nothing is decorated. Give --commit, or run in a CI that names it (Jenkins: GIT_COMMIT).'
    )
    return
  }
  const token = env['BITBUCKET_TOKEN']?.trim()
  if (!token) {
    log.warning(
      '--decorate: BITBUCKET_TOKEN is not set; nothing is decorated. Set it to an HTTP access token of the repository or its project, with the repository write permission.'
    )
    return
  }
  const sink = platformSink(context, token, {})
  const rest = new RestApi({
    platform: 'Bitbucket',
    apiUrl: new URL('rest/', server.href.replace(/\/*$/, '/')),
    token,
    headers: { authorization: `Bearer ${token}` },
    redirectAdvice: 'Set --bitbucket-server to the address the server answers at.',
    userAgent: context.userAgent,
    clock: context.clock,
    deadline: decorationDeadline(context)
  })
  try {
    await decorateDataCenter(
      rest,
      { project: repository.project, repository: repository.repository, commit },
      outcomes,
      { sink, policy: context.policy, log }
    )
  } finally {
    rest.close()
  }
}
