import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import type { GitHubContext } from './github-context.js'

/**
 * On a pull request, the branch analyses' new issues narrowed to the lines it changes; loaded
 * only then.
 */
export async function onThePullRequest(
  outcomes: AnalysisOutcome[],
  { pullRequest }: GitHubContext,
  options: { token: string | undefined; env: NodeJS.ProcessEnv; log: Log; decorateBy: number }
): Promise<AnalysisOutcome[]> {
  if (!pullRequest) return outcomes
  const { onPullRequestLines } = await import('./pull-request-lines.js')
  return onPullRequestLines(outcomes, { ...options, pullRequest })
}
