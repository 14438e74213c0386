import { bySeverity } from '../findings/finding.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/** New issues listed in the command's log per analysis; the files list them all. */
const ISSUES_LOGGED = 10

/**
 * The first new issues of each analysis in the command's log, most severe first, one line each:
 * `file:line  SEVERITY  message (rule)`, then how many more and which options write them all.
 * The terminal log's gate shows every control character; server text is kept to one line here.
 *
 * @example logNewIssues(outcomes, log)
 */
export function logNewIssues(outcomes: readonly AnalysisOutcome[], log: Log): void {
  const several = outcomes.length > 1
  for (const outcome of outcomes) {
    if (!outcome.read || !outcome.result.newIssues?.read) continue
    const { findings, total } = outcome.result.newIssues
    if (total === 0) continue
    const whose = several ? ` of ${oneLine(projectName(outcome), QUOTE_LIMITS.short)}` : ''
    const listed = bySeverity(findings).slice(0, ISSUES_LOGGED)
    const lines = listed.map((finding) => {
      const place = finding.file ?? finding.serverPath ?? '(no file)'
      const line = finding.region ? `:${finding.region.startLine}` : ''
      return `  ${oneLine(place, QUOTE_LIMITS.short)}${line}  ${finding.severityWord}  ${oneLine(finding.message, QUOTE_LIMITS.short)} (${oneLine(finding.rule, QUOTE_LIMITS.short)})`
    })
    const more = total - listed.length
    if (more > 0)
      lines.push(`  … and ${more} more: --sarif, --codequality or --json write them all`)
    log.info([`New issues${whose} (${total}), most severe first:`, ...lines].join('\n'))
  }
}
