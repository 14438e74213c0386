import * as core from '@actions/core'
import { statSync } from 'node:fs'
import { messageOf } from '../errors.js'
import type { FailPolicy } from '../fail-policy.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { analysesOutputs, OUTPUT_BYTES } from '../report/outputs.js'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

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

/**
 * Why the runner's output file could not be written, in words a user can act on: @actions/core
 * says only "Missing file at path: …" or the system's EISDIR / EACCES. The file is looked at
 * again to tell which.
 *
 * @example outputFileProblem('/tmp/out', error) // "The runner's output file (GITHUB_OUTPUT) could not be written: /tmp/out does not exist. …"
 */
function outputFileProblem(file: string, error: unknown): string {
  const shown = oneLine(file, QUOTE_LIMITS.long)
  return [
    `The runner's output file (GITHUB_OUTPUT) could not be written: ${shown} ${whatIsWrong(file, error)}.`,
    'The runner creates it for each step: check that no earlier step removed or replaced it and that the workflow does not set GITHUB_OUTPUT itself.'
  ].join(' ')
}

function whatIsWrong(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  try {
    if (statSync(file).isDirectory()) return 'is a directory'
  } catch (statError) {
    if ((statError as NodeJS.ErrnoException).code === 'ENOENT') return 'does not exist'
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return 'may not be written (permission denied)'
  }
  return `could not be appended to (${oneLine(messageOf(error), QUOTE_LIMITS.short)})`
}
