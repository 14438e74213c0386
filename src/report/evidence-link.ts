/**
 * Where a condition's evidence is on the server: the page listing what made it fail (the new
 * issues of that severity or type, the security hotspots) or the measure's page (coverage,
 * duplications, ratings...), for the analysis's branch or pull request. Always on the server's
 * own origin: the address is built from the server the gate was read from, never taken from a
 * reply.
 */
import type { GateResult } from '../gate/check.js'
import { serverBase } from '../sonar/origin.js'
import type { Condition } from '../sonar/types.js'
import { lookupTable } from '../lookup-table.js'

/** Issue-count metrics and the issues page's filter that lists what they count. */
const ISSUE_FILTERS: Readonly<Record<string, Record<string, string>>> = lookupTable<
  Record<string, string>
>({
  violations: {},
  blocker_violations: { severities: 'BLOCKER' },
  critical_violations: { severities: 'CRITICAL' },
  major_violations: { severities: 'MAJOR' },
  minor_violations: { severities: 'MINOR' },
  info_violations: { severities: 'INFO' },
  bugs: { types: 'BUG' },
  vulnerabilities: { types: 'VULNERABILITY' },
  code_smells: { types: 'CODE_SMELL' },
  software_quality_reliability_issues: { impactSoftwareQualities: 'RELIABILITY' },
  software_quality_security_issues: { impactSoftwareQualities: 'SECURITY' },
  software_quality_maintainability_issues: { impactSoftwareQualities: 'MAINTAINABILITY' },
  software_quality_blocker_issues: { impactSeverities: 'BLOCKER' },
  software_quality_high_issues: { impactSeverities: 'HIGH' }
})

/** Hotspot metrics: their page is the security hotspots'. */
const HOTSPOT_METRICS = new Set([
  'security_hotspots',
  'security_hotspots_reviewed',
  'security_review_rating'
])

/**
 * The address of the condition's evidence, or undefined when the project is unknown.
 *
 * @example evidenceUrl(result, { metricKey: 'new_blocker_violations', … })
 * // 'https://sonar.example.com/project/issues?id=shop&resolved=false&inNewCodePeriod=true&severities=BLOCKER'
 */
export function evidenceUrl(
  result: Pick<GateResult, 'serverUrl' | 'projectKey' | 'branch' | 'pullRequest'>,
  condition: Pick<Condition, 'metricKey'>
): string | undefined {
  if (!result.projectKey) return undefined
  const base = serverBase(new URL(result.serverUrl))
  const onNewCode = condition.metricKey.startsWith('new_')
  const metric = onNewCode ? condition.metricKey.slice('new_'.length) : condition.metricKey
  const query = new URLSearchParams({ id: result.projectKey })
  if (result.pullRequest) query.set('pullRequest', result.pullRequest)
  else if (result.branch) query.set('branch', result.branch)
  const filter = ISSUE_FILTERS[metric]
  if (filter) {
    query.set('resolved', 'false')
    if (onNewCode) query.set('inNewCodePeriod', 'true')
    for (const [name, value] of Object.entries(filter)) query.set(name, value)
    return new URL(`project/issues?${query.toString()}`, base).href
  }
  if (HOTSPOT_METRICS.has(metric)) {
    if (onNewCode) query.set('inNewCodePeriod', 'true')
    return new URL(`security_hotspots?${query.toString()}`, base).href
  }
  query.set('metric', condition.metricKey)
  return new URL(`component_measures?${query.toString()}`, base).href
}
