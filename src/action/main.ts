import * as core from '@actions/core'
import { systemClock } from '../clock.js'
import { decorationDeadline, overallDeadline } from '../deadline.js'
import { saidOf } from '../errors.js'
import { checkQualityGates } from '../gate/check-analyses.js'
import { runnerLog } from '../log.js'
import { renderFailureSummary } from '../report/summary.js'
import { stepVerdict } from '../report/verdict.js'
import { shortTokenWarning, tokenForms } from '../secrets.js'
import { githubContext, onThePullRequest } from './github-context.js'
import { jobSummary } from './job-summary.js'
import { ACTION_NAMES, USER_AGENT } from './names.js'
import { findReportFiles } from './report-globs.js'
import { reportOutcomes } from './report.js'
import { withTheRunsAnalysis } from './run-analysis.js'
import { givenToken, readActionSettings } from './settings.js'
import { actionSinks } from './sinks.js'
import { stepEnd } from './step-end.js'

/**
 * The action: inputs → settings → the check of every analysis → its sinks → the verdict. The
 * time-out counts from `startedAt`: by default the process start, module loading included
 * (tests pass a time). Every failure is caught here, once.
 */
export async function run(
  startedAt: number = Math.min(systemClock.now(), Math.round(performance.timeOrigin))
): Promise<void> {
  const log = runnerLog(core, ACTION_NAMES)
  const summary = jobSummary(core.summary, process.env, log)
  let sinks = actionSinks([])
  try {
    // Masked first: a refused input's message is written with the token already hidden.
    const secrets = tokenForms(givenToken(core.getInput, process.env))
    log.hideSecrets(secrets)
    sinks = actionSinks(secrets)
    const inputs = readActionSettings(core.getInput, process.env)
    const short = inputs.token ? shortTokenWarning(inputs.token) : undefined
    if (short) log.warning(short)

    const cwd = process.cwd()
    const github = await githubContext(process.env)
    const deadline = overallDeadline(startedAt, inputs.timeoutMs)
    const settings = await withTheRunsAnalysis(inputs, github, process.env, log, deadline)
    const checked = await checkQualityGates(settings, {
      cwd,
      repoRoot: process.env['GITHUB_WORKSPACE'] || cwd,
      clock: systemClock,
      startedAt,
      deadline,
      log,
      userAgent: USER_AGENT,
      findFiles: findReportFiles
    })
    // GitHub's changed lines, check runs and comment: within the decoration's allowance.
    const decorateBy = decorationDeadline({ clock: systemClock, deadline })
    const access = { token: settings.gitHubToken, env: process.env, log, decorateBy }
    const outcomes = await onThePullRequest(checked, github, access)
    const verdict = stepVerdict(outcomes, settings.policy)
    const context = { settings, github, log, sinks, summary, env: process.env, decorateBy }
    const outputsProblem = await reportOutcomes(outcomes, verdict, context)
    const failure = stepEnd(verdict, outcomes, { ...settings, outputsProblem }, log)
    if (failure) log.fail(failure)
  } catch (error) {
    if (!summary.done) await summary.write(renderFailureSummary(saidOf(error), sinks.summary))
    log.fail(saidOf(error))
  }
}
