/**
 * What every platform's decoration does the same way: each step's failure is one warning that
 * leaves the verdict alone (a refusal ends the decoration, since the platform would refuse the
 * rest too), the issues it writes are every analysis's new issues, and a status says the verdict
 * in one line.
 */
import { failsUnder, type FailPolicy } from '../fail-policy.js'
import type { Finding } from '../findings/finding.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { dashboardAddress } from '../report/dashboard-link.js'
import { withoutReferences } from '../report/no-references.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { outsideReferences } from '../words.js'
import { PlatformRefusal } from './rest-api.js'

/**
 * One step of a platform's decoration: a refusal (401, 403, 404) is thrown on, to end the
 * decoration; any other failure is one warning ("GitLab: the note for shop failed; …"), and the
 * decoration goes on.
 *
 * @example const diff = await decorationStep(log, 'GitLab', 'the lines merge request !7 changes', () => readChangedLines(gitlab, mr))
 */
export async function decorationStep<T>(
  log: Log,
  platform: string,
  what: string,
  run: () => Promise<T>
): Promise<T | undefined> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof PlatformRefusal) throw error
    log.warning(
      `${platform}: ${what} failed; the verdict is unchanged. ${oneLine(error instanceof Error ? error.message : String(error), QUOTE_LIMITS.long)}`
    )
    return undefined
  }
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
 * @example statusWords(outcome, FAIL_ON_ERROR) // 'Quality Gate failed: 2 of 7 conditions failed'
 */
export function statusWords(outcome: AnalysisOutcome, policy: FailPolicy): string {
  return outsideReferences(gateWords(outcome, policy), withoutReferences)
}

function gateWords(outcome: AnalysisOutcome, policy: FailPolicy): string {
  if (!outcome.read) return `Quality Gate could not be read: ${oneLine(outcome.message, 200)}`
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
