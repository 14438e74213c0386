/**
 * The new issues as a SARIF 2.1.0 log, the file GitHub code scanning (and any SARIF viewer)
 * reads: one run per analysis, each rule described once per run, each issue a result with its
 * file and region. Written as the OASIS specification and Microsoft's SARIF validator say, within
 * GitHub's upload limits. Every string comes from the server: each is bounded and kept to one
 * line, and the same findings always give the same bytes.
 */
import { MAX_ID_LENGTH } from '../identifier.js'
import { serverBase } from '../sonar/origin.js'
import type { Sink } from '../sink.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import type { AnalysisFindings } from './analyses.js'
import { writtenItem } from './written-item.js'
import { severityIn } from './severity-scales.js'
import {
  isLineNumber,
  SEVERITY_ORDER,
  type Finding,
  type Region,
  type Severity
} from './finding.js'

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'

/**
 * Bounds of the log. GitHub rejects an upload over 10 MB gzipped or with more than 25,000 results
 * in a run; at most 5,000 issues are read per analysis anyway. `bytes` bounds the results of all
 * runs together (and their rules), as written, uncompressed, so the gzipped upload stays under
 * GitHub's limit whatever the server sent (a sink's smaller limit bounds them further): past it,
 * results are left out and each run says how many (`omittedResults`).
 */
export const SARIF_LIMITS = {
  resultsPerRun: 5_000,
  bytes: 8_000_000,
  message: QUOTE_LIMITS.long,
  text: QUOTE_LIMITS.short,
  /** A link longer than this (an issue key the server made huge) is left out, never cut. */
  url: 2_000
} as const

/** The analyser the results are from, as `tool.driver` names it. */
export interface SarifTool {
  /** e.g. "SonarQube" or "SonarQube Cloud". */
  name: string
  /** The tool's home page: absolute. */
  informationUri: string
  /** The server's version, when known (e.g. "10.7.0.96327"). */
  version?: string | undefined
}

const SECURITY_SEVERITY = severityIn('securitySeverity')

/** SARIF's result levels: GitHub shows error, warning and note as such. */
const LEVEL = severityIn('sarifLevel')

/** The log, and what it leaves out. */
interface SarifLog {
  /** The SARIF 2.1.0 log as 2-space indented JSON, ending in a newline, through the sink. */
  json: string
  /** Results written, all runs together. */
  results: number
  /** Findings left out because they are not located in the checkout (see renderSarif). */
  unlocated: number
  /** Findings left out by SARIF_LIMITS. */
  omitted: number
}

/**
 * The SARIF log of the analyses' findings, through the file's sink: the results of every run, in
 * order, as many as fit in SARIF_LIMITS.bytes (and the sink's limit), each new rule counted with
 * the result that first uses it.
 *
 * - One run per analysis, its `automationDetails.id` `sonar/<projectKey>/` so GitHub keeps each
 *   project's alerts apart (a project that comes twice gets `sonar/<projectKey>/2` the second time).
 * - A finding that is not located in the checkout (no `file`) is left out and counted: SARIF
 *   allows a result without `locations`, but GitHub code scanning refuses the whole upload when a
 *   single result has none ("locationFromSarifResult: expected at least one location"), and a
 *   location pointing elsewhere than the issue would be wrong.
 * - Each result's `partialFingerprints` is the issue key, so GitHub follows an issue from one
 *   analysis to the next however its line moves.
 * - Pass only analyses whose issues were read (see analysisFindings): a run without results tells
 *   GitHub the project's alerts are fixed. When not all of an analysis's issues were read, its run
 *   says so in `properties` (`newIssues` against `results`), and GitHub closes the alerts of the
 *   ones left out.
 *
 * @example renderSarif(analysisFindings(outcomes), { name: 'SonarQube', informationUri: 'https://www.sonarsource.com/products/sonarqube/' }, sink).json
 */
export function renderSarif(
  analyses: readonly AnalysisFindings[],
  tool: SarifTool,
  sink: Sink
): SarifLog {
  const seen = new Map<string, number>()
  const candidates = analyses.map((analysis) => {
    const times = (seen.get(analysis.projectKey) ?? 0) + 1
    seen.set(analysis.projectKey, times)
    return candidateRun(analysis, times)
  })
  // One list of every run's results as written, each with the rule it is first to use.
  const fitted = sink.fit(
    candidates.flatMap((run) => run.results.map((each) => each.written)),
    { separator: '', limit: Math.min(sink.limit, SARIF_LIMITS.bytes) }
  )
  let left = fitted.shown
  const runs = candidates.map((run) => {
    const shown = Math.min(left, run.results.length)
    left -= shown
    return sarifRun(run, shown, tool)
  })
  const log = { $schema: SARIF_SCHEMA, version: '2.1.0', runs }
  const count = (of: (run: CandidateRun) => number) =>
    candidates.reduce((sum, run) => sum + of(run), 0)
  const unlocated = count((run) => run.unlocated)
  return {
    json: sink.text(`${JSON.stringify(log, null, 2)}\n`),
    results: fitted.shown,
    unlocated,
    omitted: count((run) => run.findings) - unlocated - fitted.shown
  }
}

/** A rule of a run: `rules` lists them in the order of their first results (their `ruleIndex`). */
interface RuleEntry {
  /** The first finding of the rule: its name and key. */
  finding: Finding
  /** The most severe of the rule's vulnerabilities in the run, if it has any. */
  securitySeverity: Severity | undefined
}

/** A run before fitting: its located results (at most resultsPerRun), in the order found. */
interface CandidateRun {
  analysis: AnalysisFindings
  /** How many runs of the same project key came before it, plus one. */
  times: number
  server: URL | undefined
  results: Array<{ result: object; finding: Finding; ruleId: string; written: string }>
  /** The run's findings, all of them. */
  findings: number
  unlocated: number
}

function candidateRun(analysis: AnalysisFindings, times: number): CandidateRun {
  const server = serverWithoutCredentials(analysis.serverUrl)
  const located = analysis.findings.filter((finding) => finding.file !== undefined)
  const indexes = new Map<string, number>()
  const results = located.slice(0, SARIF_LIMITS.resultsPerRun).map((finding) => {
    const ruleId = oneLine(finding.rule, SARIF_LIMITS.text)
    const known = indexes.get(ruleId)
    const index = known ?? indexes.size
    indexes.set(ruleId, index)
    const result = sarifResult(finding, finding.file!, ruleId, index)
    // What the result adds to the log, each item with its comma and line break: itself, and a
    // new rule with the result that first uses it, at its largest (with a security severity).
    const rule = sarifRule(ruleId, { finding, securitySeverity: 'blocker' }, server)
    const written = [
      `${writtenItem(result, RESULT_INDENT)},\n`,
      known === undefined ? `${writtenItem(rule, RULE_INDENT)},\n` : ''
    ].join('')
    return { result, finding, ruleId, written }
  })
  return {
    analysis,
    times,
    server,
    results,
    findings: analysis.findings.length,
    unlocated: analysis.findings.length - located.length
  }
}

/** The run with its first `shown` results, and the rules they use. */
function sarifRun(run: CandidateRun, shown: number, tool: SarifTool) {
  const { analysis, times, server, unlocated } = run
  const rules = new Map<string, RuleEntry>()
  const results = run.results.slice(0, shown).map(({ result, finding, ruleId }) => {
    const entry = rules.get(ruleId) ?? { finding, securitySeverity: undefined }
    if (finding.type === 'VULNERABILITY') {
      entry.securitySeverity = worse(entry.securitySeverity, finding.severity)
    }
    rules.set(ruleId, entry)
    return result
  })
  const omitted = run.findings - unlocated - shown
  const key = oneLine(analysis.projectKey, SARIF_LIMITS.text)
  return {
    tool: {
      driver: {
        name: oneLine(tool.name, SARIF_LIMITS.text),
        informationUri: tool.informationUri,
        ...(tool.version === undefined
          ? {}
          : { version: oneLine(tool.version, SARIF_LIMITS.text) }),
        rules: [...rules].map(([id, entry]) => sarifRule(id, entry, server))
      }
    },
    automationDetails: {
      id: `sonar/${categoryPart(analysis.projectKey)}/${times > 1 ? times : ''}`
    },
    results,
    properties: {
      projectKey: key,
      newIssues: analysis.total,
      results: results.length,
      ...(unlocated > 0 ? { unlocatedIssues: unlocated } : {}),
      ...(omitted > 0 ? { omittedResults: omitted } : {})
    }
  }
}

function sarifRule(id: string, { finding, securitySeverity }: RuleEntry, server: URL | undefined) {
  const named = oneLine(finding.ruleName ?? finding.rule, SARIF_LIMITS.text)
  const name = named === '' ? id : named
  const helpUri = server && ruleUrl(server, finding.rule)
  return {
    id,
    shortDescription: { text: name },
    // GitHub wants both (its ingestion rules GH2012); the server's description is not read.
    fullDescription: { text: name },
    help: { text: helpUri ? `${name}: ${helpUri}` : name },
    ...(helpUri ? { helpUri } : {}),
    ...(securitySeverity
      ? {
          properties: {
            tags: ['security'],
            'security-severity': SECURITY_SEVERITY(securitySeverity)
          }
        }
      : {})
  }
}

function sarifResult(finding: Finding, file: string, ruleId: string, ruleIndex: number) {
  const message = oneLine(finding.message, SARIF_LIMITS.message)
  const url = issueUrl(finding.url)
  const region = finding.region && sarifRegion(finding.region)
  return {
    ruleId,
    ruleIndex,
    level: LEVEL(finding.severity),
    message: { text: message === '' ? ruleId : message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: fileUri(file), uriBaseId: '%SRCROOT%' },
          ...(region ? { region } : {})
        }
      }
    ],
    partialFingerprints: { 'sonarIssueKey/v1': oneLine(finding.key, MAX_ID_LENGTH) },
    ...(url ? { hostedViewerUri: url } : {}),
    properties: {
      sonarSeverity: oneLine(finding.severityWord, SARIF_LIMITS.text),
      ...(finding.type === undefined
        ? {}
        : { sonarType: oneLine(finding.type, SARIF_LIMITS.text) }),
      ...(url ? { sonarIssueUrl: url } : {})
    }
  }
}

/** Lines always; columns only when both are given and the range is not empty (SARIF §3.30). */
function sarifRegion(region: Region) {
  const { startLine, startColumn, endColumn } = region
  if (!isLineNumber(startLine)) return undefined
  const endLine =
    isLineNumber(region.endLine) && region.endLine >= startLine ? region.endLine : startLine
  const columns =
    isLineNumber(startColumn) &&
    isLineNumber(endColumn) &&
    (endLine > startLine || endColumn > startColumn)
  return {
    startLine,
    endLine,
    ...(columns ? { startColumn, endColumn } : {})
  }
}

/**
 * The checkout path as a relative URI reference: each segment percent-encoded (a space, `#` or
 * `%` in a file name would otherwise change what the URI names).
 */
function fileUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/')
}

/** The rule's page on the server, e.g. `https://sonar.example.com/coding_rules?open=java%3AS1144&rule_key=java%3AS1144`. */
function ruleUrl(server: URL, rule: string): string {
  const key = cut(rule, SARIF_LIMITS.text)
  const query = new URLSearchParams({ open: key, rule_key: key })
  return new URL(`coding_rules?${query.toString()}`, serverBase(server)).href
}

/** The issue's link, when it is an http(s) address of bounded length; never with credentials. */
function issueUrl(url: string): string | undefined {
  const href = serverWithoutCredentials(url)?.href
  return href !== undefined && href.length <= SARIF_LIMITS.url ? href : undefined
}

function serverWithoutCredentials(href: string): URL | undefined {
  if (!URL.canParse(href)) return undefined
  const url = new URL(href)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  url.username = ''
  url.password = ''
  return url
}

/** A project key as part of a GitHub category, where `/` would end it early. */
function categoryPart(projectKey: string): string {
  return cut(projectKey, SARIF_LIMITS.text).replace(/[^\w.:-]/g, '_')
}

/** Where results and rules sit in the indented log: `runs[].results[]`, `runs[].tool.driver.rules[]`. */
const RESULT_INDENT = 8
const RULE_INDENT = 12

function worse(a: Severity | undefined, b: Severity): Severity {
  return a !== undefined && SEVERITY_ORDER.indexOf(a) <= SEVERITY_ORDER.indexOf(b) ? a : b
}
