/**
 * The findings of each analysis whose new issues were read: what the file writers (SARIF,
 * GitLab Code Quality) take, one entry per analysis.
 */
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Finding } from './finding.js'

export interface AnalysisFindings {
  /** The project the analysis is of: it keeps each project's findings apart downstream. */
  projectKey: string
  /** The server the findings were read from (its href), for links to its rules. */
  serverUrl: string
  /** The findings read, in the server's order. */
  findings: readonly Finding[]
  /** How many open new issues the server counts: more than `findings` when not all were read. */
  total: number
}

/**
 * The analyses whose gate and new issues were both read, in the order they were checked. An
 * analysis whose issues could not be read is left out rather than written with none: an empty
 * list would tell GitHub or GitLab that its issues were fixed.
 *
 * @example analysisFindings(outcomes).map((analysis) => analysis.projectKey) // ['shop', 'billing']
 */
export function analysisFindings(outcomes: readonly AnalysisOutcome[]): AnalysisFindings[] {
  return outcomes.flatMap((outcome) => {
    if (!outcome.read) return []
    const { projectKey, serverUrl, newIssues } = outcome.result
    if (projectKey === undefined || newIssues === undefined || !newIssues.read) return []
    return [{ projectKey, serverUrl, findings: newIssues.findings, total: newIssues.total }]
  })
}
