import * as core from '@actions/core'
import { systemClock } from '../clock.js'
import { QualityGateFailure } from '../errors.js'
import { runnerLog } from '../log.js'
import { checkQualityGate, type GateResult } from '../gate/check.js'
import { gateOutputs, OUTPUT_BYTES } from '../report/outputs.js'
import {
  annotate,
  gateFailureMessage,
  renderFailureSummary,
  renderSummary
} from '../report/summary.js'
import { summaryForms } from '../report/summary-text.js'
import { redactSecrets, tokenForms } from '../secrets.js'
import { readSettings } from '../settings.js'

const USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`
/** Every line the action logs, annotations and the failure included, goes through this gate. */
const log = runnerLog(core)

/**
 * The action: settings → check → outputs, annotations, summary, verdict. The time-out counts
 * from `startedAt`: by default the process start, module loading included (tests pass a time).
 */
export async function run(
  startedAt: number = Math.min(systemClock.now(), Math.round(performance.timeOrigin))
): Promise<void> {
  // The runner masks these in the log only: the summary and the outputs are redacted here.
  let secrets: string[] = []
  try {
    const settings = readSettings(core.getInput, process.env)
    if (settings.sonarToken) secrets = tokenForms(settings.sonarToken)
    log.hideSecrets(secrets)

    const result = await checkQualityGate(settings, {
      cwd: process.cwd(),
      clock: systemClock,
      startedAt,
      log,
      userAgent: USER_AGENT
    })
    setOutputs(result, secrets)
    annotate(result, log)
    await writeSummary(renderSummary(result), secrets)

    if (result.status === 'ERROR') {
      if (settings.failOnError) throw new QualityGateFailure(gateFailureMessage(result))
      log.warning(`${gateFailureMessage(result)}\nfailOnError is false: the job goes on.`)
    } else {
      log.info(`Quality Gate status: ${result.status}`)
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (!(error instanceof QualityGateFailure)) {
      await writeSummary(renderFailureSummary(message), secrets)
    }
    log.fail(message)
  }
}

/** The outputs, bounded by `gateOutputs` and with every form of the token removed. */
function setOutputs(result: GateResult, secrets: readonly string[]): void {
  const { values, conditionsLeftOut } = gateOutputs(result)
  for (const [name, value] of Object.entries(values)) {
    core.setOutput(name, redactSecrets(value, secrets))
  }
  if (conditionsLeftOut > 0) {
    log.info(
      `The conditions output leaves out the last ${conditionsLeftOut} of ${result.conditions.length} conditions: it is limited to ${OUTPUT_BYTES} bytes.`
    )
  }
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
