/**
 * A new issue as every destination shows it (annotations, check run, SARIF, GitLab Code Quality,
 * the summary and the comment): one internal shape, made once from the server's issue, its
 * severity on one scale whatever the server generation, its file as it is in the checkout.
 */
import type { SonarIssue } from '../sonar/issues.js'
import { serverBase } from '../sonar/origin.js'
import { lookupTable } from '../lookup-table.js'

/**
 * One scale for both of the server's: the legacy severities (BLOCKER, CRITICAL, MAJOR, MINOR,
 * INFO) and the software-quality impacts' (BLOCKER, HIGH, MEDIUM, LOW, INFO).
 */
export type Severity = 'blocker' | 'high' | 'medium' | 'low' | 'info'

/** Most severe first: the order annotations are given out in. */
export const SEVERITY_ORDER: readonly Severity[] = ['blocker', 'high', 'medium', 'low', 'info']

const FROM_SERVER: Readonly<Record<string, Severity>> = lookupTable({
  BLOCKER: 'blocker',
  CRITICAL: 'high',
  HIGH: 'high',
  MAJOR: 'medium',
  MEDIUM: 'medium',
  MINOR: 'low',
  LOW: 'low',
  INFO: 'info'
})

/** Whether a number from the server can be a line or a column: a whole number from 1. */
export const isLineNumber = (value: number | undefined): value is number =>
  value !== undefined && Number.isSafeInteger(value) && value >= 1

/** Lines (1-based) and columns (1-based, end exclusive as SARIF counts) of a finding. */
export interface Region {
  startLine: number
  endLine: number
  startColumn: number | undefined
  endColumn: number | undefined
}

export interface Finding {
  /** The server's issue key: stable across analyses, the fingerprint of every format. */
  key: string
  rule: string
  /** The rule's name, when the server sent it. */
  ruleName: string | undefined
  message: string
  severity: Severity
  /** The server's own word for the severity (CRITICAL, HIGH...), as shown to people. */
  severityWord: string
  /** BUG, VULNERABILITY, CODE_SMELL, when the server says. */
  type: string | undefined
  /**
   * The file relative to the repository root, with `/`, checked to be a file of the checkout;
   * undefined when the server's path is unsafe (absolute, `..`, control characters) or not there.
   */
  file: string | undefined
  /** The file's path in the project as the server gave it (untrusted: shown through the gates). */
  serverPath: string | undefined
  region: Region | undefined
  /** The issue on the server (its origin only). */
  url: string
}

/** What turning a server issue into a finding needs to know. */
export interface FindingContext {
  serverUrl: URL
  projectKey: string
  /** `branch=` or `pullRequest=` of the links to the server. */
  branch?: string | undefined
  pullRequest?: string | undefined
  /** The checkout's path of a project path, or undefined when it is unsafe or not there. */
  locate: (serverPath: string) => string | undefined
}

/**
 * The issue as a finding: the most severe of its impacts' severities (10.2+) and its legacy
 * severity (a 10.x BLOCKER has a HIGH impact: it stays a blocker; MAJOR when it has neither), its file located in the checkout, its region from the text range (or line).
 *
 * @example toFinding(issue, { serverUrl, projectKey: 'shop', locate: () => undefined }).severity // 'high'
 */
export function toFinding(
  issue: SonarIssue,
  ruleNames: ReadonlyMap<string, string>,
  context: FindingContext
): Finding {
  const { severity, word } = severityOf(issue)
  return {
    key: issue.key,
    rule: issue.rule,
    ruleName: ruleNames.get(issue.rule),
    message: issue.message,
    severity,
    severityWord: word,
    type: issue.type,
    file: issue.path === undefined ? undefined : context.locate(issue.path),
    serverPath: issue.path,
    region: regionOf(issue),
    url: issueUrl(issue.key, context)
  }
}

/** Most severe first, the server's order kept among equals. */
export function bySeverity(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity)
  )
}

/** How many findings there are of each severity, every severity named. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, 0])) as Record<Severity, number>
  for (const finding of findings) counts[finding.severity]++
  return counts
}

function severityOf(issue: SonarIssue): { severity: Severity; word: string } {
  const words = [...issue.impacts.map(({ severity }) => severity), issue.severity ?? '']
  const candidates = words.flatMap((word) => {
    const scaled = FROM_SERVER[word]
    return scaled ? [{ severity: scaled, word }] : []
  })
  if (candidates.length === 0) return { severity: 'medium', word: 'MAJOR' }
  return candidates.reduce((worst, candidate) =>
    SEVERITY_ORDER.indexOf(candidate.severity) < SEVERITY_ORDER.indexOf(worst.severity)
      ? candidate
      : worst
  )
}

function regionOf(issue: SonarIssue): Region | undefined {
  const range = issue.textRange
  if (range) {
    const columns =
      range.startOffset !== undefined &&
      range.endOffset !== undefined &&
      (range.startLine < range.endLine || range.startOffset < range.endOffset)
    return {
      startLine: range.startLine,
      endLine: range.endLine,
      startColumn: columns ? range.startOffset! + 1 : undefined,
      endColumn: columns ? range.endOffset! + 1 : undefined
    }
  }
  if (issue.line === undefined) return undefined
  return {
    startLine: issue.line,
    endLine: issue.line,
    startColumn: undefined,
    endColumn: undefined
  }
}

function issueUrl(key: string, context: FindingContext): string {
  const query = new URLSearchParams({ id: context.projectKey, open: key })
  if (context.pullRequest !== undefined) query.set('pullRequest', context.pullRequest)
  else if (context.branch !== undefined) query.set('branch', context.branch)
  return new URL(`project/issues?${query.toString()}`, serverBase(context.serverUrl)).href
}
