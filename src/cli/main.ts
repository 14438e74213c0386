import { hostname } from 'node:os'
import { systemClock } from '../clock.js'
import { checkQualityGates } from '../gate/check-analyses.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { stepVerdict } from '../report/verdict.js'
import { annotateAll } from '../report/overview.js'
import { shortTokenWarning, tokenForms } from '../secrets.js'
import { readSettings, type Settings } from '../settings.js'
import {
  EXIT,
  exitCodeOfError,
  exitCodeOfVerdict,
  worstExitCode,
  type ExitCode
} from './exit-codes.js'
import {
  COMMAND,
  COMMAND_OPTIONS,
  commandInputs,
  parseCommandLine,
  USAGE,
  type CommandLine
} from './options.js'
import { inCommandWords } from './command-words.js'
import { logNewIssues } from './new-issues-log.js'
import { readRootCertFile } from './root-cert-file.js'
import { findReportFiles } from './report-globs.js'
import { writeResultFiles } from './result-files.js'
import { terminalLog, useColor, type TerminalLog, type TextSink } from './terminal-log.js'
import { VERSION } from './version.js'

/** What the command runs with: the process's, or a test's. */
export interface CommandContext {
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  cwd: string
  /** Where --help, --version and a result file given as `-` go. */
  stdout: TextSink
  /** The log. */
  stderr: TextSink & { isTTY?: boolean }
  /** Clock time the command started: the overall time-out counts from here. */
  startedAt: number
}

const USER_AGENT = `${COMMAND}/${VERSION} (node ${process.version})`

/**
 * The command: command line → settings → the check of every analysis → the log, the result
 * files and the exit code (see EXIT). The same core as the action's, with the command's own
 * edges: options instead of inputs, a glob finder without `@actions/core`, a log for a terminal
 * or a CI log, files instead of outputs and a job summary. Every failure is caught here, once,
 * and becomes a line of the log and an exit code.
 *
 * @example process.exitCode = await runCommand({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, startedAt: Date.now() })
 */
export async function runCommand(context: CommandContext): Promise<ExitCode> {
  const { env, cwd, stdout, stderr } = context
  const log = terminalLog(stderr, {
    color: useColor(env, stderr.isTTY === true),
    words: inCommandWords
  })

  let line: Extract<CommandLine, { kind: 'check' }>
  let settings: Settings
  try {
    const parsed = parseCommandLine(context.argv)
    if (parsed.kind === 'help') {
      stdout.write(USAGE)
      return EXIT.passed
    }
    if (parsed.kind === 'version') {
      stdout.write(`${VERSION}\n`)
      return EXIT.passed
    }
    line = parsed
    const rootCert = line.rootCertFile ? await readRootCertFile(line.rootCertFile, cwd) : undefined
    settings = readSettings(commandInputs(line, rootCert), env, COMMAND_OPTIONS)
  } catch (error) {
    log.error(`${messageOf(error)}\nRun ${COMMAND} --help for the options.`)
    return exitCodeOfError(error)
  }
  if (settings.sonarToken) {
    log.hideSecrets(tokenForms(settings.sonarToken))
    const short = shortTokenWarning(settings.sonarToken)
    if (short) log.warning(short)
  }

  let outcomes: AnalysisOutcome[]
  let failure: unknown
  try {
    outcomes = await checkQualityGates(settings, {
      cwd,
      repoRoot: cwd,
      clock: systemClock,
      startedAt: context.startedAt,
      log,
      userAgent: USER_AGENT,
      findFiles: findReportFiles
    })
  } catch (error) {
    // Nothing to check (no report file found): one outcome stands for the whole check, so the
    // result files still say what happened.
    failure = error
    outcomes = [wholeCheckFailed(settings, error)]
  }

  const [only] = outcomes
  const lone = failure === undefined && outcomes.length === 1 ? only : undefined
  // As the action: one analysis that could not be read fails with its own words alone.
  if (failure === undefined && !(lone && !lone.read)) {
    annotateAll(outcomes, log, settings.failOn)
    logNewIssues(outcomes, log)
  }

  const codes: ExitCode[] = []
  try {
    const written = await writeResultFiles(
      line.files,
      {
        outcomes,
        context: {
          startedAt: new Date(context.startedAt),
          hostname: safeHostname(),
          secrets: settings.sonarToken ? tokenForms(settings.sonarToken) : [],
          elapsedMs: systemClock.now() - context.startedAt
        },
        failOn: settings.failOn,
        words: inCommandWords
      },
      { cwd, stdout }
    )
    for (const line of written) log.info(line)
  } catch (error) {
    log.error(messageOf(error))
    codes.push(EXIT.usage)
  }

  codes.push(
    verdict(outcomes, failure ?? (lone && !lone.read ? lone.error : undefined), settings, log)
  )
  return worstExitCode(codes)
}

/**
 * The verdict, last in the log, as the action words it, and its exit code: the failure when the
 * check failed as a whole (or its one analysis could not be read), else the step's verdict.
 */
function verdict(
  outcomes: readonly AnalysisOutcome[],
  failure: unknown,
  settings: Settings,
  log: TerminalLog
): ExitCode {
  if (failure !== undefined) {
    log.error(messageOf(failure))
    return exitCodeOfError(failure)
  }
  const step = stepVerdict(outcomes, settings.failOn)
  switch (step.kind) {
    case 'passed':
      for (const status of step.statuses) log.success(status)
      break
    case 'gate-failed':
      if (settings.failOnError) log.error(step.message)
      else log.warning(`${step.message}\n--no-fail is given: the exit code is 0.`)
      break
    case 'unread':
      log.error(step.message)
      break
  }
  return exitCodeOfVerdict(step, outcomes, settings)
}

/** An outcome for a check that found nothing to check: its source is what was asked for. */
function wholeCheckFailed(settings: Settings, error: unknown): AnalysisOutcome {
  const failure = error instanceof Error ? error : new Error(String(error))
  const source =
    settings.scanMetadataReportFile.length > 0
      ? settings.scanMetadataReportFile.join(', ')
      : 'report-task.txt'
  return { read: false, source, projectKey: undefined, message: failure.message, error: failure }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function safeHostname(): string {
  try {
    return hostname() || 'localhost'
  } catch {
    return 'localhost'
  }
}
