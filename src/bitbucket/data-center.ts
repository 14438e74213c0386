/**
 * Bitbucket Data Center decorated from any CI (Jenkins, Bamboo…): per project, a Code Insights
 * report on the commit with the new issues as its annotations, and a build status. Shapes from
 * Bitbucket Data Center's REST specification (9.2), Code Insights since 5.15:
 * - `PUT /rest/insights/1.0/projects/{projectKey}/repos/{repositorySlug}/commits/{commitId}/reports/{key}`
 *   (`title` at most 450 characters, `details` at most 2,000, `result` PASS/FAIL, `data` at most
 *   6 fields, `link`, `reporter`; the key at most 50 characters), deleted first, since a report
 *   PUT again keeps its annotations;
 * - `POST .../reports/{key}/annotations` (`{"annotations": [...]}`, at most 1,000 a report:
 *   `externalId`, `path`, `line`, `message` at most 2,000, `severity` LOW/MEDIUM/HIGH, `type`,
 *   `link`);
 * - `POST /rest/api/latest/projects/{projectKey}/repos/{repositorySlug}/commits/{commitId}/builds`
 *   (`key`, `state` SUCCESSFUL/FAILED, `url`, `name`, `description`), and on a server without it
 *   (404) the older `POST /rest/build-status/1.0/commits/{commitId}`, deprecated since 7.14.
 * The token is an HTTP access token, sent as a Bearer to the server's origin only.
 */
import type { FailPolicy } from '../fail-policy.js'
import { bySeverity, type Finding } from '../findings/finding.js'
import { severityIn } from '../findings/severity-scales.js'
import { projectName, type AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import {
  dashboardOf,
  decorating,
  decorationStep,
  failing,
  nameOf,
  statusWords
} from '../platform/decoration-steps.js'
import { PlatformRefusal, type RestApi } from '../http/rest-api.js'
import type { Sink } from '../sink.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { setting, msg, type Said } from '../words.js'
import { reportData, reportId } from './code-insights.js'

const DATA_CENTER_LIMITS = {
  titleChars: 450,
  detailsChars: 2000,
  messageChars: 2000,
  annotationsPerReport: 1000,
  dataFields: 6,
  textChars: 255
} as const

/** The repository on the server, and the commit decorated. */
interface DataCenterRepository {
  project: string
  repository: string
  commit: string
}

interface DataCenterOptions {
  sink: Sink
  policy: FailPolicy
  log: Log
}

/**
 * Decorates the commit for every outcome: the report with its annotations, and the build status.
 * Resolves once done, whatever the server answered; what happened is in the log.
 *
 * @example await decorateDataCenter(rest, { project: 'SHOP', repository: 'web', commit }, outcomes, options)
 */
export async function decorateDataCenter(
  server: RestApi,
  where: DataCenterRepository,
  outcomes: readonly AnalysisOutcome[],
  options: DataCenterOptions
): Promise<void> {
  const { log } = options
  const platform = {
    name: 'Bitbucket',
    check: 'that the Bitbucket Data Center server answers at the address given, and is up',
    refusal: (error: PlatformRefusal) => refusalWords(error, where)
  }
  await decorating(log, platform, async (log) => {
    for (const outcome of outcomes) {
      await decorationStep(`the report for ${nameOf(outcome)}`, async () => {
        const annotations = await writeReport(server, where, outcome, options)
        log.info(
          `Bitbucket: the report for ${nameOf(outcome)} is on commit ${where.commit.slice(0, 12)}, with ${annotations} annotations.`
        )
      })
      await decorationStep(`the build status for ${nameOf(outcome)}`, () =>
        setBuildStatus(server, where, outcome, options)
      )
    }
  })
}

function repositoryPath({ project, repository, commit }: DataCenterRepository): string {
  return `projects/${encodeURIComponent(project)}/repos/${encodeURIComponent(repository)}/commits/${encodeURIComponent(commit)}`
}

async function writeReport(
  server: RestApi,
  where: DataCenterRepository,
  outcome: AnalysisOutcome,
  { sink, policy }: DataCenterOptions
): Promise<number> {
  const path = `insights/1.0/${repositoryPath(where)}/reports/${reportId(projectName(outcome))}`
  try {
    await server.request('DELETE', path)
  } catch (error) {
    if (!(error instanceof PlatformRefusal && error.status === 404)) throw error
  }
  const dashboard = dashboardOf(outcome)
  await server.request('PUT', path, {
    body: {
      title: sink.text(
        cut(`SonarQube: ${oneLine(projectName(outcome))}`, DATA_CENTER_LIMITS.titleChars)
      ),
      details: sink.text(cut(statusWords(outcome, policy, sink), DATA_CENTER_LIMITS.detailsChars)),
      result: failing(outcome, policy) ? 'FAIL' : 'PASS',
      reporter: 'SonarQube',
      ...(dashboard ? { link: dashboard } : {}),
      data: reportData(outcome, sink).slice(0, DATA_CENTER_LIMITS.dataFields)
    }
  })
  const findings =
    outcome.read && outcome.result.newIssues?.read ? outcome.result.newIssues.findings : []
  const annotations = bySeverity(findings)
    .slice(0, DATA_CENTER_LIMITS.annotationsPerReport)
    .map((finding) => annotation(finding, sink))
  if (annotations.length > 0) {
    await server.request('POST', `${path}/annotations`, { body: { annotations } })
  }
  return annotations.length
}

const SERVER_SEVERITY = severityIn('bitbucketServer')
const TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL'])

function annotation(finding: Finding, sink: Sink): Record<string, unknown> {
  return {
    externalId: reportId(finding.key),
    message: sink.text(cut(oneLine(finding.message, Infinity), DATA_CENTER_LIMITS.messageChars)),
    severity: SERVER_SEVERITY(finding.severity),
    type: TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
    link: sink.text(finding.url),
    ...(finding.file !== undefined && sink.text(finding.file) === finding.file
      ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
      : {})
  }
}

async function setBuildStatus(
  server: RestApi,
  where: DataCenterRepository,
  outcome: AnalysisOutcome,
  { sink, policy }: DataCenterOptions
): Promise<void> {
  const dashboard = dashboardOf(outcome)
  const body = {
    key: reportId(projectName(outcome)),
    state: failing(outcome, policy) ? 'FAILED' : 'SUCCESSFUL',
    name: sink.text(
      cut(`sonarqube/${oneLine(projectName(outcome))}`, DATA_CENTER_LIMITS.textChars)
    ),
    // The server requires an address: the dashboard, else the server's own.
    url: dashboard ?? server.base.origin,
    description: sink.text(cut(statusWords(outcome, policy, sink), DATA_CENTER_LIMITS.textChars))
  }
  try {
    await server.request('POST', `api/latest/${repositoryPath(where)}/builds`, { body })
  } catch (error) {
    if (!(error instanceof PlatformRefusal && error.status === 404)) throw error
    // A server before the repository's builds API: the older, commit-wide one.
    await server.request('POST', `build-status/1.0/commits/${encodeURIComponent(where.commit)}`, {
      body
    })
  }
}

function refusalWords(error: PlatformRefusal, where: DataCenterRepository): Said {
  const base = 'Bitbucket refused the decoration; the verdict and the exit code are unchanged.'
  const repository = `${oneLine(where.project, QUOTE_LIMITS.short)}/${oneLine(where.repository, QUOTE_LIMITS.short)}`
  switch (error.status) {
    case 401:
      return `${base} The token in BITBUCKET_TOKEN is not valid (401): give an HTTP access token of the repository or its project.`
    case 403:
      return `${base} The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write permission.`
    default:
      return msg`${base} The server shows this token no repository ${repository}, or has no Code Insights (404: Bitbucket Data Center 5.15 or later has them): check ${setting('bitbucketProject')} and ${setting('bitbucketRepo')}.`
  }
}
