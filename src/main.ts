import * as core from '@actions/core'
import { systemClock } from './clock.js'
import { QualityGateFailure } from './errors.js'
import { runnerLog } from './log.js'
import { checkQualityGate, type GateResult } from './gate/check.js'
import {
  annotate,
  gateFailureMessage,
  renderFailureSummary,
  renderSummary
} from './report/summary.js'
import { tokenForms } from './secrets.js'
import { readSettings } from './settings.js'

const USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`
const log = runnerLog(core)

/** The action: settings → check → outputs, annotations, summary, verdict. */
export async function run(): Promise<void> {
  // The time-out counts from the step's start: the process start, module loading included.
  const startedAt = Math.min(systemClock.now(), Math.round(performance.timeOrigin))
  try {
    const settings = readSettings(core.getInput, process.env)
    if (settings.sonarToken) tokenForms(settings.sonarToken).forEach(core.setSecret)

    const result = await checkQualityGate(settings, {
      cwd: process.cwd(),
      clock: systemClock,
      startedAt,
      log,
      userAgent: USER_AGENT
    })
    setOutputs(result)
    annotate(result, log)
    await writeSummary(renderSummary(result))

    if (result.status === 'ERROR') {
      if (settings.failOnError) throw new QualityGateFailure(gateFailureMessage(result))
      core.warning(`${gateFailureMessage(result)}\nfailOnError is false: the job goes on.`)
    } else {
      log.info(`Quality Gate status: ${result.status}`)
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (!(error instanceof QualityGateFailure)) await writeSummary(renderFailureSummary(message))
    core.setFailed(message)
  }
}

function setOutputs(result: GateResult): void {
  core.setOutput('status', result.status)
  core.setOutput('quality-gate-status', result.qualityGateStatus)
  core.setOutput('analysisId', result.analysisId)
  core.setOutput('taskId', result.taskId ?? '')
  core.setOutput('dashboardUrl', result.dashboardUrl ?? '')
  core.setOutput('conditions', JSON.stringify(result.rawConditions))
}

/** Best-effort: a summary that cannot be written never fails the job. */
async function writeSummary(markdown: string): Promise<void> {
  if (!process.env['GITHUB_STEP_SUMMARY']) return
  try {
    await core.summary.addRaw(markdown, true).write()
  } catch (error) {
    log.info(`Could not write the job summary: ${(error as Error).message}`)
  }
}
