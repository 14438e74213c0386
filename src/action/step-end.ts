import { msg, type Said } from '../words.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import type { StepVerdict } from '../report/verdict.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * How the step ends, from its verdict: the message it fails with, or undefined when it passes
 * (each gate's status is then logged). A failed gate with failOnError false is a warning. Outputs
 * that could not be written fail the step, but only after the gate has been reported: the
 * failure then says what the gate itself came to.
 *
 * @example const failure = stepEnd(verdict, outcomes, { failStep: true, outputsProblem }, log)
 */
export function stepEnd(
  verdict: StepVerdict,
  outcomes: readonly AnalysisOutcome[],
  { failStep, outputsProblem }: { failStep: boolean; outputsProblem: string | undefined },
  log: Log
): Said | undefined {
  switch (verdict.kind) {
    case 'unread':
      return verdict.message
    case 'gate-failed':
      if (failStep)
        return outputsProblem ? msg`${verdict.message}\n${outputsProblem}` : verdict.message
      log.warning(msg`${verdict.message}\nfailOnError is false: the job goes on.`)
      break
    case 'passed':
      for (const line of verdict.statuses) log.info(line)
      break
  }
  if (!outputsProblem) return undefined
  const gate =
    verdict.kind === 'passed'
      ? `The Quality Gate itself passed (${gateStatuses(outcomes)})`
      : 'The Quality Gate itself failed, and failOnError is false'
  return `${outputsProblem} ${gate}: the step fails only because its outputs could not be set.`
}

/** The gate statuses read, each once: `OK`, or `OK, WARN` with several analyses. */
function gateStatuses(outcomes: readonly AnalysisOutcome[]): string {
  const statuses = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.status] : []))
  return [...new Set(statuses)].map((status) => oneLine(status, QUOTE_LIMITS.short)).join(', ')
}
