/**
 * Bitbucket Data Center as a review platform, from any CI (Jenkins, Bamboo…): per project a Code
 * Insights report on the commit with the new issues as its annotations, and a build status. Shapes
 * from Bitbucket Data Center's REST specification (9.2), Code Insights since 5.15:
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
import type { PlatformRefusal, RestApi } from '../../http/rest-api.js'
import {
  buildStatus,
  cut,
  digestId,
  ignoreNotFound,
  isNotFound,
  msg,
  oneLine,
  QUOTE_LIMITS,
  refusalSaid,
  setting,
  severityIn,
  type Finding,
  type ProjectVerdict,
  type ReviewPlatform,
  type Said
} from '../review-platform.js'

const DATA_CENTER_LIMITS = {
  titleChars: 450,
  detailsChars: 2000,
  messageChars: 2000,
  annotationsPerReport: 1000,
  dataFields: 6
} as const

/** The repository on the server, and the commit decorated. */
interface DataCenterTarget {
  project: string
  repository: string
  commit: string
}

/**
 * The Bitbucket Data Center repository `target` names, as a platform of commits (it has no
 * review the decoration writes to).
 *
 * @example await decorate(bitbucketDataCenter(rest, { project: 'SHOP', repository: 'web', commit }), outcomes, options)
 */
export function bitbucketDataCenter(server: RestApi, target: DataCenterTarget): ReviewPlatform {
  const commit = `projects/${encodeURIComponent(target.project)}/repos/${encodeURIComponent(target.repository)}/commits/${encodeURIComponent(target.commit)}`
  return {
    words: {
      name: 'Bitbucket',
      status: 'build status',
      comment: 'comment',
      check: 'that the Bitbucket Data Center server answers at the address given, and is up'
    },
    refusal: (error) => refusalWords(error, target),
    commit: target.commit,
    writeReport: (verdict) => writeReport(server, `insights/1.0/${commit}`, verdict),
    setStatus: (verdict) => setBuildStatus(server, commit, target, verdict),
    review: undefined,
    close: () => server.close()
  }
}

async function writeReport(
  server: RestApi,
  commit: string,
  verdict: ProjectVerdict
): Promise<number> {
  const path = `${commit}/reports/${digestId(verdict.key)}`
  await server.request('DELETE', path).catch(ignoreNotFound)
  await server.request('PUT', path, {
    body: {
      title: verdict.say(cut(`SonarQube: ${oneLine(verdict.key)}`, DATA_CENTER_LIMITS.titleChars)),
      details: cut(verdict.words, DATA_CENTER_LIMITS.detailsChars),
      result: verdict.failing ? 'FAIL' : 'PASS',
      reporter: 'SonarQube',
      ...(verdict.dashboard ? { link: verdict.dashboard } : {}),
      data: verdict.figures.slice(0, DATA_CENTER_LIMITS.dataFields)
    }
  })
  const annotations = verdict.findings
    .slice(0, DATA_CENTER_LIMITS.annotationsPerReport)
    .map((finding) => annotation(finding, verdict.say))
  if (annotations.length > 0) {
    await server.request('POST', `${path}/annotations`, { body: { annotations } })
  }
  return annotations.length
}

const SERVER_SEVERITY = severityIn('bitbucketServer')
const TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL'])

function annotation(finding: Finding, say: (text: string) => string): Record<string, unknown> {
  return {
    externalId: digestId(finding.key),
    message: say(cut(oneLine(finding.message, Infinity), DATA_CENTER_LIMITS.messageChars)),
    severity: SERVER_SEVERITY(finding.severity),
    type: TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
    link: say(finding.url),
    ...(finding.file !== undefined && say(finding.file) === finding.file
      ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
      : {})
  }
}

async function setBuildStatus(
  server: RestApi,
  commit: string,
  target: DataCenterTarget,
  verdict: ProjectVerdict
): Promise<void> {
  const body = buildStatus(verdict, server.base.origin)
  try {
    await server.request('POST', `api/latest/${commit}/builds`, { body })
  } catch (error) {
    if (!isNotFound(error)) throw error
    // A server before the repository's builds API: the older, commit-wide one.
    await server.request('POST', `build-status/1.0/commits/${encodeURIComponent(target.commit)}`, {
      body
    })
  }
}

function refusalWords(error: PlatformRefusal, target: DataCenterTarget): Said {
  const repository = `${oneLine(target.project, QUOTE_LIMITS.short)}/${oneLine(target.repository, QUOTE_LIMITS.short)}`
  return refusalSaid('Bitbucket', error.status, {
    401: 'The token in BITBUCKET_TOKEN is not valid (401): give an HTTP access token of the repository or its project.',
    403: `The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write permission.`,
    404: msg`The server shows this token no repository ${repository}, or has no Code Insights (404: Bitbucket Data Center 5.15 or later has them): check ${setting('bitbucketProject')} and ${setting('bitbucketRepo')}.`
  })
}
