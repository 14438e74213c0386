/**
 * `--decorate`: the platform the CI runs on decorates, found from its variables: GitLab CI
 * (CI_API_V4_URL), Bitbucket Pipelines (BITBUCKET_REPO_FULL_NAME), Azure Pipelines
 * (SYSTEM_COLLECTIONURI); Bitbucket Data Center when its options name a repository, from any
 * CI; elsewhere one warning. Every platform decorates the commit decoratedCommit says: --commit,
 * else the CI's. Whatever happens, the verdict and the exit code are the gate's.
 */
import { quotedSaidOf } from '../errors.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { decorateInAzure } from './azure-decoration.js'
import { decorateInBitbucket, decorateInBitbucketServer } from './bitbucket-decoration.js'
import { ciAnalysis } from './ci-analysis.js'
import { decoratedCommit, type DecorationContext } from './decoration-context.js'
import { decorateGitLab } from './gitlab-decoration.js'
import { msg } from '../words.js'

type DecorateContext = DecorationContext & {
  /** Bitbucket Data Center's repository, from the options, which wins over the CI's platform. */
  bitbucketServer?: { url: string; project: string; repository: string } | undefined
  /** --commit, when given. */
  commit?: string | undefined
}

/**
 * Decorates the platform the CI runs on with the outcomes; never throws.
 *
 * @example if (line.decorate) await decorate(outcomes, context)
 */
export async function decorate(
  outcomes: readonly AnalysisOutcome[],
  context: DecorateContext
): Promise<void> {
  try {
    await decorateFound(outcomes, context)
  } catch (error) {
    // Each platform says its own failures in one warning (`decorating`, decoration-steps.ts); this
    // keeps the promise for anything else: the verdict and the exit code are the gate's.
    context.log.warning(
      msg`--decorate failed, and nothing more is decorated; the verdict and the exit code are unchanged. ${quotedSaidOf(error)}`
    )
  }
}

async function decorateFound(
  outcomes: readonly AnalysisOutcome[],
  context: DecorateContext
): Promise<void> {
  const { env } = context
  if (context.bitbucketServer) {
    const fromTheCi = context.commit
      ? undefined
      : (await ciAnalysis(env).catch(() => undefined))?.commits[0]
    const commit = decoratedCommit(context, fromTheCi)
    return decorateInBitbucketServer(outcomes, context.bitbucketServer, commit, context)
  }
  if (env['CI_API_V4_URL']?.trim()) return decorateGitLab(outcomes, context)
  if (env['BITBUCKET_REPO_FULL_NAME']?.trim()) return decorateInBitbucket(outcomes, context)
  if (env['SYSTEM_COLLECTIONURI']?.trim()) return decorateInAzure(outcomes, context)
  context.log.warning(
    '--decorate: no platform found to decorate (GitLab CI sets CI_API_V4_URL, Bitbucket Pipelines BITBUCKET_REPO_FULL_NAME, Azure Pipelines SYSTEM_COLLECTIONURI); nothing is decorated.'
  )
}
