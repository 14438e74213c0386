/**
 * The findings of each analysis whose new issues were read: what the file writers (SARIF,
 * GitLab Code Quality) take, one entry per analysis.
 */
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
