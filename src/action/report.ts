import { giteaActions } from '../ci/gitea-repository.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { RunnerLog } from '../log.js'
import { annotateAll, renderOverviewSummary } from '../report/overview.js'
import { renderFailureSummary, renderSummary } from '../report/summary.js'
import type { StepVerdict } from '../report/verdict.js'
import { annotateNewIssues } from './issue-annotations.js'
import type { GitHubAccess, GitHubContext } from './github-context.js'
import type { JobSummary } from './job-summary.js'
import { setOutputs } from './outputs.js'
import type { ActionSettings } from './settings.js'
import type { ActionSinks } from './sinks.js'
import { msg, setting } from '../words.js'

interface ReportContext extends Omit<GitHubAccess, 'token'> {
  settings: ActionSettings
  github: GitHubContext
  log: RunnerLog
  sinks: ActionSinks
  summary: JobSummary
}

/**
 * The outcomes in every destination of the action: the outputs, the annotations, the job
 * summary, the SARIF file and the check runs when asked, and the pull-request comment when asked.
 * A check that failed alone (its one analysis unread) has only its failure to report: the failure
 * summary, and the comment. Returns what was wrong with the runner's output file, if anything:
 * the step fails for it after the verdict.
 */
export async function reportOutcomes(
  outcomes: readonly AnalysisOutcome[],
  verdict: StepVerdict,
  { settings, github, log, sinks, summary, env, decorateBy }: ReportContext
): Promise<string | undefined> {
  const { policy } = settings
  const { fileLink } = github
  const access = { token: settings.gitHubToken, env, log, decorateBy }
  // Gitea and Forgejo Actions set GitHub's variables too: their own API is written to.
  const forge = giteaActions(env)
  let outputsProblem: string | undefined
  if (verdict.kind === 'unread' && verdict.alone) {
    await summary.write(renderFailureSummary(verdict.message, sinks.summary))
  } else {
    outputsProblem = setOutputs(outcomes, policy, { sink: sinks.outputs, log, env })
    annotateAll(outcomes, log, policy)
    if (settings.annotate) annotateNewIssues(outcomes, log, { checkRun: settings.checkRun })
    const [only] = outcomes
    await summary.write(
      outcomes.length === 1 && only?.read
        ? renderSummary(only.result, { sink: sinks.summary, fileLink, policy })
        : renderOverviewSummary(outcomes, { sink: sinks.summary, fileLink, policy })
    )
    // What the default path does not use is loaded only when asked for.
    if (settings.sarifFile) {
      const { writeSarifFile } = await import('./sarif-file.js')
      await writeSarifFile(settings.sarifFile, outcomes, { log, sink: sinks.sarif })
    }
    if (settings.checkRun && forge) {
      log.info(msg`${forge} Actions has no check runs: ${setting('checkRun')} writes none there.`)
    } else if (settings.checkRun) {
      const { createCheckRuns } = await import('./check-run.js')
      await createCheckRuns(outcomes, { ...access, github, sink: sinks.checkRun, policy, fileLink })
    }
  }
  if (settings.comment) {
    const { commentOnPullRequest } = await import('./pull-request-comment.js')
    await commentOnPullRequest(outcomes, {
      ...access,
      when: settings.comment,
      sinks: { html: sinks.comment, markdown: sinks.markdownComment },
      fileLink,
      policy
    })
  }
  return outputsProblem
}
