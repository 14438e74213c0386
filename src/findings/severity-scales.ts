/**
 * Our one severity scale (blocker, high, medium, low, info: the worst of an issue's severities,
 * finding.ts) compressed to each destination's, in one table. Where a destination has fewer
 * levels, ours are merged from the bottom up: info joins low first, then blocker joins high.
 *
 * GitHub's security-severity is a CVSS-like score it shows as critical (9.0 and over), high (7.0
 * to 8.9), medium (4.0 to 6.9) or low. GitLab's discussions and Azure DevOps's threads carry no
 * severity: their text names ours.
 */
import type { AnnotationLevel } from '../log.js'
import type { Severity } from './finding.js'

export interface SeverityScales {
  annotation: AnnotationLevel
  sarifLevel: 'error' | 'warning' | 'note'
  securitySeverity: string
  /** GitLab's five severities. */
  codeQuality: 'info' | 'minor' | 'major' | 'critical' | 'blocker'
  bitbucketCloud: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW'
  /** Bitbucket Data Center's. */
  bitbucketServer: 'HIGH' | 'MEDIUM' | 'LOW'
}

export const SEVERITY_SCALES: Readonly<Record<Severity, SeverityScales>> = {
  blocker: {
    annotation: 'error',
    sarifLevel: 'error',
    securitySeverity: '9.5',
    codeQuality: 'blocker',
    bitbucketCloud: 'CRITICAL',
    bitbucketServer: 'HIGH'
  },
  high: {
    annotation: 'error',
    sarifLevel: 'error',
    securitySeverity: '8.0',
    codeQuality: 'critical',
    bitbucketCloud: 'HIGH',
    bitbucketServer: 'HIGH'
  },
  medium: {
    annotation: 'warning',
    sarifLevel: 'warning',
    securitySeverity: '5.5',
    codeQuality: 'major',
    bitbucketCloud: 'MEDIUM',
    bitbucketServer: 'MEDIUM'
  },
  low: {
    annotation: 'notice',
    sarifLevel: 'note',
    securitySeverity: '3.0',
    codeQuality: 'minor',
    bitbucketCloud: 'LOW',
    bitbucketServer: 'LOW'
  },
  info: {
    annotation: 'notice',
    sarifLevel: 'note',
    securitySeverity: '1.0',
    codeQuality: 'info',
    bitbucketCloud: 'LOW',
    bitbucketServer: 'LOW'
  }
}

/**
 * One column of the table.
 *
 * @example severityIn('codeQuality')('high') // 'critical'
 */
export function severityIn<K extends keyof SeverityScales>(
  scale: K
): (severity: Severity) => SeverityScales[K] {
  return (severity) => SEVERITY_SCALES[severity][scale]
}
