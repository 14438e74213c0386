import { msg } from '../words.js'
import { hostname } from 'node:os'
import { asError, ReportFileError, saidOf } from '../errors.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { annotateAll } from '../report/overview.js'
import type { StepVerdict } from '../report/verdict.js'
import type { Settings } from '../settings.js'
import { EXIT, exitCodeOfVerdict, type ExitCode } from './exit-codes.js'
import { logNewIssues } from './new-issues-log.js'
import type { ResultFiles } from './options.js'
import { writeResultFiles } from './result-files.js'
import type { TerminalLog, TextStream } from './terminal-log.js'

interface CommandReportContext {
  settings: Settings
  log: TerminalLog
  /** Every form of the token: removed from every file. */
  secrets: readonly string[]
  files: ResultFiles
  /** --all-projects: the Markdown summary names those this run did not analyse. */
  allProjects?: readonly string[]
  cwd: string
  stdout: TextStream
  startedAt: number
  now: number
}

/**
 * The outcomes in every destination of the command: the log (each gate's annotations and new
 * issues, unless the check failed alone), then the result files asked for. Returns the exit
 * code a result file that could not be written calls for (2), else 0.
 */
export async function reportOutcomes(
  outcomes: readonly AnalysisOutcome[],
  verdict: StepVerdict,
  context: CommandReportContext
): Promise<ExitCode> {
  const { settings, log, cwd, stdout } = context
  if (!(verdict.kind === 'unread' && verdict.alone)) {
    annotateAll(outcomes, log, settings.policy)
    logNewIssues(outcomes, log)
  }
  const about = {
    startedAt: new Date(context.startedAt),
    hostname: safeHostname(),
    secrets: context.secrets,
    elapsedMs: context.now - context.startedAt
  }
  try {
    const report = {
      outcomes,
      context: about,
      policy: settings.policy,
      allProjects: context.allProjects ?? []
    }
    for (const line of await writeResultFiles(context.files, report, { cwd, stdout })) {
      log.info(line)
    }
    return EXIT.passed
  } catch (error) {
    log.error(saidOf(error))
    return EXIT.usage
  }
}

/**
 * The verdict, last in the log, as the action words it, and its exit code (see EXIT).
 *
 * @example return endCommand(verdict, settings, log)
 */
export function endCommand(verdict: StepVerdict, settings: Settings, log: TerminalLog): ExitCode {
  switch (verdict.kind) {
    case 'passed':
      for (const status of verdict.statuses) log.success(status)
      break
    case 'gate-failed':
      if (settings.failStep) log.error(verdict.message)
      else log.warning(msg`${verdict.message}\n--no-fail is given: the exit code is 0.`)
      break
    case 'unread':
      log.error(verdict.message)
      break
  }
  return exitCodeOfVerdict(verdict, settings)
}

function safeHostname(): string {
  try {
    return hostname() || 'localhost'
  } catch {
    return 'localhost'
  }
}

/**
 * The outcome of a check that found nothing to check (no report file, or the one found refused):
 * one unread outcome stands for the whole check, so the verdict and the result files still say
 * what happened. Its source is what was asked for, else the report file found at a default
 * location and refused (as a file read is named), else what was looked for.
 */
export function wholeCheckFailed(settings: Settings, error: unknown): AnalysisOutcome {
  const failure = asError(error)
  const asked = settings.reportFiles.length > 0 ? settings.reportFiles.join(', ') : undefined
  const refused = failure instanceof ReportFileError ? failure.file : undefined
  const source = asked ?? refused ?? 'report-task.txt'
  return { read: false, source, projectKey: undefined, message: saidOf(failure), error: failure }
}
