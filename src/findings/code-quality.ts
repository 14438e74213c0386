/**
 * The new issues as a GitLab Code Quality report (`artifacts:reports:codequality`): a JSON array
 * of Code Climate issues, in the subset GitLab reads. What GitLab requires of each item, from its
 * parser: `description`, `fingerprint` and `severity` strings and a `location` object (its JSON
 * schema), and a `location.path` with `location.lines.begin` (its documentation; the path makes
 * the link to the file). GitLab stops reading a report at the first item its schema rejects, so
 * every item here has all of them.
 */
import { createHash } from 'node:crypto'
import type { Sink } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import type { AnalysisFindings } from './analyses.js'
import { writtenItem } from './written-item.js'
import { isLineNumber, type Finding } from './finding.js'
import { severityIn, type SeverityScales } from './severity-scales.js'

/**
 * Bounds of the report: at most 5,000 issues of an analysis (as many as are read), and `bytes`
 * for the whole file as written (or the sink's smaller limit), whatever the server sent; past
 * them, issues are left out and counted.
 */
export const CODE_QUALITY_LIMITS = {
  issuesPerAnalysis: 5_000,
  bytes: 8_000_000,
  description: QUOTE_LIMITS.long,
  text: QUOTE_LIMITS.short
} as const

const SEVERITY = severityIn('codeQuality')

/** Code Climate's categories (one is required by its spec) by the server's issue type. */
const CATEGORY = new Map([
  ['BUG', 'Bug Risk'],
  ['VULNERABILITY', 'Security'],
  ['SECURITY_HOTSPOT', 'Security'],
  ['CODE_SMELL', 'Clarity']
])

/** Items of the array start two spaces in. */
const ARRAY_INDENT = 2

/** One issue of the report, in the order GitLab's documentation lists the fields. */
export interface CodeQualityIssue {
  type: 'issue'
  description: string
  /** The rule key, e.g. `java:S1144`. */
  check_name: string
  /** SHA-256 (hex) of the issue key: GitLab shows issues with the same fingerprint once. */
  fingerprint: string
  severity: SeverityScales['codeQuality']
  categories: string[]
  engine_name: string
  location: { path: string; lines: { begin: number; end?: number } }
}

/** The report, and what it leaves out. */
interface CodeQualityReport {
  /** The JSON array, 2-space indented, ending in a newline, through the sink. */
  json: string
  /** Issues written. */
  issues: number
  /** Findings left out because they are not located in the checkout. */
  unlocated: number
  /** Findings left out by CODE_QUALITY_LIMITS. */
  omitted: number
}

/**
 * The GitLab Code Quality report of the analyses' findings.
 *
 * - A finding not located in the checkout (no `file`) is left out and counted: GitLab needs a path
 *   in the repository (it links `location.path` at the commit; a report item without one breaks
 *   that link), and the server's own path is not one when the finding has no file.
 * - A finding on a file but no line (a file-level issue) is at line 1, where GitLab can show it.
 * - Each issue's fingerprint is the SHA-256 of its key: stable from one pipeline to the next, so
 *   GitLab tells new issues from resolved ones; an issue that comes twice is written once.
 * - Pass only analyses whose issues were read (see analysisFindings).
 * - The issues are fitted through the file's sink, in order: as many as fit, the rest counted.
 *
 * @example renderCodeQuality(analysisFindings(outcomes), 'sonarqube', sink).json
 */
export function renderCodeQuality(
  analyses: readonly AnalysisFindings[],
  engineName: string,
  sink: Sink
): CodeQualityReport {
  const engine = oneLine(engineName, CODE_QUALITY_LIMITS.text)
  const issues: CodeQualityIssue[] = []
  const fingerprints = new Set<string>()
  let unlocated = 0
  let omitted = 0
  for (const analysis of analyses) {
    let taken = 0
    for (const finding of analysis.findings) {
      if (finding.file === undefined) {
        unlocated++
        continue
      }
      const issue = codeQualityIssue(finding, finding.file, engine)
      if (fingerprints.has(issue.fingerprint)) continue
      if (taken >= CODE_QUALITY_LIMITS.issuesPerAnalysis) {
        omitted++
        continue
      }
      taken++
      fingerprints.add(issue.fingerprint)
      issues.push(issue)
    }
  }
  // The array as JSON.stringify(issues, null, 2) writes it: `[`, the items, `]`.
  const fitted = sink.fit(
    issues.map((issue) => writtenItem(issue, ARRAY_INDENT)),
    {
      head: '[\n',
      foot: '\n]',
      separator: ',\n',
      limit: Math.min(sink.limit, CODE_QUALITY_LIMITS.bytes) - 1
    }
  )
  const json = fitted.shown === 0 ? '[]' : fitted.text
  return {
    json: `${json}\n`,
    issues: fitted.shown,
    unlocated,
    omitted: omitted + fitted.leftOut
  }
}

function codeQualityIssue(finding: Finding, path: string, engine: string): CodeQualityIssue {
  const check = oneLine(finding.rule, CODE_QUALITY_LIMITS.text)
  const description = oneLine(finding.message, CODE_QUALITY_LIMITS.description)
  const { startLine, endLine } = finding.region ?? {}
  const begin = isLineNumber(startLine) ? startLine : 1
  const end = isLineNumber(endLine) ? endLine : begin
  return {
    type: 'issue',
    description: description === '' ? check : description,
    check_name: check,
    fingerprint: createHash('sha256').update(finding.key).digest('hex'),
    severity: SEVERITY(finding.severity),
    categories: [CATEGORY.get(finding.type ?? '') ?? 'Clarity'],
    engine_name: engine,
    location: { path, lines: end > begin ? { begin, end } : { begin } }
  }
}
