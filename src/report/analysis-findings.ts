import type { AnalysisFindings } from '../findings/analyses.js'
import type { SarifTool } from '../findings/sarif.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { serverKind } from '../sonar/server-kind.js'

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

/**
 * The analyser as SARIF names it: SonarQube Cloud when every analysis is from it, SonarQube
 * otherwise.
 */
export function sarifTool(outcomes: readonly AnalysisOutcome[]): SarifTool {
  const servers = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.serverUrl] : []))
  const cloud = servers.length > 0 && servers.every((server) => serverKind(new URL(server)).cloud)
  return cloud
    ? {
        name: 'SonarQube Cloud',
        informationUri: 'https://www.sonarsource.com/products/sonarcloud/'
      }
    : { name: 'SonarQube', informationUri: 'https://www.sonarsource.com/products/sonarqube/' }
}
