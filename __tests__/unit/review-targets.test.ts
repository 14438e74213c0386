/**
 * Where a run from any CI decorates: the GitHub repository, pull request and commit each CI's
 * variables name (as its documentation lists them), the settings given winning; GitLab from the
 * Jenkins GitLab plugin's variables or the settings; and what is missing, said by name.
 */
import { describe, expect, it } from 'vitest'
import { inCommandWords } from '../../__fixtures__/sinks.js'
import { githubRepository, namesGitHub } from '../../src/ci/github-repository.js'
import {
  azureRepository,
  bitbucketRepository,
  gitlabProject,
  namesAzureFromJenkins,
  namesBitbucketFromJenkins
} from '../../src/ci/review-targets.js'

const SHA = 'a'.repeat(40)
const HEAD = 'b'.repeat(40)

/** The repository, pull request, commit and API a run names, or what is missing, in words. */
async function named(env: NodeJS.ProcessEnv, given = {}) {
  const found = await githubRepository(env, given)
  if ('missing' in found) return { missing: inCommandWords(found.missing) }
  const { owner, repo, pullRequest, commit, apiUrl } = found
  return { repository: `${owner}/${repo}`, pullRequest, commit, api: apiUrl.href }
}

describe('GitHub from any CI', () => {
  it('Jenkins: CHANGE_URL and CHANGE_ID on a pull request, GIT_URL on a branch', async () => {
    const jenkins = { JENKINS_URL: 'https://ci.example.com/', GIT_COMMIT: SHA }
    expect(
      await named({
        ...jenkins,
        CHANGE_URL: 'https://github.com/acme/shop/pull/12',
        CHANGE_ID: '12'
      })
    ).toEqual({
      repository: 'acme/shop',
      pullRequest: 12,
      commit: SHA,
      api: 'https://api.github.com/'
    })
    expect(await named({ ...jenkins, GIT_URL: 'git@github.com:acme/shop.git' })).toEqual({
      repository: 'acme/shop',
      pullRequest: undefined,
      commit: SHA,
      api: 'https://api.github.com/'
    })
    // GitHub Enterprise Server: its API under /api/v3 of the pull request's host.
    expect(
      await named({
        ...jenkins,
        CHANGE_URL: 'https://git.acme.io/acme/shop/pull/3',
        CHANGE_ID: '3'
      })
    ).toMatchObject({ api: 'https://git.acme.io/api/v3' })
    // --commit gives the head when GIT_COMMIT is Jenkins' own merge.
    expect(
      await named(
        { ...jenkins, CHANGE_URL: 'https://github.com/acme/shop/pull/12', CHANGE_ID: '12' },
        { commit: HEAD }
      )
    ).toMatchObject({ commit: HEAD })
  })

  it("CircleCI: the project's user and name, the pull request's address, CIRCLE_SHA1", async () => {
    expect(
      await named({
        CIRCLECI: 'true',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'shop',
        CIRCLE_PULL_REQUEST: 'https://github.com/acme/shop/pull/34',
        CIRCLE_SHA1: SHA
      })
    ).toEqual({
      repository: 'acme/shop',
      pullRequest: 34,
      commit: SHA,
      api: 'https://api.github.com/'
    })
  })

  it('Buildkite: the remote, the number (or false), a commit only as a full SHA', async () => {
    const buildkite = { BUILDKITE: 'true', BUILDKITE_REPO: 'https://github.com/acme/shop.git' }
    expect(
      await named({ ...buildkite, BUILDKITE_PULL_REQUEST: '5', BUILDKITE_COMMIT: SHA })
    ).toMatchObject({ repository: 'acme/shop', pullRequest: 5, commit: SHA })
    expect(
      await named({ ...buildkite, BUILDKITE_PULL_REQUEST: 'false', BUILDKITE_COMMIT: SHA })
    ).toMatchObject({ pullRequest: undefined })
    expect(
      await named({ ...buildkite, BUILDKITE_PULL_REQUEST: '5', BUILDKITE_COMMIT: 'HEAD' })
    ).toEqual({
      missing:
        'no commit to decorate (Buildkite names none as a full SHA): give --commit with the commit the scan analysed'
    })
  })

  it("Azure Pipelines with a GitHub repository: GitHub's number, not Azure's id; the head commit", async () => {
    expect(
      await named({
        TF_BUILD: 'True',
        BUILD_REPOSITORY_PROVIDER: 'GitHub',
        BUILD_REPOSITORY_NAME: 'acme/shop',
        BUILD_REPOSITORY_URI: 'https://github.com/acme/shop',
        SYSTEM_PULLREQUEST_PULLREQUESTID: '987654',
        SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '56',
        SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD,
        BUILD_SOURCEVERSION: SHA
      })
    ).toEqual({
      repository: 'acme/shop',
      pullRequest: 56,
      commit: HEAD,
      api: 'https://api.github.com/'
    })
  })

  it('TeamCity names no repository: the settings say it, or the message asks for them', async () => {
    const teamcity = { TEAMCITY_VERSION: '2025.07', BUILD_VCS_NUMBER: SHA }
    expect(await named(teamcity)).toEqual({
      missing: 'no GitHub repository named by TeamCity: give --github-repository owner/name'
    })
    expect(await named(teamcity, { repository: 'acme/shop', pullRequest: '9' })).toEqual({
      repository: 'acme/shop',
      pullRequest: 9,
      commit: SHA,
      api: 'https://api.github.com/'
    })
  })

  it('GITHUB_API_URL wins; a bad repository, number or address is said by its name', async () => {
    const jenkins = {
      JENKINS_URL: 'https://ci.example.com/',
      GIT_COMMIT: SHA,
      CHANGE_URL: 'https://github.com/acme/shop/pull/12',
      CHANGE_ID: '12'
    }
    expect(
      await named({ ...jenkins, GITHUB_API_URL: 'https://ghe.example.com/api/v3' })
    ).toMatchObject({ api: 'https://ghe.example.com/api/v3' })
    expect(await named({ ...jenkins, GITHUB_API_URL: 'ftp://x' })).toEqual({
      missing: 'GITHUB_API_URL is not an http(s) address'
    })
    expect(await named(jenkins, { repository: 'acme' })).toEqual({
      missing: '--github-repository is not owner/name'
    })
    expect(await named({ ...jenkins, CHANGE_ID: '12; rm -rf' })).toEqual({
      missing: "CHANGE_ID is not a pull request's number"
    })
  })

  it('a CI names GitHub only with GITHUB_TOKEN set, and never Gitea or Forgejo Actions', () => {
    const circle = { CIRCLECI: 'true', CIRCLE_PROJECT_USERNAME: 'acme' }
    expect(namesGitHub(circle, {})).toBe(false)
    expect(namesGitHub({ ...circle, GITHUB_TOKEN: 't' }, {})).toBe(true)
    expect(namesGitHub({ GITHUB_ACTIONS: 'true', GITHUB_TOKEN: 't' }, {})).toBe(true)
    expect(
      namesGitHub({ GITHUB_ACTIONS: 'true', GITEA_ACTIONS: 'true', GITHUB_TOKEN: 't' }, {})
    ).toBe(false)
    expect(namesGitHub({}, { repository: 'acme/shop' })).toBe(true)
  })
})

describe('GitLab from any CI', () => {
  it("the Jenkins GitLab plugin's merge request: the target project, its iid, its last commit", () => {
    const found = gitlabProject(
      {
        gitlabTargetRepoHttpUrl: 'https://gitlab.example.com/acme/shop.git',
        gitlabMergeRequestTargetProjectId: '42',
        gitlabMergeRequestIid: '7',
        gitlabMergeRequestLastCommit: HEAD,
        GIT_COMMIT: SHA
      },
      {}
    )
    expect(found).toMatchObject({
      apiUrl: new URL('https://gitlab.example.com/api/v4'),
      pipeline: { projectId: '42', mergeRequestIid: '7', sha: HEAD, pipelineId: undefined }
    })
  })

  it('the settings: an address, a project by path, the merge request; a file links to it', () => {
    const found = gitlabProject(
      {},
      { url: 'https://gitlab.example.com/', project: 'acme/shop', pullRequest: '7', commit: SHA }
    )
    if ('missing' in found) throw new Error('expected a project')
    expect(found.apiUrl.href).toBe('https://gitlab.example.com/api/v4')
    expect(found.pipeline.projectId).toBe('acme/shop')
    expect(found.pipeline.fileLink?.('src/app.ts', 3)).toContain(
      `https://gitlab.example.com/acme/shop/-/blob/${SHA}/src/app.ts`
    )
    const missing = gitlabProject({}, { url: 'https://gitlab.example.com', commit: SHA })
    expect('missing' in missing ? inCommandWords(missing.missing) : '').toBe(
      'no GitLab project (an id or a path): give --gitlab-project'
    )
  })
})

describe('Bitbucket Cloud from any CI', () => {
  const jenkins = {
    JENKINS_URL: 'https://jenkins.example.com/',
    BITBUCKET_TOKEN: 'bb-token',
    GIT_COMMIT: HEAD
  }

  it("Jenkins' Bitbucket Branch Source: CHANGE_URL's workspace and repository, CHANGE_ID, GIT_COMMIT", () => {
    const env = {
      ...jenkins,
      CHANGE_URL: 'https://bitbucket.org/acme/shop/pull-requests/12',
      CHANGE_ID: '12'
    }
    expect(namesBitbucketFromJenkins(env)).toBe(true)
    expect(bitbucketRepository(env, {})).toEqual({
      apiUrl: new URL('https://api.bitbucket.org/2.0'),
      pipeline: { repository: 'acme/shop', commit: HEAD, pullRequestId: '12' }
    })
  })

  it('GIT_URL on bitbucket.org outside a pull request; another host, or no token, is not Bitbucket', () => {
    for (const remote of [
      'https://bitbucket.org/acme/shop.git',
      'https://ci-user@bitbucket.org/acme/shop.git',
      'git@bitbucket.org:acme/shop.git'
    ]) {
      const env = { ...jenkins, GIT_URL: remote }
      expect(namesBitbucketFromJenkins(env)).toBe(true)
      expect(bitbucketRepository(env, {})).toMatchObject({
        pipeline: { repository: 'acme/shop', pullRequestId: undefined }
      })
    }
    expect(
      namesBitbucketFromJenkins({ ...jenkins, GIT_URL: 'https://github.com/acme/shop.git' })
    ).toBe(false)
    expect(
      namesBitbucketFromJenkins({
        ...jenkins,
        BITBUCKET_TOKEN: '',
        CHANGE_URL: 'https://bitbucket.org/acme/shop/pull-requests/12'
      })
    ).toBe(false)
  })

  it('the settings win; what is missing is said by name', () => {
    expect(
      bitbucketRepository(
        {},
        { repository: 'acme/web', pullRequest: '3', commit: SHA.toUpperCase() }
      )
    ).toMatchObject({ pipeline: { repository: 'acme/web', pullRequestId: '3', commit: SHA } })
    const words = (found: ReturnType<typeof bitbucketRepository>) =>
      'missing' in found ? inCommandWords(found.missing) : ''
    expect(words(bitbucketRepository({}, { commit: SHA }))).toBe(
      'no Bitbucket repository named: give --bitbucket-repository workspace/repository'
    )
    expect(words(bitbucketRepository({}, { repository: 'acme', commit: SHA }))).toBe(
      '--bitbucket-repository is not workspace/repository'
    )
    expect(words(bitbucketRepository({}, { repository: 'acme/web', commit: 'abc' }))).toBe(
      'no commit to decorate: give --commit with the commit the scan analysed'
    )
    expect(
      words(bitbucketRepository({}, { repository: 'acme/web', pullRequest: 'x', commit: SHA }))
    ).toBe("--pull-request is not a pull request's id")
  })
})

describe('Azure DevOps from any CI', () => {
  const addresses = (found: ReturnType<typeof azureRepository>) =>
    'missing' in found
      ? inCommandWords(found.missing)
      : [found.collectionUrl.href, found.repositoryUrl.href, found.pullRequestId, found.commit]

  it.each([
    [
      'https://dev.azure.com/acme/Shop%20Web/_git/web',
      'https://dev.azure.com/acme/',
      'https://dev.azure.com/acme/Shop%20Web/_apis/git/repositories/web/'
    ],
    [
      'https://ci@dev.azure.com/acme/shop/_git/web',
      'https://dev.azure.com/acme/',
      'https://dev.azure.com/acme/shop/_apis/git/repositories/web/'
    ],
    [
      'https://acme.visualstudio.com/DefaultCollection/shop/_git/web',
      'https://acme.visualstudio.com/DefaultCollection/',
      'https://acme.visualstudio.com/DefaultCollection/shop/_apis/git/repositories/web/'
    ],
    [
      'https://tfs.example.com/tfs/Main/shop/_git/web/',
      'https://tfs.example.com/tfs/Main/',
      'https://tfs.example.com/tfs/Main/shop/_apis/git/repositories/web/'
    ]
  ])('%s: the collection and the repository under it', (address, collection, repository) => {
    expect(
      addresses(azureRepository({}, { repository: address, pullRequest: '9', commit: SHA }))
    ).toEqual([collection, repository, '9', SHA])
  })

  it("Jenkins' GIT_URL with AZURE_DEVOPS_TOKEN; the pull request must be given; what is missing is said", () => {
    const env = {
      JENKINS_URL: 'https://jenkins.example.com/',
      AZURE_DEVOPS_TOKEN: 'pat',
      GIT_URL: 'https://dev.azure.com/acme/shop/_git/web',
      GIT_COMMIT: HEAD
    }
    expect(namesAzureFromJenkins(env)).toBe(true)
    expect(namesAzureFromJenkins({ ...env, GIT_URL: 'https://github.com/acme/web.git' })).toBe(
      false
    )
    expect(addresses(azureRepository(env, { pullRequest: '9' }))).toEqual([
      'https://dev.azure.com/acme/',
      'https://dev.azure.com/acme/shop/_apis/git/repositories/web/',
      '9',
      HEAD
    ])
    expect(addresses(azureRepository(env, {}))).toBe(
      "no pull request: give --pull-request with its id (Azure DevOps statuses and threads are a pull request's)"
    )
    expect(
      addresses(
        azureRepository(
          {},
          { repository: 'https://dev.azure.com/acme/_git/web', pullRequest: '9', commit: SHA }
        )
      )
    ).toBe(
      "--azure-repository is not an Azure DevOps repository's address (…/<project>/_git/<repository>)"
    )
    expect(addresses(azureRepository({}, { pullRequest: '9', commit: SHA }))).toBe(
      'no Azure DevOps repository named: give --azure-repository with its address (…/<project>/_git/<repository>)'
    )
  })
})
