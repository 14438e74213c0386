/**
 * What every platform's decoration does the same way: its steps run one after the other, and
 * the first that fails ends the decoration with one warning naming the platform and what to
 * check (a refusal: what the token or the review lacks), never changing the verdict or the exit
 * code; the issues it writes are every analysis's new issues, and a status says the verdict in
 * one line.
 */
import { failsUnder, type FailPolicy } from '../fail-policy.js'
import type { Finding } from '../findings/finding.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { quotedSaidOf } from '../errors.js'
import { dashboardAddress } from '../report/dashboard-link.js'
import { withoutReferences } from '../report/no-references.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import type { Sink } from '../sink.js'
import type { Said } from '../words.js'
import { PlatformRefusal } from '../http/rest-api.js'
import { joined } from '../words.js'

/** A platform as its decoration's one warning names it. */
interface DecorationPlatform {
  /** `GitLab`, `Bitbucket`, `Azure DevOps`: the warning's first word. */
  name: string
  /** What to check when the platform does not answer as its API does: the address's variable. */
  check: string
  /** The warning for a refusal (401, 403, 404): what the token, the repository or the review lacks. */
  refusal(error: PlatformRefusal): Said
}

/** A step of a decoration that failed: what it was doing; why is its `cause`. */
class DecorationStepFailure extends Error {
  constructor(
    readonly what: string,
    options: { cause: unknown }
  ) {
    super(`${what} failed`, options)
    this.name = 'DecorationStepFailure'
  }
}

/**
 * One step of a platform's decoration: its failure, whatever it is (a refusal, no answer in
 * time, a reply not as documented), ends the decoration, said by `decorating` with `what`.
 *
 * @example const diff = await decorationStep('the lines merge request !7 changes', () => readChangedLines(gitlab, mr))
 */
export async function decorationStep<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw error instanceof DecorationStepFailure
      ? error
      : new DecorationStepFailure(what, { cause: error })
  }
}

/**
 * A platform's whole decoration, the one place its failures are caught: the first step that
 * fails ends it (the platform, which shares one connection and one deadline across the steps,
 * would fail the next ones too, each costing time and another line), said in one warning; it
 * never throws, so the verdict and the exit code are the gate's whatever the platform does.
 * `run` writes through the log it is handed, whose warnings are held until the decoration ends:
 * said as warnings when it completes, and as plain lines before the one warning when it fails
 * (an identity that could not be read matters less than the decoration that did not happen).
 *
 * @example await decorating(log, { name: 'GitLab', check: 'CI_API_V4_URL', refusal }, async (log) => { await decorationStep('the status', () => setStatus(log)) })
 */
export async function decorating(
  log: Log,
  platform: DecorationPlatform,
  run: (log: Log) => Promise<void>
): Promise<void> {
  const held: Said[] = []
  const holding: Log = {
    info: (message) => log.info(message),
    notice: (message) => log.notice(message),
    startGroup: (name) => log.startGroup(name),
    endGroup: () => log.endGroup(),
    warning: (message) => void held.push(message)
  }
  try {
    await run(holding)
    for (const message of held) log.warning(message)
  } catch (error) {
    for (const message of held) log.info(message)
    log.warning(endOfDecoration(platform, error))
  }
}

/** The one warning for a decoration that ended early. */
function endOfDecoration(platform: DecorationPlatform, error: unknown): Said {
  const step = error instanceof DecorationStepFailure ? error : undefined
  const cause: unknown = step ? step.cause : error
  if (cause instanceof PlatformRefusal) return platform.refusal(cause)
  return joined(
    [
      `${platform.name}: ${step ? step.what : 'the decoration'} failed, and nothing more is decorated; the verdict and the exit code are unchanged.`,
      quotedSaidOf(cause),
      `Check ${platform.check}; the next run decorates again.`
    ],
    ' '
  )
}

/** Every analysis's new issues, and whether they are all of them (each read whole). */
export function issuesOf(outcomes: readonly AnalysisOutcome[]): {
  findings: Finding[]
  complete: boolean
} {
  const findings: Finding[] = []
  let complete = true
  for (const outcome of outcomes) {
    const newIssues = outcome.read ? outcome.result.newIssues : undefined
    if (!newIssues?.read) {
      complete = false
      continue
    }
    findings.push(...newIssues.findings)
    if (newIssues.findings.length < newIssues.total) complete = false
  }
  return { findings, complete }
}

/** An analysis's name in a platform's log lines: its project key, on one line. */
export function nameOf(outcome: AnalysisOutcome): string {
  return oneLine(projectName(outcome), QUOTE_LIMITS.short)
}

/**
 * A status's one-line description under the policy, the server's words in it making no
 * reference and no link where a platform shows it (`withoutReferences`).
 *
 * @example statusWords(outcome, FAIL_ON_ERROR, sink) // 'Quality Gate failed: 2 of 7 conditions failed'
 */
export function statusWords(outcome: AnalysisOutcome, policy: FailPolicy, sink: Sink): string {
  return withoutReferences(gateWords(outcome, policy, sink))
}

function gateWords(outcome: AnalysisOutcome, policy: FailPolicy, sink: Sink): string {
  if (!outcome.read) {
    return `Quality Gate could not be read: ${oneLine(sink.text(outcome.message), 200)}`
  }
  const { result } = outcome
  if (!failsUnder(result.status, policy)) {
    return result.status === 'OK'
      ? 'Quality Gate passed'
      : `Quality Gate passed (${oneLine(result.status, 40)})`
  }
  const failed = result.conditions.filter(({ condition }) => condition.status === 'ERROR').length
  return result.status === 'ERROR'
    ? `Quality Gate failed: ${failed} of ${result.conditions.length} conditions failed`
    : `Quality Gate failed: ${oneLine(result.status, 40)}`
}

/** Whether a platform shows the analysis as failed: its gate fails the policy, or was not read. */
export function failing(outcome: AnalysisOutcome, policy: FailPolicy): boolean {
  return !outcome.read || failsUnder(outcome.result.status, policy)
}

/** The dashboard's address a platform links to (http(s), without credentials), when known. */
export function dashboardOf(outcome: AnalysisOutcome): string | undefined {
  return outcome.read
    ? dashboardAddress(outcome.result.dashboardUrl, outcome.result.serverUrl)?.href
    : undefined
}
