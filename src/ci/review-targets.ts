/**
 * Where the CI says the decoration writes: the platform's API, the repository or project, the
 * commit and the review, read from the CI's own variables (or the options, which win). Every
 * value is untrusted: an address must be http(s) without credentials, a commit a full SHA, a
 * review a number. What is missing is said in words that name the variable; the platforms
 * (src/platforms/) never read the environment.
 */
import { fileLinkUnder, type FileLink } from '../report/new-issues-block.js'
import { isFullSha } from '../settings.js'
import { msg, setting, type Said } from '../words.js'
import {
  apiBelow,
  httpUrl,
  NO_COMMIT,
  variable,
  type Env,
  type Given,
  type Missing
} from './variables.js'

/**
 * The commit a platform's decoration goes on, the same rule on every platform: the commit given,
 * which wins over the CI's; else the commit the CI names.
 *
 * @example const sha = decoratedCommit({ commit: line.commit }, env['CI_COMMIT_SHA'])
 */
export function decoratedCommit<Ci extends string | undefined>(
  given: { commit?: string | undefined },
  fromTheCi: Ci
): string | Ci {
  return given.commit ?? fromTheCi
}

const NUMBER = /^\d{1,20}$/

/** A GitLab CI pipeline: the project, its commit, its merge request and pipeline if any. */
export interface GitLabPipeline {
  apiUrl: URL
  pipeline: {
    projectId: string
    sha: string
    mergeRequestIid: string | undefined
    pipelineId: string | undefined
    /** Links a new issue's file to the file at the commit, on GitLab (from CI_PROJECT_URL). */
    fileLink: FileLink | undefined
    names: { project: Said; mergeRequest: Said; api: Said }
  }
}

/**
 * The pipeline GitLab's variables describe (CI_API_V4_URL, CI_PROJECT_ID, CI_PROJECT_URL,
 * CI_COMMIT_SHA, CI_MERGE_REQUEST_IID, CI_PIPELINE_ID), or what is missing. The statuses go on
 * `commit` (the commit given) when given, else on CI_COMMIT_SHA; on another commit than the pipeline's
 * they name no pipeline (GitLab would find none of that commit with its id, and start one).
 */
export function gitlabPipeline(env: Env, commit?: string): GitLabPipeline | Missing {
  const apiUrl = httpUrl(variable(env, 'CI_API_V4_URL'))
  if (!apiUrl) return { missing: 'CI_API_V4_URL is not an http(s) address (not a GitLab CI job?)' }
  const projectId = variable(env, 'CI_PROJECT_ID')
  if (!projectId || !NUMBER.test(projectId)) {
    return { missing: 'CI_PROJECT_ID is not a project id' }
  }
  const pipelineSha = variable(env, 'CI_COMMIT_SHA')
  if (!pipelineSha || !isFullSha(pipelineSha)) {
    return { missing: 'CI_COMMIT_SHA is not a full commit SHA' }
  }
  const sha = decoratedCommit({ commit }, pipelineSha)
  const iid = variable(env, 'CI_MERGE_REQUEST_IID')
  const projectUrl = httpUrl(variable(env, 'CI_PROJECT_URL'))
  return {
    apiUrl,
    pipeline: {
      projectId,
      sha,
      mergeRequestIid: iid && NUMBER.test(iid) ? iid : undefined,
      pipelineId:
        sha.toLowerCase() === pipelineSha.toLowerCase()
          ? variable(env, 'CI_PIPELINE_ID')
          : undefined,
      fileLink: projectUrl
        ? fileLinkUnder(`${projectUrl.href.replace(/\/+$/, '')}/-/blob/${sha}`)
        : undefined,
      names: {
        project: 'CI_PROJECT_ID',
        mergeRequest: 'CI_MERGE_REQUEST_IID',
        api: 'CI_API_V4_URL'
      }
    }
  }
}

const BITBUCKET_API = 'https://api.bitbucket.org/2.0'

/** BITBUCKET_API_URL (a proxy, a test), else Bitbucket Cloud's API; undefined if not http(s). */
function bitbucketApi(env: Env): URL | undefined {
  return httpUrl(variable(env, 'BITBUCKET_API_URL') ?? BITBUCKET_API)
}

/** A Bitbucket Cloud repository's `workspace/slug`. */
const WORKSPACE_REPOSITORY = /^[\w.-]{1,100}\/[\w.-]{1,100}$/

/** A Bitbucket Pipelines build: the repository, its commit, its pull request if any. */
interface BitbucketPipeline {
  apiUrl: URL
  pipeline: { repository: string; commit: string; pullRequestId: string | undefined }
}

/**
 * The pipeline Bitbucket's variables describe (BITBUCKET_REPO_FULL_NAME, BITBUCKET_COMMIT,
 * BITBUCKET_PR_ID; BITBUCKET_API_URL overrides the API's address), or what is missing; its
 * commit is `commit` (the commit given) when given, else BITBUCKET_COMMIT.
 */
export function bitbucketPipeline(env: Env, commit?: string): BitbucketPipeline | Missing {
  const repository = variable(env, 'BITBUCKET_REPO_FULL_NAME')
  if (!repository || !WORKSPACE_REPOSITORY.test(repository)) {
    return { missing: 'BITBUCKET_REPO_FULL_NAME is not workspace/repository' }
  }
  const pipelineCommit = variable(env, 'BITBUCKET_COMMIT')
  if (!pipelineCommit || !/^[0-9a-f]{40}$/i.test(pipelineCommit)) {
    return { missing: 'BITBUCKET_COMMIT is not a full commit SHA' }
  }
  const apiUrl = bitbucketApi(env)
  if (!apiUrl) return { missing: 'BITBUCKET_API_URL is not an http(s) address' }
  const id = variable(env, 'BITBUCKET_PR_ID')
  return {
    apiUrl,
    pipeline: {
      repository,
      commit: decoratedCommit({ commit }, pipelineCommit),
      pullRequestId: id && /^\d{1,12}$/.test(id) ? id : undefined
    }
  }
}

/**
 * Whether Jenkins names a Bitbucket Cloud repository (Bitbucket Branch Source's CHANGE_URL, else
 * GIT_URL, on bitbucket.org) and BITBUCKET_TOKEN is set.
 */
export function namesBitbucketFromJenkins(env: Env): boolean {
  return Boolean(variable(env, 'BITBUCKET_TOKEN') && jenkinsBitbucket(env))
}

/**
 * Bitbucket Cloud from any CI: the repository from `given` (the bitbucketRepository setting,
 * workspace/slug) or Jenkins (CHANGE_URL `https://bitbucket.org/<workspace>/<slug>/pull-requests/<id>`,
 * as Bitbucket Branch Source sets it from the pull request's link, else GIT_URL), the pull
 * request from `given` or CHANGE_ID, the commit from `given`, GIT_COMMIT or `fromTheCi`.
 */
export function bitbucketRepository(
  env: Env,
  given: Given,
  fromTheCi?: string
): BitbucketPipeline | Missing {
  const jenkins = jenkinsBitbucket(env)
  const repository = given.repository ?? jenkins?.repository
  const named =
    given.repository === undefined && jenkins ? jenkins.names : setting('bitbucketRepository')
  if (!repository || !WORKSPACE_REPOSITORY.test(repository)) {
    return {
      missing:
        repository === undefined
          ? msg`no Bitbucket repository named: give ${setting('bitbucketRepository')} workspace/repository`
          : msg`${named} is not workspace/repository`
    }
  }
  const pullRequest = given.pullRequest ?? jenkins?.pullRequest
  if (pullRequest !== undefined && !/^\d{1,12}$/.test(pullRequest)) {
    return { missing: msg`${setting('pullRequest')} is not a pull request's id` }
  }
  const commit = given.commit ?? variable(env, 'GIT_COMMIT') ?? fromTheCi
  if (!commit || !/^[0-9a-f]{40}$/i.test(commit)) return { missing: NO_COMMIT }
  const apiUrl = bitbucketApi(env)
  if (!apiUrl) return { missing: 'BITBUCKET_API_URL is not an http(s) address' }
  return {
    apiUrl,
    pipeline: { repository, commit: commit.toLowerCase(), pullRequestId: pullRequest }
  }
}

/** What Jenkins names on bitbucket.org: the repository, and the pull request of CHANGE_URL. */
function jenkinsBitbucket(
  env: Env
): { repository: string; pullRequest: string | undefined; names: Said } | undefined {
  if (!variable(env, 'JENKINS_URL')) return undefined
  const change = /^https:\/\/bitbucket\.org\/([\w.-]+\/[\w.-]+)\/pull-requests\/(\d+)\/?$/i.exec(
    variable(env, 'CHANGE_URL') ?? ''
  )
  if (change) {
    return {
      repository: change[1]!,
      pullRequest: variable(env, 'CHANGE_ID') ?? change[2],
      names: 'CHANGE_URL'
    }
  }
  const remote = remoteOf(variable(env, 'GIT_URL'))
  return remote?.host === 'bitbucket.org'
    ? { repository: remote.repository, pullRequest: undefined, names: 'GIT_URL' }
    : undefined
}

/** An Azure Pipelines pull-request build: the repository's API, the pull request, the commit. */
interface AzurePullRequest {
  collectionUrl: URL
  repositoryUrl: URL
  pullRequestId: string
  commit: string
}

/**
 * The pull request Azure Pipelines' variables name (SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT,
 * BUILD_REPOSITORY_ID, SYSTEM_PULLREQUEST_PULLREQUESTID, BUILD_SOURCEVERSION), or what is missing.
 */
export function azurePullRequest(env: Env): AzurePullRequest | Missing {
  const collection = httpUrl(variable(env, 'SYSTEM_COLLECTIONURI'))
  if (!collection) return { missing: 'SYSTEM_COLLECTIONURI is not an http(s) address' }
  const project = variable(env, 'SYSTEM_TEAMPROJECT')
  if (!project || project.length > 200) return { missing: 'SYSTEM_TEAMPROJECT is not set' }
  const repository = variable(env, 'BUILD_REPOSITORY_ID')
  if (!repository || !/^[\w-]{1,100}$/.test(repository)) {
    return { missing: 'BUILD_REPOSITORY_ID is not a repository id' }
  }
  const pullRequestId = variable(env, 'SYSTEM_PULLREQUEST_PULLREQUESTID')
  if (!pullRequestId || !/^\d{1,12}$/.test(pullRequestId)) {
    return {
      missing:
        "not a pull-request build (no SYSTEM_PULLREQUEST_PULLREQUESTID): Azure DevOps statuses and threads are a pull request's"
    }
  }
  return {
    ...azureUrls(collection.href.replace(/\/*$/, '/'), project, repository),
    pullRequestId,
    commit: variable(env, 'BUILD_SOURCEVERSION') ?? ''
  }
}

/**
 * Azure DevOps from any CI: the repository from its address (the azureRepository setting, else
 * Jenkins' GIT_URL on dev.azure.com or visualstudio.com): `https://dev.azure.com/<organization>/<project>/_git/<repository>`,
 * `https://<organization>.visualstudio.com/<project>/_git/<repository>`, or Azure DevOps
 * Server's `https://<host>/<collection>/<project>/_git/<repository>`; the pull request from
 * `given` (statuses and threads are a pull request's); the commit from `given`, GIT_COMMIT or
 * `fromTheCi`.
 */
export function azureRepository(
  env: Env,
  given: Given,
  fromTheCi?: string
): AzurePullRequest | Missing {
  const address = given.repository === undefined ? jenkinsAzure(env) : azureRemote(given.repository)
  if (!address) {
    return {
      missing:
        given.repository === undefined
          ? msg`no Azure DevOps repository named: give ${setting('azureRepository')} with its address (…/<project>/_git/<repository>)`
          : msg`${setting('azureRepository')} is not an Azure DevOps repository's address (…/<project>/_git/<repository>)`
    }
  }
  const pullRequestId = given.pullRequest
  if (!pullRequestId || !/^\d{1,12}$/.test(pullRequestId)) {
    return {
      missing: msg`no pull request: give ${setting('pullRequest')} with its id (Azure DevOps statuses and threads are a pull request's)`
    }
  }
  const commit = given.commit ?? variable(env, 'GIT_COMMIT') ?? fromTheCi
  if (!commit || !isFullSha(commit)) return { missing: NO_COMMIT }
  return { ...address, pullRequestId, commit: commit.toLowerCase() }
}

/** A repository's address, split: its collection's, and its API's under it. */
function azureRemote(
  address: string | undefined
): Pick<AzurePullRequest, 'collectionUrl' | 'repositoryUrl'> | undefined {
  const url = httpUrl(address?.replace(/^(https?:\/\/)[^@/\s]+@/, '$1'))
  const parts = url && /^(.*\/)([^/]+)\/_git\/([^/]+?)\/?$/.exec(url.origin + url.pathname)
  if (!parts || url.search || url.hash) return undefined
  const [, collection, project, repository] = parts as unknown as [string, string, string, string]
  // dev.azure.com/<organization>/_git/<repository> (the project named as the repository): the
  // organization would be taken for the project, so the whole address is asked for.
  if (!URL.canParse(collection) || /^https:\/\/dev\.azure\.com\/$/i.test(collection)) {
    return undefined
  }
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part)
    } catch {
      return undefined
    }
  }
  const [projectName, repositoryName] = [decode(project), decode(repository)]
  if (!projectName || !repositoryName || projectName.length > 200 || repositoryName.length > 200) {
    return undefined
  }
  return azureUrls(collection, projectName, repositoryName)
}

/** A repository's addresses: its collection's (ending with `/`), and its API's under it. */
function azureUrls(
  collection: string,
  project: string,
  repository: string
): Pick<AzurePullRequest, 'collectionUrl' | 'repositoryUrl'> {
  const path = `${encodeURIComponent(project)}/_apis/git/repositories/${encodeURIComponent(repository)}/`
  return { collectionUrl: new URL(collection), repositoryUrl: new URL(path, collection) }
}

/** Whether Jenkins names an Azure DevOps repository (GIT_URL) and AZURE_DEVOPS_TOKEN is set. */
export function namesAzureFromJenkins(env: Env): boolean {
  return Boolean(variable(env, 'AZURE_DEVOPS_TOKEN') && jenkinsAzure(env))
}

/** The Azure DevOps repository Jenkins' GIT_URL names. */
function jenkinsAzure(env: Env): ReturnType<typeof azureRemote> {
  return variable(env, 'JENKINS_URL') ? azureRemote(variable(env, 'GIT_URL')) : undefined
}

/**
 * A GitLab project and merge request from any CI: the settings given (the address, the project
 * by id or path, the merge request's iid, the commit) win; else the Jenkins GitLab plugin's
 * variables (gitlabTargetRepoHttpUrl, gitlabMergeRequestTargetProjectId, gitlabMergeRequestIid,
 * gitlabMergeRequestLastCommit, as its CauseData sets them; not in multibranch jobs), and the
 * commit GIT_COMMIT names.
 *
 * @example gitlabProject(env, { url: 'https://gitlab.example.com', project: 'acme/shop', pullRequest: '7', commit })
 */
export function gitlabProject(
  env: Env,
  given: Omit<Given, 'repository'> & { url?: string | undefined; project?: string | undefined }
): GitLabPipeline | Missing {
  const fromPlugin = httpUrl(variable(env, 'gitlabTargetRepoHttpUrl'))
  const address = given.url ?? fromPlugin?.origin
  const server = httpUrl(address)
  if (!server) {
    return {
      missing:
        given.url === undefined
          ? msg`no GitLab address: give ${setting('gitlabUrl')}`
          : msg`${setting('gitlabUrl')} is not an http(s) address`
    }
  }
  const apiUrl = apiBelow(server, '/api/v4')
  const pluginPath = fromPlugin?.pathname.replace(/^\/+|\.git$|\/+$/g, '')
  const projectId =
    given.project ?? variable(env, 'gitlabMergeRequestTargetProjectId') ?? pluginPath
  if (!projectId || projectId.length > 500 || !/^[\w.\-/]+$/.test(projectId)) {
    return { missing: msg`no GitLab project (an id or a path): give ${setting('gitlabProject')}` }
  }
  const iid = given.pullRequest ?? variable(env, 'gitlabMergeRequestIid')
  if (iid !== undefined && !NUMBER.test(iid)) {
    return { missing: msg`${setting('pullRequest')} is not a merge request's iid` }
  }
  const sha =
    given.commit ?? variable(env, 'gitlabMergeRequestLastCommit') ?? variable(env, 'GIT_COMMIT')
  if (!sha || !isFullSha(sha)) return { missing: NO_COMMIT }
  const path = /^\d+$/.test(projectId) ? undefined : projectId
  return {
    apiUrl,
    pipeline: {
      projectId,
      sha: sha.toLowerCase(),
      mergeRequestIid: iid,
      pipelineId: undefined,
      fileLink: path
        ? fileLinkUnder(`${apiUrl.origin}/${path}/-/blob/${sha.toLowerCase()}`)
        : undefined,
      names: {
        project:
          given.project === undefined
            ? 'gitlabMergeRequestTargetProjectId'
            : setting('gitlabProject'),
        mergeRequest:
          given.pullRequest === undefined ? 'gitlabMergeRequestIid' : setting('pullRequest'),
        api: given.url === undefined ? 'gitlabTargetRepoHttpUrl' : setting('gitlabUrl')
      }
    }
  }
}

/** Whether the Jenkins GitLab plugin names a merge request's project. */
export function namesGitLabFromJenkins(env: Env): boolean {
  return (
    variable(env, 'gitlabTargetRepoHttpUrl') !== undefined &&
    variable(env, 'GITLAB_TOKEN') !== undefined
  )
}

/**
 * A git remote's host and `owner/name`: `https://github.com/acme/shop(.git)`,
 * `git@github.com:acme/shop(.git)`, `ssh://git@github.com/acme/shop(.git)`.
 */
export function remoteOf(
  remote: string | undefined
): { host: string; repository: string } | undefined {
  const match =
    /^(?:https?:\/\/(?:[^@/\s]+@)?|ssh:\/\/(?:[^@/\s]+@)?|[\w.-]+@)([\w.-]+)(?::\d+)?[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(
      remote ?? ''
    )
  return match ? { host: match[1]!.toLowerCase(), repository: match[2]! } : undefined
}
