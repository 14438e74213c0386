/**
 * Which gate statuses fail the step: the user's policy (the failingStatuses setting). The
 * specification fails on ERROR only, and that is the default; SonarSource's action also fails on
 * WARN, and the scanner's `sonar.qualitygate.wait` on anything but OK.
 */

/** A gate status a step may fail on. NONE stands for a project without a gate and for any status no server sends. */
export type FailingStatus = 'ERROR' | 'WARN' | 'NONE'

/** The statuses that fail the step. Always holds ERROR (see settings.ts). */
export type FailPolicy = ReadonlySet<FailingStatus>

/** The specification's policy: only ERROR fails. */
export const FAIL_ON_ERROR: FailPolicy = new Set<FailingStatus>(['ERROR'])

/** Every status a policy may name, in the order they are listed. */
export const FAILING_STATUSES: readonly FailingStatus[] = ['ERROR', 'WARN', 'NONE']

/**
 * The class of a gate status as the server sent it: OK, WARN and ERROR as they are; NONE for no
 * gate and for any other status (FAILED, say, which no server sends for a gate).
 *
 * @example statusClass('FAILED') // 'NONE'
 */
export function statusClass(status: string): 'OK' | FailingStatus {
  return status === 'OK' || status === 'WARN' || status === 'ERROR' ? status : 'NONE'
}

/**
 * Whether a gate of this status fails the step under the policy.
 *
 * @example failsUnder('WARN', new Set(['ERROR', 'WARN'])) // true
 */
export function failsUnder(status: string, policy: FailPolicy): boolean {
  const kind = statusClass(status)
  return kind !== 'OK' && policy.has(kind)
}

/** The policy as it is written: `ERROR`, `ERROR,WARN,NONE`. */
export function policyText(policy: FailPolicy): string {
  return FAILING_STATUSES.filter((status) => policy.has(status)).join(',')
}
