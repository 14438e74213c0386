import * as core from '@actions/core'
import { systemClock } from '../clock.js'
import { ActionError, OutputFileError, QualityGateFailure } from '../errors.js'
import type { FailPolicy } from '../fail-policy.js'
import { checkQualityGates } from '../gate/check-analyses.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { stepVerdict } from '../report/verdict.js'
import { runnerLog } from '../log.js'
import { analysesOutputs, OUTPUT_BYTES } from '../report/outputs.js'
import { annotateAll, renderOverviewSummary } from '../report/overview.js'
import { renderFailureSummary, renderSummary } from '../report/summary.js'
import { summaryForms } from '../report/summary-text.js'
import { redactSecrets, shortTokenWarning, tokenForms } from '../secrets.js'
import { readSettings } from '../settings.js'
import { githubContext } from './github-context.js'
import { annotateNewIssues } from './issue-annotations.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { outputFileProblem } from './output-file.js'
import { commentOnPullRequest } from './pull-request-comment.js'
import { findReportFiles } from './report-globs.js'

const USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`
/** Every line the action logs, annotations and the failure included, goes through this gate. */
const log = runnerLog(core)

/**
 * The action: settings → check of every analysis → outputs, annotations, summary, the
 * pull-request comment when asked, verdict. The time-out counts from `startedAt`: by default the
 * process start, module loading included (tests pass a time).
 */
export async function run(
  startedAt: number = Math.min(systemClock.now(), Math.round(performance.timeOrigin))
): Promise<void> {
  // The runner masks these in the log only: the summary and the outputs are redacted here.
  let secrets: string[] = []
  let summaryWritten = false
  try {
    const settings = readSettings(core.getInput, process.env)
    if (settings.sonarToken) secrets = tokenForms(settings.sonarToken)
    log.hideSecrets(secrets)
    const short = settings.sonarToken ? shortTokenWarning(settings.sonarToken) : undefined
    if (short) log.warning(short)

    const cwd = process.cwd()
    let outcomes = await checkQualityGates(settings, {
      cwd,
      repoRoot: process.env['GITHUB_WORKSPACE'] || cwd,
      clock: systemClock,
      startedAt,
      log,
      userAgent: USER_AGENT,
      findFiles: findReportFiles
    })
    const github = await githubContext(process.env)
    const token = settings.githubToken
    if (github.pullRequest) {
      const { onPullRequestLines } = await import('./pull-request-lines.js')
      outcomes = await onPullRequestLines(outcomes, {
        pullRequest: github.pullRequest,
        token,
        env: process.env,
        log
      })
    }
    // One analysis that could not be read fails the step as it always did, with its own words
    // and the failure summary; the pull request is still told.
    const [only] = outcomes
    const lone = outcomes.length === 1 ? only : undefined
    const { fileLink } = github
    // Outputs that could not be written fail the step, but only after the gate has been
    // reported: the failure then says what the gate itself came to.
    let outputsProblem: string | undefined
    if (!lone || lone.read) {
      outputsProblem = setOutputs(outcomes, secrets, settings.failOn)
      annotateAll(outcomes, log, settings.failOn)
      if (settings.annotateIssues) {
        annotateNewIssues(outcomes, log, { checkRun: settings.issuesCheckRun })
      }
      await writeSummary(
        lone?.read
          ? renderSummary(lone.result, { fileLink, failOn: settings.failOn })
          : renderOverviewSummary(outcomes, { fileLink, failOn: settings.failOn }),
        secrets
      )
      summaryWritten = true
      // What the default path does not use is loaded only when asked for.
      if (settings.sarifFile) {
        const { writeSarifFile } = await import('./sarif-file.js')
        await writeSarifFile(settings.sarifFile, outcomes, { log, secrets })
      }
      if (settings.issuesCheckRun) {
        const { createCheckRuns } = await import('./check-run.js')
        await createCheckRuns(outcomes, { github, token, env: process.env, log, secrets })
      }
    }
    if (settings.pullRequestComment) {
      await commentOnPullRequest(outcomes, {
        token,
        env: process.env,
        log,
        secrets,
        fileLink,
        failOn: settings.failOn
      })
    }
    if (lone && !lone.read) throw lone.error
    const verdict = stepVerdict(outcomes, settings.failOn)
    if (verdict.kind === 'unread') throw new ActionError('ERR_ANALYSES_UNREAD', verdict.message)
    if (verdict.kind === 'gate-failed') {
      const also = outputsProblem ? `\n${outputsProblem}` : ''
      if (settings.failOnError) throw new QualityGateFailure(verdict.message + also)
      log.warning(`${verdict.message}\nfailOnError is false: the job goes on.`)
    } else {
      for (const line of verdict.statuses) log.info(line)
    }
    if (outputsProblem) {
      const gate =
        verdict.kind === 'passed'
          ? `The Quality Gate itself passed (${gateStatuses(outcomes)})`
          : 'The Quality Gate itself failed, and failOnError is false'
      throw new OutputFileError(
        `${outputsProblem} ${gate}: the step fails only because its outputs could not be set.`
      )
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (!summaryWritten) await writeSummary(renderFailureSummary(message), secrets)
    log.fail(message)
  }
}

/**
 * The outputs, bounded by `analysesOutputs` and with every form of the token removed; what was
 * wrong with the runner's output file when they could not be written.
 */
function setOutputs(
  outcomes: readonly AnalysisOutcome[],
  secrets: readonly string[],
  failOn: FailPolicy
): string | undefined {
  const { values, conditionsLeftOut } = analysesOutputs(outcomes, failOn)
  try {
    for (const [name, value] of Object.entries(values)) {
      core.setOutput(name, redactSecrets(value, secrets))
    }
  } catch (error) {
    return outputFileProblem(process.env['GITHUB_OUTPUT'] ?? '', error)
  }
  if (conditionsLeftOut > 0) {
    log.info(
      `The conditions output leaves out the last ${conditionsLeftOut} conditions: it is limited to ${OUTPUT_BYTES} bytes.`
    )
  }
  return undefined
}

/** The gate statuses read, each once: `OK`, or `OK, WARN` with several analyses. */
function gateStatuses(outcomes: readonly AnalysisOutcome[]): string {
  const statuses = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.status] : []))
  return [...new Set(statuses)].map((status) => oneLine(status, QUOTE_LIMITS.short)).join(', ')
}

/**
 * Best-effort: a summary that cannot be written never fails the job. Every form of the token,
 * as written and as the summary escapes it, is removed first.
 */
async function writeSummary(html: string, secrets: readonly string[]): Promise<void> {
  if (!process.env['GITHUB_STEP_SUMMARY']) return
  try {
    await core.summary.addRaw(redactSecrets(html, summaryForms(secrets)), true).write()
  } catch (error) {
    log.info(`Could not write the job summary: ${(error as Error).message}`)
  }
}
