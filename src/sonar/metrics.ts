/**
 * The metrics quality gates use, as the server names them: the words for conditions read names
 * and value kinds from here, and the check asks the server for a definition only of keys not
 * known here. Below both, so the core never imports its presentation.
 */

import { lookupTable } from '../lookup-table.js'

/**
 * How a metric's value reads: ratings are letters, percentages carry %, work durations are
 * minutes, milliseconds are ms; counts are numbers; levels and text stay as the server writes them.
 */
export type MetricKind = 'rating' | 'percent' | 'minutes' | 'milliseconds' | 'count' | 'text'

/** The kind of value of each type api/metrics/search gives. */
export const KIND_OF_TYPE: Readonly<Record<string, MetricKind>> = lookupTable({
  RATING: 'rating',
  PERCENT: 'percent',
  WORK_DUR: 'minutes',
  MILLISEC: 'milliseconds',
  INT: 'count',
  FLOAT: 'count'
})

export interface Metric {
  name: string
  kind: MetricKind
}

const rating = (name: string): Metric => ({ name, kind: 'rating' })
const percent = (name: string): Metric => ({ name, kind: 'percent' })
const count = (name: string): Metric => ({ name, kind: 'count' })
const minutes = (name: string): Metric => ({ name, kind: 'minutes' })

/** The metrics quality gates use, by the key the server sends ("new_" prefix: new code). */
export const KNOWN_METRICS: Readonly<Record<string, Metric>> = lookupTable({
  coverage: percent('Coverage'),
  line_coverage: percent('Line Coverage'),
  branch_coverage: percent('Condition Coverage'),
  duplicated_lines_density: percent('Duplicated Lines (%)'),
  security_hotspots_reviewed: percent('Security Hotspots Reviewed'),
  sqale_debt_ratio: percent('Technical Debt Ratio'),
  reliability_rating: rating('Reliability Rating'),
  security_rating: rating('Security Rating'),
  sqale_rating: rating('Maintainability Rating'),
  maintainability_rating: rating('Maintainability Rating'),
  security_review_rating: rating('Security Review Rating'),
  software_quality_reliability_rating: rating('Reliability Rating'),
  software_quality_security_rating: rating('Security Rating'),
  software_quality_maintainability_rating: rating('Maintainability Rating'),
  sqale_index: minutes('Technical Debt'),
  technical_debt: minutes('Technical Debt'),
  violations: count('Issues'),
  open_issues: count('Open Issues'),
  reopened_issues: count('Reopened Issues'),
  confirmed_issues: count('Confirmed Issues'),
  accepted_issues: count('Accepted Issues'),
  blocker_violations: count('Blocker Issues'),
  critical_violations: count('Critical Issues'),
  major_violations: count('Major Issues'),
  minor_violations: count('Minor Issues'),
  info_violations: count('Info Issues'),
  bugs: count('Bugs'),
  vulnerabilities: count('Vulnerabilities'),
  code_smells: count('Code Smells'),
  security_hotspots: count('Security Hotspots'),
  lines_to_cover: count('Lines to Cover'),
  uncovered_lines: count('Uncovered Lines'),
  duplicated_lines: count('Duplicated Lines'),
  skipped_tests: count('Skipped Unit Tests'),
  test_failures: count('Unit Test Failures'),
  test_errors: count('Unit Test Errors'),
  software_quality_blocker_issues: count('Blocker Severity Issues'),
  software_quality_high_issues: count('High Severity Issues')
})

export const NEW_CODE_PREFIX = 'new_'

/**
 * Whether the action words this metric from its own table (common metrics, and their new-code
 * variants): only for other keys is the server's definition worth a request.
 */
export function isKnownMetric(key: string): boolean {
  return (
    key in KNOWN_METRICS ||
    (key.startsWith(NEW_CODE_PREFIX) && key.slice(NEW_CODE_PREFIX.length) in KNOWN_METRICS)
  )
}
