/**
 * GitHub's report: a project's check run on the commit, completed, its located new issues as
 * annotations on the diff and its verdict and first issues as the summary. Shapes from GitHub's
 * REST description (2022-11-28): `POST /repos/{owner}/{repo}/check-runs` (`name`, `head_sha`,
 * `status`, `conclusion`, `output`: `title`, `summary` of at most 65,535 characters,
 * `annotations` of at most 50 a request: `path`, `start_line`, `end_line`, `start_column` and
 * `end_column` within one line, `annotation_level` notice/warning/failure, `title`, `message`),
 * then `PATCH /repos/{owner}/{repo}/check-runs/{id}` with each further 50, which GitHub adds to
 * the run's. Only a GitHub App's installation token may create one: another token is refused (403).
 */
import {
  cut,
  findingAnnotation,
  LEVEL_OF_SEVERITY,
  QUOTE_LIMITS,
  type Finding,
  type ProjectVerdict
} from '../review-platform.js'
import type { GitHubApi } from './github-api.js'

const CHECK_RUN_LIMITS = {
  /** Annotations a check run carries: 20 requests of 50. */
  annotations: 1000,
  perRequest: 50,
  /** The summary, under GitHub's 65,535 characters with the notes around it. */
  summaryChars: 60_000
} as const

const CHECK_LEVEL = { error: 'failure', warning: 'warning', notice: 'notice' } as const

/** What a project's check run is called, and how a gate that passes concludes it. */
export interface CheckRunStyle {
  /** `Sonar issues: shop` (the action's), `sonarqube/shop` (the status it stands for). */
  name(verdict: ProjectVerdict): string
  /** `neutral` for a run of issues beside the job's own check; `success` for the gate's check. */
  passing: 'success' | 'neutral'
  /** Where the token may not (403), a commit status instead, said in one line. */
  orStatus?: boolean
}

/**
 * Writes the project's check run on `commit`, the most severe located issues first; returns how
 * many annotations it carries.
 *
 * @example await writeCheckRun(github, 'repos/octo/shop', sha, verdict, { name: (v) => `sonarqube/${v.label}`, passing: 'success' })
 */
export async function writeCheckRun(
  github: GitHubApi,
  repository: string,
  commit: string,
  verdict: ProjectVerdict,
  style: CheckRunStyle
): Promise<number> {
  const located = verdict.findings.filter((finding) => finding.file !== undefined)
  const annotations = located
    .slice(0, CHECK_RUN_LIMITS.annotations)
    .map((finding) => checkAnnotation(finding, verdict.say))
  const total = verdict.newIssues ?? verdict.findings.length
  const notes = [
    annotations.length < located.length
      ? `<p>${located.length - annotations.length} more located issues are not annotated: a check run carries at most ${CHECK_RUN_LIMITS.annotations}.</p>`
      : '',
    verdict.findings.length > located.length
      ? `<p>${verdict.findings.length - located.length} issues have no file in this checkout, so no annotation: they are listed here.</p>`
      : ''
  ].join('')
  const output = (batch: typeof annotations) => ({
    title: cut(
      verdict.newIssues === undefined
        ? verdict.words
        : `${total} new ${total === 1 ? 'issue' : 'issues'}`,
      255
    ),
    summary: `${verdict.reportHtml(CHECK_RUN_LIMITS.summaryChars)}${verdict.say(notes)}`,
    annotations: batch
  })
  const checkRuns = `${repository}/check-runs`
  const first = annotations.slice(0, CHECK_RUN_LIMITS.perRequest)
  const { body } = await github.request('POST', checkRuns, {
    body: {
      name: cut(style.name(verdict), 255),
      head_sha: commit,
      status: 'completed',
      conclusion: conclusionOf(verdict, style),
      output: output(first)
    }
  })
  const id: unknown = (body as { id?: unknown } | undefined)?.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return first.length
  for (let at = first.length; at < annotations.length; at += CHECK_RUN_LIMITS.perRequest) {
    const batch = annotations.slice(at, at + CHECK_RUN_LIMITS.perRequest)
    await github.request('PATCH', `${checkRuns}/${id}`, { body: { output: output(batch) } })
  }
  return annotations.length
}

/** Failure for a failing gate; neutral for a project not analysed (a required check passes it). */
function conclusionOf(verdict: ProjectVerdict, style: CheckRunStyle): string {
  if (verdict.failing) return 'failure'
  return verdict.notAnalysed ? 'neutral' : style.passing
}

/**
 * A located finding as a check run's annotation (findingAnnotation's words), its title and
 * message through the sink: a token the server quotes in an issue never reaches GitHub.
 */
function checkAnnotation(finding: Finding, say: (text: string) => string) {
  const { message, where } = findingAnnotation(finding)
  const region = finding.region
  const oneLineRegion = region && region.startLine === region.endLine
  return {
    // A path is the checkout's; one that held the token would not be placed, but not leak it.
    path: say(finding.file!),
    start_line: region?.startLine ?? 1,
    end_line: region?.endLine ?? 1,
    ...(oneLineRegion && region.startColumn !== undefined && region.endColumn !== undefined
      ? { start_column: region.startColumn, end_column: region.endColumn }
      : {}),
    annotation_level: CHECK_LEVEL[LEVEL_OF_SEVERITY[finding.severity]],
    title: cut(say(where.title ?? finding.rule), 255),
    message: cut(say(message), QUOTE_LIMITS.long + 500)
  }
}
