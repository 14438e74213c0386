import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { renderCodeQuality } from '../findings/code-quality.js'
import { renderSarif } from '../findings/sarif.js'
import { analysisFindings, sarifTool } from '../report/analysis-findings.js'
import { resultsOutput } from '../report/outputs.js'
import { renderOverviewSummary } from '../report/overview.js'
import { renderFailureSummary, renderSummary } from '../report/summary.js'
import { summaryForms } from '../report/summary-text.js'
import { redactSecrets } from '../secrets.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { renderJunit, type JunitContext } from './junit.js'
import type { ResultFiles } from './options.js'
import type { TextSink } from './terminal-log.js'

/** What the check came to, for the result files. */
export interface CheckReport {
  /**
   * Every analysis checked; when the check failed before finding any (no report file), one
   * unread outcome that stands for the whole check, with its message.
   */
  outcomes: readonly AnalysisOutcome[]
  context: JunitContext
}

/** A result file that could not be written: the exit code is 2. */
export class ResultFileError extends Error {
  readonly code = 'ERR_RESULT_FILE'
}

const WHAT = {
  json: 'the JSON results',
  junit: 'the JUnit report',
  markdown: 'the Markdown summary',
  sarif: 'the new issues as SARIF',
  codequality: 'the new issues as GitLab Code Quality'
} as const

/**
 * The result files asked for: `--json` the action's `results` output (indented) with the new
 * issues, `--junit` the JUnit report, `--markdown` the job summary (one analysis's, the overview
 * of several, or the failure summary), `--sarif` and `--codequality` the new issues. Every form of the token is removed first, as from the action's summary and
 * outputs. Folders are created; `-` writes to `stdout`. Resolves with the files written; throws
 * a ResultFileError naming the first that could not be.
 *
 * @example await writeResultFiles(line.files, report, { cwd, stdout: process.stdout })
 */
export async function writeResultFiles(
  files: ResultFiles,
  report: CheckReport,
  { cwd, stdout }: { cwd: string; stdout: TextSink }
): Promise<string[]> {
  const written: string[] = []
  for (const kind of ['json', 'junit', 'markdown', 'sarif', 'codequality'] as const) {
    const file = files[kind]
    if (file === undefined) continue
    const content = render(kind, report)
    if (file === '-') {
      stdout.write(content)
      continue
    }
    const target = path.resolve(cwd, file)
    try {
      await mkdir(path.dirname(target), { recursive: true })
      await writeFile(target, content)
    } catch (error) {
      throw new ResultFileError(
        `Could not write ${WHAT[kind]} to "${oneLine(file, QUOTE_LIMITS.long)}": ${oneLine((error as Error).message, QUOTE_LIMITS.long)}.`
      )
    }
    written.push(`${WHAT[kind]} to ${file}`)
  }
  return written
}

function render(kind: keyof ResultFiles, report: CheckReport): string {
  const { outcomes, context } = report
  const { secrets } = context
  switch (kind) {
    case 'json': {
      const json = redactSecrets(resultsOutput(outcomes, undefined, { issues: true }), secrets)
      // Indented for a reader; a token that happened to span JSON's own syntax leaves it as is.
      try {
        return `${JSON.stringify(JSON.parse(json), null, 2)}\n`
      } catch {
        return `${json}\n`
      }
    }
    case 'junit':
      return renderJunit(outcomes, context)
    case 'markdown':
      return redactSecrets(markdown(outcomes), summaryForms(secrets))
    case 'sarif':
      return `${redactSecrets(renderSarif(analysisFindings(outcomes), sarifTool(outcomes)).json, secrets)}\n`
    case 'codequality':
      return `${redactSecrets(renderCodeQuality(analysisFindings(outcomes), 'sonarqube').json, secrets)}\n`
  }
}

/** The job summary the action would write for the same outcomes. */
function markdown(outcomes: readonly AnalysisOutcome[]): string {
  const [only] = outcomes
  if (only && outcomes.length === 1) {
    return only.read ? renderSummary(only.result) : renderFailureSummary(only.message)
  }
  return renderOverviewSummary(outcomes)
}
