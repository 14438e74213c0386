import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ExplainedError, messageOf } from '../errors.js'
import { makeFolders } from '../folders.js'
import { notAnalysed, type AnalysisOutcome } from '../gate/outcome.js'
import { CODE_QUALITY_LIMITS, renderCodeQuality } from '../findings/code-quality.js'
import { renderSarif, SARIF_LIMITS } from '../findings/sarif.js'
import { analysisFindings, sarifTool } from '../report/analysis-findings.js'
import type { FailPolicy } from '../fail-policy.js'
import { issuesFileLine, type IssuesFileTally } from '../report/issues-file-line.js'
import { OUTPUT_BYTES, resultsJson } from '../report/outputs.js'
import { HTML_MARKUP } from '../report/markup.js'
import { renderOverviewSummary } from '../report/overview.js'
import { renderFailureSummary, renderSummary, SUMMARY_LIMITS } from '../report/summary.js'
import { summaryForms } from '../report/summary-text.js'
import { jsonForms } from '../secrets.js'
import { createSink, type Sink, type SinkOptions } from '../sink.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { renderJunit, type JunitContext } from './junit.js'
import { COMMAND_NAMES } from './names.js'
import { RESULT_FILES, type ResultFiles } from './options.js'
import type { TextStream } from './terminal-log.js'

/** What the check came to, for the result files. */
interface CheckReport {
  /**
   * Every analysis checked; when the check failed before finding any (no report file), one
   * unread outcome that stands for the whole check, with its message.
   */
  outcomes: readonly AnalysisOutcome[]
  /** When and where the check ran, and every form of the token: removed from every file. */
  context: Omit<JunitContext, 'sink' | 'policy'> & { secrets: readonly string[] }
  /** The statuses that fail the step. */
  policy: FailPolicy
  /** --all-projects: the summary names those this run did not analyse. */
  allProjects?: readonly string[]
}

/** A result file that could not be written: the exit code is 2. */
export class ResultFileError extends ExplainedError {
  static readonly code = 'ERR_RESULT_FILE'
  declare readonly code: typeof ResultFileError.code

  constructor(message: string, options?: ErrorOptions) {
    super(ResultFileError.code, message, options)
  }
}

const WHAT = {
  json: 'the JSON results',
  junit: 'the JUnit report',
  markdown: 'the Markdown summary',
  sarif: 'the new issues as SARIF',
  codequality: 'the new issues as GitLab Code Quality'
} as const

/**
 * Each file's sink besides the command's words and the token's forms: the forms the token takes
 * once escaped in HTML, XML or JSON, and the file's limit (the JSON is the action's `results` output,
 * bounded as it is, then indented).
 */
const FILE_SINKS: Record<keyof ResultFiles, Omit<SinkOptions, 'names' | 'secrets'>> = {
  json: { escapedForms: jsonForms, limit: OUTPUT_BYTES },
  junit: { escapedForms: summaryForms },
  markdown: { escapedForms: summaryForms, limit: SUMMARY_LIMITS.bytes },
  sarif: { escapedForms: jsonForms, limit: SARIF_LIMITS.bytes },
  codequality: { escapedForms: jsonForms, limit: CODE_QUALITY_LIMITS.bytes }
}

/**
 * The result files asked for: `--json` the action's `results` output (indented) with the new
 * issues, `--junit` the JUnit report, `--markdown` the job summary (one analysis's, the overview
 * of several, or the failure summary), `--sarif` and `--codequality` the new issues. Each is
 * written through its own sink: in the command's words, every form of the token removed (as
 * from the action's summary and outputs), within the file's limit. Folders are created; `-` writes to `stdout`. Resolves with one log line
 * per file written (for a file of new issues, how many it holds and how many were left out and
 * why); throws a ResultFileError naming the first that could not be.
 *
 * @example for (const line of await writeResultFiles(line.files, report, { cwd, stdout: process.stdout })) log.info(line)
 */
export async function writeResultFiles(
  files: ResultFiles,
  report: CheckReport,
  { cwd, stdout }: { cwd: string; stdout: TextStream }
): Promise<string[]> {
  const lines: string[] = []
  for (const kind of RESULT_FILES) {
    const file = files[kind]
    if (file === undefined) continue
    const { content, issues } = render(kind, report)
    const shown = file === '-' ? 'standard output' : file
    const line = issues
      ? issuesFileLine(issues.how, shown, issues, report.outcomes)
      : `Wrote ${WHAT[kind]} to ${shown}.`
    if (file === '-') {
      stdout.write(content)
      // Standard output holds the file alone; the log still says what it holds.
      if (issues) lines.push(line)
      continue
    }
    const target = path.resolve(cwd, file)
    try {
      await makeFolders(path.dirname(target))
      await writeFile(target, content)
    } catch (error) {
      throw new ResultFileError(
        `Could not write ${WHAT[kind]} to "${oneLine(file, QUOTE_LIMITS.long)}": ${oneLine(messageOf(error), QUOTE_LIMITS.long)}.`,
        { cause: error }
      )
    }
    lines.push(line)
  }
  return lines
}

/** A file's content, and for a file of new issues, how many it holds and left out. */
interface Rendered {
  content: string
  /** `how`: what the issues were written as, for the log line ("as SARIF"). */
  issues?: IssuesFileTally & { how: string }
}

function render(kind: keyof ResultFiles, report: CheckReport): Rendered {
  const { outcomes, context, policy } = report
  const { secrets, ...about } = context
  const sink = createSink({ names: COMMAND_NAMES, secrets, ...FILE_SINKS[kind] })
  switch (kind) {
    case 'json': {
      const results = resultsJson(outcomes, { sink, issues: true, policy })
      // Without an analysis whose issues were asked for, the file is the results alone.
      const asked = outcomes.some((outcome) => outcome.read && outcome.result.newIssues)
      const issues = asked
        ? {
            how: 'in the JSON results',
            written: results.issuesWritten,
            omitted: results.issuesOmitted
          }
        : undefined
      // Indented for a reader; a token that happened to span JSON's own syntax leaves it as is.
      try {
        return { content: `${JSON.stringify(JSON.parse(results.json), null, 2)}\n`, issues }
      } catch {
        return { content: `${results.json}\n`, issues }
      }
    }
    case 'junit':
      return { content: renderJunit(outcomes, { ...about, sink, policy }) }
    case 'markdown':
      return { content: markdown(outcomes, policy, sink, report.allProjects ?? []) }
    case 'sarif': {
      const sarif = renderSarif(analysisFindings(outcomes), sarifTool(outcomes), sink)
      return {
        content: `${sarif.json}\n`,
        issues: {
          how: 'as SARIF',
          written: sarif.results,
          unlocated: sarif.unlocated,
          omitted: sarif.omitted
        }
      }
    }
    case 'codequality': {
      const report = renderCodeQuality(analysisFindings(outcomes), 'sonarqube', sink)
      return {
        content: `${report.json}\n`,
        issues: {
          how: 'as GitLab Code Quality',
          written: report.issues,
          unlocated: report.unlocated,
          omitted: report.omitted
        }
      }
    }
  }
}

/**
 * The job summary the action would write for the same outcomes, through the file's sink, and
 * the projects of --all-projects this run did not analyse.
 */
function markdown(
  outcomes: readonly AnalysisOutcome[],
  policy: FailPolicy,
  sink: Sink,
  allProjects: readonly string[]
): string {
  const summary = summaryOf(outcomes, policy, sink)
  const missing = notAnalysed(outcomes, allProjects) ?? []
  if (missing.length === 0) return summary
  const names = missing.map((key) => HTML_MARKUP.code(key, QUOTE_LIMITS.short)).join(', ')
  return `${summary}${sink.text(HTML_MARKUP.paragraph([`➖ Not analysed in this run (a passing status each): ${names}.`]))}\n`
}

/** One analysis's summary, its failure's, or the overview of several. */
function summaryOf(outcomes: readonly AnalysisOutcome[], policy: FailPolicy, sink: Sink): string {
  const [only] = outcomes
  if (!only || outcomes.length > 1) return renderOverviewSummary(outcomes, { sink, policy })
  return only.read
    ? renderSummary(only.result, { sink, policy })
    : renderFailureSummary(only.message, sink)
}
