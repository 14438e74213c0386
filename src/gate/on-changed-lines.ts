import { onChangedLines, type ChangedLines } from '../findings/changed-lines.js'
import type { Log } from '../log.js'
import type { AnalysisOutcome } from './outcome.js'

/**
 * Whether any analysis is of a branch whose new issues are the new code's, not a pull
 * request's own: the analyses Community Edition makes of a pull or merge request's branch.
 */
export function hasBranchAnalyses(outcomes: readonly AnalysisOutcome[]): boolean {
  return outcomes.some(isBranchAnalysis)
}

function isBranchAnalysis(outcome: AnalysisOutcome): boolean {
  return (
    outcome.read &&
    outcome.result.newIssues?.read === true &&
    outcome.result.newIssues.scope.kind === 'new-code'
  )
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
    if (!isBranchAnalysis(outcome) || !outcome.read) return outcome
    const newIssues = outcome.result.newIssues
    if (!newIssues?.read) return outcome
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
