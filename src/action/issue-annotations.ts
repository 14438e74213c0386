import type { Finding } from '../findings/finding.js'
import { planAnnotations } from '../findings/annotations.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { RunnerLog } from '../log.js'
import { cut, QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * The new issues of every analysis as annotations on the diff, most severe first, in the room
 * the gate's own annotations left (GitHub shows 10 of each level per step; one error stays kept
 * for the failure), then one annotation that says how many more there are and where they are.
 * With several analyses each title starts with its project's name.
 *
 * @example annotateNewIssues(outcomes, log, { checkRun: settings.issuesCheckRun })
 */
export function annotateNewIssues(
  outcomes: readonly AnalysisOutcome[],
  log: RunnerLog,
  { checkRun }: { checkRun: boolean }
): void {
  const several = outcomes.length > 1
  const findings: Finding[] = []
  const labels = new Map<Finding, string | undefined>()
  // Issues the server counts past those read.
  let unread = 0
  for (const outcome of outcomes) {
    if (!outcome.read || !outcome.result.newIssues?.read) continue
    const { newIssues } = outcome.result
    const label = several ? cut(projectName(outcome), QUOTE_LIMITS.short) : undefined
    for (const finding of newIssues.findings) {
      findings.push(finding)
      labels.set(finding, label)
    }
    unread += newIssues.total - newIssues.findings.length
  }
  if (findings.length === 0) return
  const plan = planAnnotations(findings, log.annotationsLeft(), (finding) => labels.get(finding))
  for (const { level, message, where } of plan.annotations) log.annotate(level, message, where)
  const more = plan.leftOut + unread
  if (more > 0) {
    const where = checkRun
      ? 'the "Sonar issues" check run, the job summary and the server'
      : 'the job summary and the server (or set issuesCheckRun: true to annotate them all)'
    log.annotate(
      'notice',
      `${more} more new ${more === 1 ? 'issue is' : 'issues are'} not annotated here: GitHub shows 10 annotations of each level per step. See ${where}.`
    )
  }
}
