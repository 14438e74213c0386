import type { Said } from '../words.js'
import type { GateResult } from './check.js'

/**
 * What became of one analysis in a step that checks several: its gate, or why it could not be
 * read. One analysis failing to be read never loses the others' verdicts.
 */
export type AnalysisOutcome =
  | { read: true; source: string; result: GateResult }
  | {
      read: false
      /** What was checked: the report file (as found), or the task or analysis asked for by its id. */
      source: string
      /** The project, when the report file names it. */
      projectKey: string | undefined
      /** Why the gate could not be read, in words a user can act on. */
      message: Said
      /** The failure itself (an ExplainedError, unless something unforeseen happened). */
      error: Error
    }

/**
 * The project key, or else where the analysis came from (its report file): how every
 * destination names the analysis.
 */
export function projectName(outcome: AnalysisOutcome): string {
  return projectKeyOf(outcome) ?? outcome.source
}

function projectKeyOf(outcome: AnalysisOutcome): string | undefined {
  return outcome.read ? outcome.result.projectKey : outcome.projectKey
}

/**
 * The projects of `all` that no outcome is about: those this run did not analyse (a monorepo's
 * project with no change). Undefined while an outcome's project is unknown (a report file that
 * could not be read): it may be one of them, and none can be said not analysed.
 *
 * @example notAnalysed(outcomes, ['web', 'api']) // ['api'] when only web was analysed
 */
export function notAnalysed(
  outcomes: readonly AnalysisOutcome[],
  all: readonly string[]
): string[] | undefined {
  const keys = outcomes.map(projectKeyOf)
  if (keys.includes(undefined)) return undefined
  return all.filter((key) => !keys.includes(key))
}

/** The verdicts from worst to best: the step's `status` is the worst of its analyses'. */
const VERDICT_ORDER = ['ERROR', 'WARN', 'NONE', 'OK'] as const

/**
 * The worst of the gate statuses (ERROR > WARN > NONE > OK); a status the action does not know
 * counts as NONE; none at all is OK.
 *
 * @example worstStatus(['OK', 'ERROR', 'WARN']) // 'ERROR'
 */
export function worstStatus(statuses: readonly string[]): (typeof VERDICT_ORDER)[number] {
  const rank = (status: string) => {
    const index = (VERDICT_ORDER as readonly string[]).indexOf(status)
    return index === -1 ? VERDICT_ORDER.indexOf('NONE') : index
  }
  return VERDICT_ORDER[Math.min(VERDICT_ORDER.length - 1, ...statuses.map(rank))] ?? 'OK'
}
