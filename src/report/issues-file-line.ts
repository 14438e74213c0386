import type { AnalysisOutcome } from '../gate/outcome.js'

/** What a file of new issues holds, against what the analyses have. */
export interface IssuesFileTally {
  /** Issues written to the file. */
  written: number
  /** Read, but not written: no file in this checkout (SARIF and Code Quality need one). */
  unlocated?: number
  /** Read, but not written: past the file's size bound. */
  omitted: number
}

/**
 * The one log line for a file of new issues: how many were written, and how many the analyses
 * have that were left out and why (no file in this checkout, past the file's bound, past the
 * issues read per analysis), and the analyses whose issues could not be read at all. A file of
 * zero issues from gates with new issues is never silent.
 *
 * @example issuesFileLine('as SARIF', 'out.sarif', { written: 0, unlocated: 18, omitted: 0 }, outcomes)
 * // 'Wrote 0 new issues as SARIF to out.sarif (18 left out: 18 with no file in this checkout).'
 */
export function issuesFileLine(
  how: string,
  file: string,
  tally: IssuesFileTally,
  outcomes: readonly AnalysisOutcome[]
): string {
  let notRead = 0
  let unreadAnalyses = 0
  for (const outcome of outcomes) {
    const issues = outcome.read ? outcome.result.newIssues : undefined
    if (issues === undefined) continue
    if (issues.read) notRead += issues.total - issues.findings.length
    else unreadAnalyses++
  }
  const unlocated = tally.unlocated ?? 0
  const reasons = [
    unlocated > 0 ? `${unlocated} with no file in this checkout` : undefined,
    tally.omitted > 0 ? `${tally.omitted} past the file's size limit` : undefined,
    notRead > 0 ? `${notRead} past the issues read per analysis` : undefined
  ].filter((reason) => reason !== undefined)
  const leftOut = unlocated + tally.omitted + notRead
  const left = leftOut > 0 ? ` (${leftOut} left out: ${reasons.join(', ')})` : ''
  const unread =
    unreadAnalyses > 0
      ? `; the new issues of ${unreadAnalyses} ${unreadAnalyses === 1 ? 'analysis' : 'analyses'} could not be read (see above)`
      : ''
  return `Wrote ${tally.written} new issues ${how} to ${file}${left}${unread}.`
}
