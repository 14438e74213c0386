import { systemClock } from '../clock.js'
import { findingAnnotation, LEVEL_OF_SEVERITY } from '../findings/annotations.js'
import { bySeverity, type Finding } from '../findings/finding.js'
import type { NewIssues } from '../gate/new-issues.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { newIssuesBlock } from '../report/new-issues-block.js'
import { blocks } from '../report/summary.js'
import type { Sink } from '../sink.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { apiBase, GitHubApi, githubSaid, isRefusal } from '../platforms/github/github-api.js'
import type { GitHubContext } from './github-context.js'

/**
 * The check run's bounds: GitHub takes 50 annotations per request; the action sends at most
 * 1,000 per project (20 requests), and keeps the summary under GitHub's 65,535 characters.
 */
const CHECK_RUN_LIMITS = {
  annotations: 1000,
  perRequest: 50,
  summaryChars: 60_000,
  issuesListed: 50
} as const

type ReadNewIssues = Extract<NewIssues, { read: true }>

const CHECK_LEVEL = { error: 'failure', warning: 'warning', notice: 'notice' } as const

interface CheckRunOptions {
  github: GitHubContext
  token: string | undefined
  env: NodeJS.ProcessEnv
  log: Log
  /**
   * The check run's sink: every text sent (the summary, and each annotation's title and message)
   * goes through it, with the GitHub token hidden too.
   */
  sink: Sink
  /** Clock time GitHub's requests end by: the decoration's deadline (src/deadline.ts). */
  decorateBy: number
}

/**
 * One completed check run per project, "Sonar issues: <project>", on the commit analysed (the
 * pull request's head, not the merge commit), carrying every located new issue as an annotation
 * (up to CHECK_RUN_LIMITS.annotations, 50 a request), concluded `failure` when the gate failed
 * and `neutral` otherwise. Never throws: a token that may not create check runs (a fork's, or
 * without `checks: write`) is one warning.
 *
 * @example await createCheckRuns(outcomes, { github, token, env: process.env, log, sink: sinks.checkRun })
 */
export async function createCheckRuns(
  outcomes: readonly AnalysisOutcome[],
  options: CheckRunOptions
): Promise<void> {
  const { github, token, log } = options
  const sink = options.sink.hiding(token ? [token] : [])
  const warn = (message: string) => log.warning(sink.text(message))
  const readOnes = outcomes.flatMap((outcome) =>
    outcome.read && outcome.result.newIssues?.read
      ? [{ outcome, newIssues: outcome.result.newIssues }]
      : []
  )
  if (readOnes.length === 0) return
  const apiUrl = apiBase(options.env['GITHUB_API_URL'])
  if (!token || !github.repository || !github.headSha || !apiUrl) {
    warn(
      `No issues check run was created: ${!token ? 'no GitHub token (leave githubToken at its default)' : !github.repository ? 'GITHUB_REPOSITORY is not owner/name' : !github.headSha ? 'the commit analysed is unknown (GITHUB_SHA)' : 'GITHUB_API_URL is not an http(s) address'}.`
    )
    return
  }
  const api = new GitHubApi({ token, apiUrl, deadline: options.decorateBy, clock: systemClock })
  try {
    await createEach(api, readOnes, { ...options, sink }, warn)
  } finally {
    api.close()
  }
}

async function createEach(
  api: GitHubApi,
  readOnes: { outcome: AnalysisOutcome & { read: true }; newIssues: ReadNewIssues }[],
  options: CheckRunOptions,
  warn: (message: string) => void
): Promise<void> {
  const { sink, log } = options
  for (const { outcome, newIssues } of readOnes) {
    const name = sink.text(`Sonar issues: ${oneLine(projectName(outcome), 80)}`)
    try {
      const sent = await publish(api, outcome, newIssues, { ...options, name })
      log.info(`Created the check run "${name}" with ${sent} annotations.`)
    } catch (error) {
      if (isRefusal(error)) {
        warn(
          [
            `The GitHub token may not create check runs (${githubSaid(error)}): the issues check run is left out.`,
            'Grant the job `permissions: checks: write`. Pull requests from forks get a read-only token whatever the workflow asks.'
          ].join('\n')
        )
        return
      }
      warn(
        `Could not create the check run "${name}" (${githubSaid(error)}). The job goes on without it.`
      )
    }
  }
}

async function publish(
  api: GitHubApi,
  outcome: AnalysisOutcome & { read: true },
  newIssues: ReadNewIssues,
  context: CheckRunOptions & { name: string }
): Promise<number> {
  const { result } = outcome
  const { sink } = context
  const { owner, repo } = context.github.repository!
  const located = bySeverity(newIssues.findings).filter((finding) => finding.file !== undefined)
  const annotations = located
    .slice(0, CHECK_RUN_LIMITS.annotations)
    .map((finding) => checkAnnotation(finding, sink))
  const output = (batch: typeof annotations) => ({
    title: cut(
      sink.text(`${newIssues.total} new ${newIssues.total === 1 ? 'issue' : 'issues'}`),
      255
    ),
    summary: summary(outcome, newIssues, located.length, annotations.length, context),
    annotations: batch
  })
  const batches: Array<typeof annotations> = []
  for (let at = 0; at < annotations.length; at += CHECK_RUN_LIMITS.perRequest) {
    batches.push(annotations.slice(at, at + CHECK_RUN_LIMITS.perRequest))
  }
  const checkRuns = `repos/${owner}/${repo}/check-runs`
  const { body } = await api.request('POST', checkRuns, {
    body: {
      name: context.name,
      head_sha: context.github.headSha!,
      status: 'completed',
      conclusion: result.status === 'ERROR' ? 'failure' : 'neutral',
      output: output(batches[0] ?? [])
    }
  })
  const id: unknown = (body as { id?: unknown } | undefined)?.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return batches[0]?.length ?? 0
  for (const batch of batches.slice(1)) {
    await api.request('PATCH', `${checkRuns}/${id}`, { body: { output: output(batch) } })
  }
  return annotations.length
}

/**
 * The check run's annotation of a located finding (see findingAnnotation for the words), its
 * title and message through the sink: a token the server quotes in an issue never reaches GitHub.
 */
function checkAnnotation(finding: Finding, sink: Sink) {
  const { message, where } = findingAnnotation(finding)
  const region = finding.region
  const oneLineRegion = region && region.startLine === region.endLine
  return {
    // A path is the checkout's; one that held the token would not be placed, but not leak it.
    path: sink.text(finding.file!),
    start_line: region?.startLine ?? 1,
    end_line: region?.endLine ?? 1,
    ...(oneLineRegion && region.startColumn !== undefined && region.endColumn !== undefined
      ? { start_column: region.startColumn, end_column: region.endColumn }
      : {}),
    annotation_level: CHECK_LEVEL[LEVEL_OF_SEVERITY[finding.severity]],
    title: cut(sink.text(where.title ?? finding.rule), 255),
    message: cut(sink.text(message), QUOTE_LIMITS.long + 500)
  }
}

/**
 * The verdict, the counts and the first issues (those without a file among them), as HTML
 * through the sink.
 */
function summary(
  { result }: AnalysisOutcome & { read: true },
  newIssues: ReadNewIssues,
  located: number,
  annotated: number,
  { sink, github }: CheckRunOptions
): string {
  const notes = [
    annotated < located
      ? `<p>${located - annotated} more located issues are not annotated: a check run carries at most ${CHECK_RUN_LIMITS.annotations}.</p>`
      : undefined,
    newIssues.findings.length > located
      ? `<p>${newIssues.findings.length - located} issues have no file in this checkout, so no annotation: they are listed here.</p>`
      : undefined
  ].filter((note): note is string => note !== undefined)
  const gate = `<p>Quality Gate: ${result.status === 'ERROR' ? '❌ failed' : '✅ passed'} (${oneLine(result.status, 40)}).</p>`
  return blocks([
    ...[gate, ...notes].map((line) => sink.text(line)),
    ...newIssuesBlock(newIssues, {
      sink,
      heading: 'h3',
      listed: CHECK_RUN_LIMITS.issuesListed,
      limit: CHECK_RUN_LIMITS.summaryChars - 2000,
      fileLink: github.fileLink
    })
  ])
}
