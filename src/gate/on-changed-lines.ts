import { onChangedLines, type ChangedLines } from '../findings/changed-lines.js'
import type { Log } from '../log.js'
import type { NewIssues } from './new-issues.js'
import type { AnalysisOutcome } from './outcome.js'

/**
 * Whether any analysis is of a branch whose new issues are the new code's, not a pull
 * request's own: the analyses Community Edition makes of a pull or merge request's branch.
 */
export function hasBranchAnalyses(outcomes: readonly AnalysisOutcome[]): boolean {
  return outcomes.some((outcome) => branchNewIssues(outcome) !== undefined)
}

/** The new issues read of a branch's new code (not a pull request's own), if the outcome has them. */
function branchNewIssues(outcome: AnalysisOutcome): Extract<NewIssues, { read: true }> | undefined {
  const newIssues = outcome.read ? outcome.result.newIssues : undefined
  return newIssues?.read && newIssues.scope.kind === 'new-code' ? newIssues : undefined
}

/**
 * The branch analyses' new issues narrowed to the lines a pull or merge request changes (`request`
 * names it: "pull request #12", "merge request !7"), each analysis's count in one line of the
 * log; analyses of the request itself are left alone.
 *
 * @example outcomes = narrowToChangedLines(outcomes, changed, 'merge request !7', log)
 */
export function narrowToChangedLines(
  outcomes: readonly AnalysisOutcome[],
  changed: ChangedLines,
  request: string,
  log: Log
): AnalysisOutcome[] {
  return outcomes.map((outcome) => {
    const newIssues = branchNewIssues(outcome)
    if (!newIssues || !outcome.read) return outcome
    const findings = onChangedLines(newIssues.findings, changed)
    log.info(
      `${findings.length} of the ${newIssues.findings.length} new-code issues read are on the lines ${request} changes.`
    )
    return {
      ...outcome,
      result: {
        ...outcome.result,
        newIssues: { ...newIssues, findings, total: findings.length, onLinesOf: request }
      }
    }
  })
}
