import { overallDeadline } from '../deadline.js'
import { systemClock } from '../clock.js'
import { codeOf, saidOf } from '../errors.js'
import { checkQualityGates } from '../gate/check-analyses.js'
import { stepVerdict } from '../report/verdict.js'
import { shortTokenWarning, tokenForms } from '../secrets.js'
import { decorate } from './decoration.js'
import { EXIT, exitCodeOfError, worstExitCode, type ExitCode } from './exit-codes.js'
import { COMMAND_NAMES } from './names.js'
import { COMMAND, parseCommandLine, USAGE } from './options.js'
import { findReportFiles } from './report-globs.js'
import { endCommand, reportOutcomes, wholeCheckFailed } from './report.js'
import { readCommandSettings } from './settings.js'
import { terminalLog, useColor, type TextStream } from './terminal-log.js'
import { VERSION } from './version.js'
import { msg } from '../words.js'

/** What the command runs with: the process's, or a test's. */
interface CommandContext {
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  cwd: string
  /** Where --help, --version and a result file given as `-` go. */
  stdout: TextStream
  stderr: TextStream & { isTTY?: boolean }
  /** Clock time the command started: the overall time-out counts from here. */
  startedAt: number
}

const USER_AGENT = `${COMMAND}/${VERSION} (node ${process.version})`

/**
 * The command: command line → settings → the check of every analysis → the log and the result
 * files → the verdict and its exit code (see EXIT). The same core as the action's, with the
 * command's own edges. Every failure is caught here, once, and becomes a line of the log and an
 * exit code.
 *
 * @example process.exitCode = await runCommand({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, startedAt: Date.now() })
 */
export async function runCommand(context: CommandContext): Promise<ExitCode> {
  const { env, cwd, stdout, stderr, startedAt } = context
  const color = useColor(env, stderr.isTTY === true)
  const log = terminalLog(stderr, { color, names: COMMAND_NAMES })
  try {
    const line = parseCommandLine(context.argv)
    if (line.kind !== 'check') {
      stdout.write(line.kind === 'help' ? USAGE : `${VERSION}\n`)
      return EXIT.passed
    }
    const settings = await readCommandSettings(line, env, cwd, log)
    const secrets = settings.token ? tokenForms(settings.token) : []
    log.hideSecrets(secrets)
    const short = settings.token ? shortTokenWarning(settings.token) : undefined
    if (short) log.warning(short)

    const deadline = overallDeadline(startedAt, settings.timeoutMs)
    const outcomes = await checkQualityGates(settings, {
      cwd,
      repoRoot: cwd,
      clock: systemClock,
      startedAt,
      deadline,
      log,
      userAgent: USER_AGENT,
      findFiles: findReportFiles
    }).catch((error: unknown) => [wholeCheckFailed(settings, error)])
    const verdict = stepVerdict(outcomes, settings.policy)
    const files = { settings, log, secrets, files: line.files, cwd, stdout, startedAt }
    const allProjects = line.allProjects
    const written = await reportOutcomes(outcomes, verdict, {
      ...files,
      allProjects,
      now: systemClock.now()
    })
    if (line.decorate) {
      await decorate(outcomes, {
        env,
        log,
        secrets,
        policy: settings.policy,
        commentWhen: line.commentWhen,
        inlineLimit: line.inlineLimit,
        inlineSeverity: line.inlineSeverity,
        bitbucketServer: line.bitbucketServer,
        review: line.review,
        platform: line.platform,
        allProjects,
        // --commit, checked: with --project the first commit whose analysis was asked for.
        commit: line.commit === undefined ? undefined : (settings.commits[0] ?? line.commit),
        clock: systemClock,
        deadline,
        userAgent: USER_AGENT
      })
    }
    return worstExitCode([written, endCommand(verdict, settings, log)])
  } catch (error) {
    const usage = codeOf(error) === 'ERR_USAGE' || codeOf(error) === 'ERR_SETTINGS'
    log.error(usage ? msg`${saidOf(error)}\nRun ${COMMAND} --help for the options.` : saidOf(error))
    return exitCodeOfError(error)
  }
}
