/**
 * `--decorate` in Azure Pipelines: the pull request from the pipeline's variables
 * (SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT, BUILD_REPOSITORY_ID,
 * SYSTEM_PULLREQUEST_PULLREQUESTID, BUILD_SOURCEVERSION), the token from SYSTEM_ACCESSTOKEN
 * (which the step must map: `env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)`), and the
 * decoration itself. The token goes to the collection's origin only and is hidden from the log
 * and the comments; the Sonar token never goes to Azure DevOps. Nothing here changes the verdict
 * or the exit code: what is missing is one warning.
 */
import { decorationDeadline } from '../deadline.js'
import { AzureApi } from '../azure/azure-api.js'
import { AZURE_LIMITS, decorateAzure } from '../azure/pull-request-decoration.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { markdownForms } from '../report/markup.js'
import {
  decoratedCommit,
  httpUrl,
  platformSink,
  type DecorationContext
} from './decoration-context.js'

/**
 * Decorates the Azure DevOps pull request with the outcomes, or says in one warning why it
 * cannot.
 *
 * @example await decorateInAzure(outcomes, context)
 */
export async function decorateInAzure(
  outcomes: readonly AnalysisOutcome[],
  context: DecorationContext
): Promise<void> {
  const { env, log } = context
  const found = azurePullRequest(env)
  if ('missing' in found) {
    log.warning(`--decorate: ${found.missing}; nothing is decorated.`)
    return
  }
  const token = env['SYSTEM_ACCESSTOKEN']?.trim()
  if (!token) {
    log.warning(
      '--decorate: SYSTEM_ACCESSTOKEN is not set; nothing is decorated. Map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)), and give the build service "Contribute to pull requests" on the repository.'
    )
    return
  }
  const sink = platformSink(context, token, {
    escapedForms: markdownForms,
    limit: AZURE_LIMITS.commentChars
  })
  const azure = new AzureApi({
    collectionUrl: found.collectionUrl,
    repositoryUrl: found.repositoryUrl,
    token,
    userAgent: context.userAgent,
    clock: context.clock,
    deadline: decorationDeadline(context)
  })
  try {
    await decorateAzure(azure, { id: found.pullRequestId }, outcomes, {
      sink,
      policy: context.policy,
      commentWhen: context.commentWhen,
      inlineLimit: context.inlineLimit,
      inlineSeverity: context.inlineSeverity,
      commit: decoratedCommit(context, found.commit),
      log
    })
  } finally {
    azure.close()
  }
}

/** The pull request the pipeline's variables name, or what is missing. */
export function azurePullRequest(
  env: NodeJS.ProcessEnv
):
  | { collectionUrl: URL; repositoryUrl: URL; pullRequestId: string; commit: string }
  | { missing: string } {
  const value = (name: string) => env[name]?.trim() || undefined
  const collection = httpUrl(value('SYSTEM_COLLECTIONURI'))
  if (!collection) return { missing: 'SYSTEM_COLLECTIONURI is not an http(s) address' }
  const project = value('SYSTEM_TEAMPROJECT')
  if (!project || project.length > 200) return { missing: 'SYSTEM_TEAMPROJECT is not set' }
  const repository = value('BUILD_REPOSITORY_ID')
  if (!repository || !/^[\w-]{1,100}$/.test(repository)) {
    return { missing: 'BUILD_REPOSITORY_ID is not a repository id' }
  }
  const pullRequestId = value('SYSTEM_PULLREQUEST_PULLREQUESTID')
  if (!pullRequestId || !/^\d{1,12}$/.test(pullRequestId)) {
    return {
      missing:
        "not a pull-request build (no SYSTEM_PULLREQUEST_PULLREQUESTID): Azure DevOps statuses and threads are a pull request's"
    }
  }
  const commit = value('BUILD_SOURCEVERSION') ?? ''
  const base = collection.href.replace(/\/*$/, '/')
  return {
    collectionUrl: new URL(base),
    repositoryUrl: new URL(
      `${encodeURIComponent(project)}/_apis/git/repositories/${encodeURIComponent(repository)}/`,
      base
    ),
    pullRequestId,
    commit
  }
}
