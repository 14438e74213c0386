import { codeOf, type ErrorCode } from '../errors.js'
import type { StepVerdict } from '../report/verdict.js'

/**
 * The command's exit codes, for a CI step to tell a failed gate from a broken check:
 * - 0: every gate passed (OK, WARN, NONE), or an ERROR gate with --no-fail;
 * - 1: a quality gate failed (ERROR);
 * - 2: bad usage or settings: an option, the environment, a report file that is missing or not
 *   a scanner's, a result file that cannot be written; running it again changes nothing;
 * - 3: no verdict: the server could not be read (unreachable, refused, an answer that is not
 *   its API's, a redirect that would send the token elsewhere), the analysis task failed or was
 *   canceled, or the time-out was reached; running it again later may pass.
 */
export const EXIT = { passed: 0, gateFailed: 1, usage: 2, noVerdict: 3 } as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/**
 * When several apply (one analysis unread, another's gate failed, a result file not written):
 * usage first, then no verdict, then a failed gate. A failed gate is only reported as such when
 * every analysis was checked as asked.
 */
const PRECEDENCE: readonly ExitCode[] = [EXIT.usage, EXIT.noVerdict, EXIT.gateFailed, EXIT.passed]

/**
 * The exit code of each error code: 2 for what the user must fix in the command line, the
 * environment, the report file or a result file's path; 3 for what leaves the gate unknown (the
 * server, the task, the time-out, the unforeseen). A failed gate is a verdict, not an error: its
 * 1 comes from the verdict. Every code has its row, so a new code needs its choice here.
 */
export const EXIT_CODE_OF: Readonly<Record<ErrorCode, ExitCode>> = {
  ERR_USAGE: EXIT.usage,
  ERR_SETTINGS: EXIT.usage,
  ERR_REPORT_FILE: EXIT.usage,
  ERR_RESULT_FILE: EXIT.usage,
  ERR_UNSAFE_REQUEST: EXIT.noVerdict,
  ERR_SERVER_REQUEST: EXIT.noVerdict,
  ERR_TASK_FAILED: EXIT.noVerdict,
  ERR_TIMEOUT: EXIT.noVerdict,
  ERR_NO_ANALYSIS: EXIT.noVerdict,
  ERR_UNEXPECTED: EXIT.noVerdict
}

/**
 * The exit code of a failure, by its code (EXIT_CODE_OF); an error outside the family is
 * unforeseen: 3.
 *
 * @example exitCodeOfError(new TimeoutError('Timed out …')) // 3
 */
export function exitCodeOfError(error: unknown): ExitCode {
  return EXIT_CODE_OF[codeOf(error)]
}

/**
 * The exit code of a finished check: from the step's verdict (stepVerdict), with each analysis
 * that could not be read counting by its own failure.
 *
 * @example exitCodeOfVerdict(stepVerdict(outcomes), { failStep: true }) // 1 for an ERROR gate
 */
export function exitCodeOfVerdict(
  verdict: StepVerdict,
  { failStep }: { failStep: boolean }
): ExitCode {
  switch (verdict.kind) {
    case 'passed':
      return EXIT.passed
    case 'gate-failed':
      return failStep ? EXIT.gateFailed : EXIT.passed
    case 'unread':
      return worstExitCode(verdict.errors.map(exitCodeOfError))
  }
}

/** The code that wins among several (PRECEDENCE); 0 for none. */
export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  return PRECEDENCE.find((code) => codes.includes(code)) ?? EXIT.passed
}
