/**
 * The GitHub repository, pull request and commit a run names, from any CI: the settings given
 * (the repository, the pull request's number, the commit) win; else the CI's own variables, each checked
 * against the CI's documentation:
 * - GitHub Actions: GITHUB_REPOSITORY; on pull_request events the event file's pull request and
 *   head commit; else GITHUB_SHA (https://docs.github.com/en/actions/reference/workflows-and-actions/variables).
 * - Jenkins (GitHub Branch Source): CHANGE_URL, the pull request's address
 *   (`https://github.com/<owner>/<repo>/pull/<n>`: its `html_url`, which GitHubSCMSource gives
 *   the head's ObjectMetadataAction), and CHANGE_ID, as the Branch API plugin sets them on a
 *   change request (jenkins/branch/BranchNameContributor.java); GIT_URL, the remote,
 *   and GIT_COMMIT, from the Git plugin (hudson/plugins/git/GitSCM/buildEnv.properties). With the
 *   default "merge with target" strategy GIT_COMMIT is Jenkins' own merge: the commit given is the head.
 * - CircleCI: CIRCLE_PROJECT_USERNAME and CIRCLE_PROJECT_REPONAME; CIRCLE_PULL_REQUEST, the pull
 *   request's address (CIRCLE_PR_NUMBER on a fork's); CIRCLE_SHA1; CIRCLE_REPOSITORY_URL for the
 *   host (https://circleci.com/docs/reference/variables/).
 * - Buildkite: BUILDKITE_REPO, the remote (`git@github.com:acme/shop.git`); BUILDKITE_PULL_REQUEST,
 *   the number or `false`; BUILDKITE_COMMIT, taken only as a full SHA (it may be `HEAD`)
 *   (https://buildkite.com/docs/pipelines/configure/environment-variables).
 * - Azure Pipelines with a GitHub repository (BUILD_REPOSITORY_PROVIDER GitHub or
 *   GitHubEnterprise): BUILD_REPOSITORY_NAME, `owner/name`, and BUILD_REPOSITORY_URI for the host;
 *   SYSTEM_PULLREQUEST_PULLREQUESTNUMBER, GitHub's number (PULLREQUESTID is Azure's own id);
 *   SYSTEM_PULLREQUEST_SOURCECOMMITID, the head, else BUILD_SOURCEVERSION.
 * - TeamCity: no variable names the repository or the pull request (its Pull Requests feature
 *   has them as configuration parameters, not in the environment): the repository and the pull
 *   request are given; BUILD_VCS_NUMBER is the commit.
 * The API is GITHUB_API_URL when set, else api.github.com for github.com, else GitHub Enterprise
 * Server's `https://<host>/api/v3`.
 */
import { isFullSha } from '../settings.js'
import { msg, setting, type Said } from '../words.js'
import { remoteOf } from './review-targets.js'
import {
  eventPullRequest,
  httpUrl,
  OWNER_REPO,
  PULL_NUMBER,
  variable,
  type Env,
  type Given,
  type Missing
} from './variables.js'

/** A GitHub repository to decorate, and what names each of its values, for the messages. */
interface GitHubRepository {
  apiUrl: URL
  owner: string
  repo: string
  pullRequest: number | undefined
  commit: string
  names: { repository: Said; pullRequest: Said; api: string }
}

/** What a CI names: the repository's host and path, the pull request, the commit. */
interface Named {
  from: string
  host: string | undefined
  repository: string | undefined
  pullRequest: string | undefined
  commit: string | undefined
  names: { repository: Said; pullRequest: Said }
}

const REPOSITORY = setting('githubRepository')
const PULL_REQUEST = setting('pullRequest')

/**
 * Whether the run names a GitHub repository to decorate: given, or by a CI whose
 * variables name one, with GITHUB_TOKEN set.
 */
export function namesGitHub(env: Env, given: Given): boolean {
  if (given.repository !== undefined) return true
  if (!variable(env, 'GITHUB_TOKEN')) return false
  return ciOf(env) !== undefined
}

/**
 * The repository, pull request and commit to decorate on GitHub, or what is missing.
 *
 * @example await githubRepository({ JENKINS_URL: 'https://ci', CHANGE_URL: 'https://github.com/acme/shop/pull/7', CHANGE_ID: '7', GIT_COMMIT: sha }, {}) // { owner: 'acme', repo: 'shop', pullRequest: 7, … }
 */
export async function githubRepository(
  env: Env,
  given: Given
): Promise<GitHubRepository | Missing> {
  const ci = await ciOf(env)?.(env)
  const repository = given.repository ?? ci?.repository
  const names = {
    repository: given.repository === undefined && ci ? ci.names.repository : REPOSITORY,
    pullRequest: given.pullRequest === undefined && ci ? ci.names.pullRequest : PULL_REQUEST,
    api: 'GITHUB_API_URL'
  }
  const parts = repository === undefined ? undefined : OWNER_REPO.exec(repository)
  if (!parts) {
    return {
      missing:
        repository === undefined
          ? msg`no GitHub repository named${ci ? ` by ${ci.from}` : ''}: give ${REPOSITORY} owner/name`
          : msg`${names.repository} is not owner/name`
    }
  }
  const number = given.pullRequest ?? ci?.pullRequest
  if (number !== undefined && !PULL_NUMBER.test(number)) {
    return { missing: msg`${names.pullRequest} is not a pull request's number` }
  }
  const commit = given.commit ?? ci?.commit
  if (commit === undefined || !isFullSha(commit)) {
    return {
      missing: msg`no commit to decorate${ci ? ` (${ci.from} names none as a full SHA)` : ''}: give ${setting('commit')} with the commit the scan analysed`
    }
  }
  const apiUrl = apiOf(env, ci?.host)
  if (!apiUrl) return { missing: 'GITHUB_API_URL is not an http(s) address' }
  return {
    apiUrl,
    owner: parts[1]!,
    repo: parts[2]!,
    pullRequest: number === undefined ? undefined : Number(number),
    commit: commit.toLowerCase(),
    names
  }
}

/** GITHUB_API_URL, or the API of the host the CI names (github.com's, or Enterprise Server's). */
function apiOf(env: Env, host: string | undefined): URL | undefined {
  const given = variable(env, 'GITHUB_API_URL')
  if (given !== undefined) return httpUrl(given)
  if (host === undefined || host === 'github.com' || host === 'www.github.com') {
    return new URL('https://api.github.com')
  }
  return httpUrl(`https://${host}/api/v3`)
}

/** The CI the command runs in, when it is one this module reads. */
function ciOf(env: Env): ((env: Env) => Named | Promise<Named>) | undefined {
  if (env['GITHUB_ACTIONS'] === 'true' && !env['GITEA_ACTIONS'] && !env['FORGEJO_ACTIONS']) {
    return gitHubActions
  }
  if (env['JENKINS_URL'] && (env['CHANGE_URL'] || env['GIT_URL'])) return jenkins
  if (env['CIRCLECI'] === 'true' && env['CIRCLE_PROJECT_USERNAME']) return circleCi
  if (env['BUILDKITE'] === 'true' && env['BUILDKITE_REPO']) return buildkite
  const provider = env['BUILD_REPOSITORY_PROVIDER'] ?? ''
  if (env['TF_BUILD']?.toLowerCase() === 'true' && /^GitHub(Enterprise)?$/.test(provider)) {
    return azurePipelines
  }
  if (env['TEAMCITY_VERSION']) return teamCity
  return undefined
}

async function gitHubActions(env: Env): Promise<Named> {
  const payload = (await eventPullRequest(env)) ?? {}
  return {
    from: 'GitHub Actions',
    host: hostOf(variable(env, 'GITHUB_SERVER_URL')),
    repository: variable(env, 'GITHUB_REPOSITORY'),
    pullRequest: payload.number?.toString(),
    commit: payload.headSha ?? variable(env, 'GITHUB_SHA'),
    names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event file' }
  }
}

function jenkins(env: Env): Named {
  // CHANGE_URL of a GitHub pull request: https://<host>/<owner>/<repo>/pull/<number>.
  const change = /^https?:\/\/([^/\s]+)\/([\w.-]+\/[\w.-]+)\/pull\/(\d+)\/?$/.exec(
    variable(env, 'CHANGE_URL') ?? ''
  )
  const remote = remoteOf(variable(env, 'GIT_URL'))
  return {
    from: 'Jenkins',
    host: change?.[1] ?? remote?.host,
    repository: change?.[2] ?? remote?.repository,
    pullRequest: change ? (variable(env, 'CHANGE_ID') ?? change[3]) : undefined,
    commit: variable(env, 'GIT_COMMIT'),
    names: { repository: change ? 'CHANGE_URL' : 'GIT_URL', pullRequest: 'CHANGE_ID' }
  }
}

function circleCi(env: Env): Named {
  const owner = variable(env, 'CIRCLE_PROJECT_USERNAME')
  const name = variable(env, 'CIRCLE_PROJECT_REPONAME')
  const address = /\/pull\/(\d+)\/?$/.exec(variable(env, 'CIRCLE_PULL_REQUEST') ?? '')
  return {
    from: 'CircleCI',
    host:
      remoteOf(variable(env, 'CIRCLE_REPOSITORY_URL'))?.host ??
      hostOf(variable(env, 'CIRCLE_PULL_REQUEST')),
    repository: owner && name ? `${owner}/${name}` : undefined,
    pullRequest: variable(env, 'CIRCLE_PR_NUMBER') ?? address?.[1],
    commit: variable(env, 'CIRCLE_SHA1'),
    names: {
      repository: 'CIRCLE_PROJECT_USERNAME and CIRCLE_PROJECT_REPONAME',
      pullRequest: 'CIRCLE_PULL_REQUEST'
    }
  }
}

function buildkite(env: Env): Named {
  const remote = remoteOf(variable(env, 'BUILDKITE_REPO'))
  const number = variable(env, 'BUILDKITE_PULL_REQUEST')
  return {
    from: 'Buildkite',
    host: remote?.host,
    repository: remote?.repository,
    pullRequest: number === 'false' ? undefined : number,
    commit: variable(env, 'BUILDKITE_COMMIT'),
    names: { repository: 'BUILDKITE_REPO', pullRequest: 'BUILDKITE_PULL_REQUEST' }
  }
}

function azurePipelines(env: Env): Named {
  return {
    from: 'Azure Pipelines',
    host: hostOf(variable(env, 'BUILD_REPOSITORY_URI')),
    repository: variable(env, 'BUILD_REPOSITORY_NAME'),
    pullRequest: variable(env, 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER'),
    commit:
      variable(env, 'SYSTEM_PULLREQUEST_SOURCECOMMITID') ?? variable(env, 'BUILD_SOURCEVERSION'),
    names: {
      repository: 'BUILD_REPOSITORY_NAME',
      pullRequest: 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER'
    }
  }
}

function teamCity(env: Env): Named {
  return {
    from: 'TeamCity',
    host: undefined,
    repository: undefined,
    pullRequest: undefined,
    commit: variable(env, 'BUILD_VCS_NUMBER'),
    names: { repository: REPOSITORY, pullRequest: PULL_REQUEST }
  }
}

/** The host of an http(s) address, lower-cased. */
function hostOf(address: string | undefined): string | undefined {
  return httpUrl(address)?.hostname.toLowerCase()
}
