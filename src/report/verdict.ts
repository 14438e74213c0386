import { FAIL_ON_ERROR, failsUnder, type FailPolicy } from '../fail-policy.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { firstLine, joined, msg, type Said } from '../words.js'
import { gateFailureMessage } from './gate-messages.js'

/**
 * What the step comes to, whichever edge reports it: every gate read and none of a status the
 * policy fails on; a gate that fails (ERROR, or WARN or NONE when the policy names them: the
 * settings' failStep says whether that fails the step); or analyses that could not be read, which
 * always fails: their gates are unknown. When the check had one analysis and could not read it
 * (or found nothing to check), the step fails with that failure's own words `alone`: there is
 * no verdict to report beside it (no outputs, annotations or overview; a failure summary).
 */
export type StepVerdict =
  | { kind: 'passed'; statuses: string[] }
  | { kind: 'gate-failed'; message: Said }
  | { kind: 'unread'; message: Said; alone: boolean; errors: unknown[] }

/**
 * The step's verdict under the policy, with the message it fails with: `Quality Gate Failure`
 * and why for each gate that fails (its failing conditions, or the status policy names), after
 * one line per analysis that could not be read.
 *
 * @example const verdict = stepVerdict(outcomes, settings.policy); if (verdict.kind !== 'passed') throw …
 */
export function stepVerdict(
  outcomes: readonly AnalysisOutcome[],
  policy: FailPolicy = FAIL_ON_ERROR
): StepVerdict {
  const results = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result] : []))
  const failures = results
    .filter(({ status }) => failsUnder(status, policy))
    .map(gateFailureMessage)
  const unread = outcomes.filter(
    (outcome): outcome is AnalysisOutcome & { read: false } => !outcome.read
  )
  const [only] = unread
  if (only && outcomes.length === 1) {
    return { kind: 'unread', message: only.message, alone: true, errors: [only.error] }
  }
  if (unread.length > 0) {
    const lines = unread.map(
      (outcome) =>
        msg`- ${oneLine(projectName(outcome), QUOTE_LIMITS.long)}: ${firstLine(outcome.message)}`
    )
    const head = `${unread.length} of ${outcomes.length} analyses could not be read: their gates are unknown.`
    return {
      kind: 'unread',
      message: joined([head, ...lines, ...failures], '\n'),
      alone: false,
      errors: unread.map((outcome) => outcome.error)
    }
  }
  if (failures.length > 0) return { kind: 'gate-failed', message: joined(failures, '\n') }
  const named = outcomes.length > 1
  return {
    kind: 'passed',
    statuses: results.map(
      ({ projectKey, status }) =>
        `${named ? `${oneLine(projectKey ?? '', QUOTE_LIMITS.short)} ` : ''}Quality Gate status: ${oneLine(status, QUOTE_LIMITS.short)}`
    )
  }
}
