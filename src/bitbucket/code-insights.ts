/**
 * A Code Insights report per project on a commit, with the new issues as its annotations, as
 * Bitbucket Cloud's API takes them (checked against its OpenAPI description): `PUT
 * /repositories/{workspace}/{repo_slug}/commit/{commit}/reports/{reportId}` (title, details,
 * report_type, result PASSED/FAILED, link, at most 10 data fields), then `POST
 * .../reports/{reportId}/annotations`, a JSON array of at most 100 a request and 1,000 a report
 * (external_id, annotation_type, severity, path, line, summary of at most 450 characters, link).
 * A report PUT again keeps its old annotations, so the report is deleted first.
 */
import { createHash } from 'node:crypto'
import type { FailPolicy } from '../fail-policy.js'
import { bySeverity, type Finding } from '../findings/finding.js'
import { severityIn } from '../findings/severity-scales.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import { dashboardOf, failing, statusWords } from '../platform/decoration-steps.js'
import { PlatformRefusal } from '../http/rest-api.js'
import type { Sink } from '../sink.js'
import { cut, oneLine } from '../untrusted-text.js'
import type { BitbucketApi } from './bitbucket-api.js'

const INSIGHTS_LIMITS = {
  annotationsPerRequest: 100,
  annotationsPerReport: 1000,
  summaryChars: 450,
  detailsChars: 2000,
  titleChars: 450
} as const

/** The repository and commit a report is on. */
export interface BitbucketCommit {
  /** `workspace/repo_slug` (BITBUCKET_REPO_FULL_NAME). */
  repository: string
  commit: string
}

/**
 * The id of a project's report and build status on a commit: `sonarqube-` and the project key's
 * digest, so no key can break the address, and two keys never share one.
 *
 * @example reportId('shop') // 'sonarqube-5fa8a1…' (30 characters)
 */
export function reportId(projectKey: string): string {
  return `sonarqube-${createHash('sha256').update(projectKey).digest('hex').slice(0, 20)}`
}

/**
 * Writes the project's report and its annotations, the most severe new issues first, at most
 * 1,000. Returns how many annotations were written.
 */
export async function writeReport(
  bitbucket: BitbucketApi,
  where: BitbucketCommit,
  outcome: AnalysisOutcome,
  options: { sink: Sink; policy: FailPolicy }
): Promise<{ annotations: number }> {
  const { sink, policy } = options
  const path = `${repositoryPath(where.repository)}/commit/${encodeURIComponent(where.commit)}/reports/${reportId(projectName(outcome))}`
  try {
    await bitbucket.request('DELETE', path)
  } catch (error) {
    // No report yet: nothing to delete.
    if (!(error instanceof PlatformRefusal && error.status === 404)) throw error
  }
  const dashboard = dashboardOf(outcome)
  await bitbucket.request('PUT', path, {
    body: {
      title: sink.text(
        cut(`SonarQube: ${oneLine(projectName(outcome))}`, INSIGHTS_LIMITS.titleChars)
      ),
      details: sink.text(cut(statusWords(outcome, policy, sink), INSIGHTS_LIMITS.detailsChars)),
      report_type: 'BUG',
      reporter: 'SonarQube',
      result: failing(outcome, policy) ? 'FAILED' : 'PASSED',
      ...(dashboard ? { link: dashboard } : {}),
      data: reportData(outcome, sink)
    }
  })
  const findings =
    outcome.read && outcome.result.newIssues?.read ? outcome.result.newIssues.findings : []
  const annotations = bySeverity(findings)
    .slice(0, INSIGHTS_LIMITS.annotationsPerReport)
    .map((finding) => annotation(finding, sink))
  for (let at = 0; at < annotations.length; at += INSIGHTS_LIMITS.annotationsPerRequest) {
    await bitbucket.request('POST', `${path}/annotations`, {
      body: annotations.slice(at, at + INSIGHTS_LIMITS.annotationsPerRequest)
    })
  }
  return { annotations: annotations.length }
}

/**
 * A report's data fields, on Bitbucket Cloud and Data Center alike: the gate, the new issues, and
 * the new code's figures it has (at most 4).
 */
export function reportData(outcome: AnalysisOutcome, sink: Sink): Record<string, unknown>[] {
  if (!outcome.read) return [{ title: 'Quality Gate', type: 'TEXT', value: 'not read' }]
  const { result } = outcome
  const data: Record<string, unknown>[] = [
    { title: 'Quality Gate', type: 'TEXT', value: sink.text(oneLine(result.status, 40)) }
  ]
  if (result.newIssues?.read) {
    data.push({ title: 'New issues', type: 'NUMBER', value: result.newIssues.total })
  }
  const newCode = result.whatChanged?.newCode
  if (newCode && !('unread' in newCode)) {
    if (newCode.coverage !== undefined) {
      data.push({ title: 'Coverage on new code', type: 'PERCENTAGE', value: newCode.coverage })
    }
    if (newCode.duplication !== undefined) {
      data.push({
        title: 'Duplicated lines on new code',
        type: 'PERCENTAGE',
        value: newCode.duplication
      })
    }
  }
  return data
}

const BITBUCKET_SEVERITY = severityIn('bitbucketCloud')

const ANNOTATION_TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL'])

/** One issue as an annotation: plain text (Bitbucket shows it as such), through the sink. */
function annotation(finding: Finding, sink: Sink): Record<string, unknown> {
  const rule = oneLine(finding.ruleName ?? finding.rule)
  return {
    external_id: externalId(finding.key),
    annotation_type: ANNOTATION_TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
    severity: BITBUCKET_SEVERITY(finding.severity),
    summary: sink.text(cut(oneLine(finding.message, Infinity), INSIGHTS_LIMITS.summaryChars)),
    details: sink.text(cut(`${rule} (${finding.severityWord})`, INSIGHTS_LIMITS.detailsChars)),
    link: sink.text(finding.url),
    ...(finding.file !== undefined && sink.text(finding.file) === finding.file
      ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
      : {})
  }
}

/**
 * An annotation's id: the issue key, prefixed as Bitbucket asks; a key with other characters
 * than those keys hold, by its digest.
 *
 * @example externalId('AYIssue00001') // 'sonarqube-AYIssue00001'
 */
export function externalId(key: string): string {
  return /^[\w.:-]{1,200}$/.test(key)
    ? `sonarqube-${key}`
    : `sonarqube-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`
}

/** `repositories/{workspace}/{repo_slug}`, each part encoded. */
export function repositoryPath(fullName: string): string {
  const [workspace = '', slug = ''] = fullName.split('/')
  return `repositories/${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}`
}
