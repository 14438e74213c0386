import * as core from '@actions/core'
import type { FailPolicy } from '../fail-policy.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { analysesOutputs, OUTPUT_BYTES } from '../report/outputs.js'
import type { Sink } from '../sink.js'
import { outputFileProblem } from './output-file.js'

/**
 * The step's outputs, through their sink (bounded, every form of the token removed); what was
 * wrong with the runner's output file when they could not be written.
 */
export function setOutputs(
  outcomes: readonly AnalysisOutcome[],
  policy: FailPolicy,
  { sink, log, env }: { sink: Sink; log: Log; env: NodeJS.ProcessEnv }
): string | undefined {
  const { values, conditionsLeftOut } = analysesOutputs(outcomes, policy, sink)
  try {
    for (const [name, value] of Object.entries(values)) core.setOutput(name, value)
  } catch (error) {
    return outputFileProblem(env['GITHUB_OUTPUT'] ?? '', error)
  }
  if (conditionsLeftOut > 0) {
    log.info(
      `The conditions output leaves out the last ${conditionsLeftOut} conditions: it is limited to ${OUTPUT_BYTES} bytes.`
    )
  }
  return undefined
}
