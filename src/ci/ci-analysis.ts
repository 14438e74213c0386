/**
 * Which analysis the CI the command runs in is about: its branch or pull request, and the commit
 * a scan of this run records. The command's counterpart of the action's run-analysis.ts, read
 * from each CI's own variables. Every value is untrusted: a commit is taken only as a full SHA, a
 * branch only as a name the server can key, a pull request only as the number the server keys
 * it by. What a CI says but cannot be taken is a SettingsError naming the variable and the
 * options to pass: checking the main branch or the newest analysis instead would give another
 * analysis's verdict.
 */
import { SettingsError } from '../errors.js'
import type { Log } from '../log.js'
import { takeRunScope, type RunScope } from '../run-scope.js'
import {
  isBranchName,
  isFullSha,
  MAX_BRANCH_LENGTH,
  runStart,
  type RunStart,
  type Settings
} from '../settings.js'
import { oneLine } from '../untrusted-text.js'
import { msg, setting } from '../words.js'
import { eventPullRequest, type Env } from './variables.js'

/** Which analysis the CI's run is about (see RunScope): `from` is the CI's name. */
type CiAnalysis = RunScope

/** A pull or merge request's number: what SonarQube keys them by on every CI read here. */
const NUMBER = /^[1-9][0-9]{0,18}$/

/** What a CI calls a pull request, for the log. */
const REQUEST_WORDS: Readonly<Record<string, string>> = { 'GitLab CI': 'merge request' }

/**
 * With project keys and no branch, pull request or commit given, the branch or pull request
 * and the commits from the CI the command runs in (an option given always wins; a branch or pull
 * request given leaves the commit to the options too). One line of the log says what was taken
 * and from which CI. Outside a CI it knows, the settings stay as they are: the newest analysis of
 * the main branch.
 *
 * @example settings = await withTheCisAnalysis(settings, process.env, log)
 */
export async function withTheCisAnalysis(
  settings: Settings,
  env: Env,
  log: Log
): Promise<Settings> {
  if (settings.projectKeys.length === 0) return settings
  if (settings.branch || settings.pullRequest || settings.commits.length > 0) return settings
  const ci = await ciAnalysis(env)
  if (!ci) return settings
  return takeRunScope(settings, ci, log, REQUEST_WORDS[ci.from])
}

/**
 * The analysis the CI's run is about, from the first CI whose own marker is set; undefined when
 * none is, or when the CI names neither a commit nor a branch or pull request (nothing taken).
 * Throws a SettingsError when the CI names a branch, pull request or commit that cannot be taken,
 * or a branch or pull request without its commit.
 *
 * @example await ciAnalysis({ GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '42', CI_COMMIT_SHA: sha }) // { pullRequest: '42', commits: [sha], from: 'GitLab CI' }
 */
export async function ciAnalysis(env: Env): Promise<CiAnalysis | undefined> {
  if (env['GITHUB_ACTIONS'] === 'true') return gitHubActions(env)
  if (env['GITLAB_CI'] === 'true') return gitLabCi(env)
  if (env['TF_BUILD']?.toLowerCase() === 'true') return azurePipelines(env)
  if (env['CI'] === 'true' && env['BITBUCKET_COMMIT']) return bitbucketPipelines(env)
  if (env['CIRCLECI'] === 'true') return circleCi(env)
  // JENKINS_URL alone is no proof: it is often set outside Jenkins (SonarQube's scanner asks for
  // EXECUTOR_NUMBER too).
  if (env['JENKINS_URL'] && env['EXECUTOR_NUMBER']) return jenkins(env)
  return undefined
}

// GitHub Actions, when the command runs there (the action reads the same run on its own):
// https://docs.github.com/en/actions/reference/workflows-and-actions/variables (GITHUB_ACTIONS,
// GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REF: refs/heads/<branch>, refs/tags/<tag>, and on
// pull_request refs/pull/<number>/merge; GITHUB_SHA: on pull_request the merge commit). The head
// commit is only in the event file (pull_request.head.sha), which SonarQube's scanner records on
// pull_request (sonar-scanner-engine, org/sonar/scanner/ci/vendors/GithubActions.java): both are
// taken. SonarQube keys a GitHub pull request by its number.
async function gitHubActions(env: Env): Promise<CiAnalysis | undefined> {
  const ci = new CiVariables('GitHub Actions', env)
  const payload = await eventPullRequest(env)
  if (payload) {
    const fromRef = /^refs\/pull\/([0-9]+)\/merge$/.exec(env['GITHUB_REF'] ?? '')?.[1]
    const number =
      payload.number?.toString() ?? (fromRef && NUMBER.test(fromRef) ? fromRef : undefined)
    if (!number) {
      throw new SettingsError(
        msg`GitHub Actions runs for a ${oneLine(env['GITHUB_EVENT_NAME'] ?? '')} event whose pull request is unknown (the event file names none, nor does GITHUB_REF): ${TO_PASS}`
      )
    }
    const head = payload.headSha ? [payload.headSha] : []
    const since = runStart(payload.updatedAt, "the pull request's last update")
    return ci.analysis({ pullRequest: number }, [...head, ...ci.commit('GITHUB_SHA')], since)
  }
  return ci.analysis(ci.refScope('GITHUB_REF'), ci.commit('GITHUB_SHA'))
}

// GitLab CI: https://docs.gitlab.com/ci/variables/predefined_variables/ (GITLAB_CI; CI_COMMIT_SHA;
// CI_COMMIT_BRANCH, set in branch pipelines only, not in merge request or tag pipelines;
// CI_MERGE_REQUEST_IID, the number in the merge request's address, which SonarQube keys a merge
// request by; CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, set in merged results pipelines only, where
// CI_COMMIT_SHA is the merge commit they check out and the scanner records; CI_PIPELINE_CREATED_AT,
// the pipeline's creation in ISO 8601, since GitLab 13.10: lib/gitlab/ci/variables/builder/pipeline.rb).
function gitLabCi(env: Env): CiAnalysis | undefined {
  const ci = new CiVariables('GitLab CI', env)
  const commit = ci.commit('CI_COMMIT_SHA')
  if (ci.has('CI_MERGE_REQUEST_IID')) {
    const head = ci.commit('CI_MERGE_REQUEST_SOURCE_BRANCH_SHA')
    const since = runStart(env['CI_PIPELINE_CREATED_AT'], "the pipeline's creation")
    return ci.analysis(
      { pullRequest: ci.number('CI_MERGE_REQUEST_IID') },
      [...head, ...commit],
      since
    )
  }
  return ci.analysis(ci.has('CI_COMMIT_BRANCH') ? ci.branch('CI_COMMIT_BRANCH') : {}, commit)
}

// Azure Pipelines: https://learn.microsoft.com/en-us/azure/devops/pipelines/build/variables
// (TF_BUILD; BUILD_SOURCEVERSION, the commit; BUILD_SOURCEBRANCH, refs/heads/<branch>,
// refs/tags/<tag>, refs/pull/<id>/merge; BUILD_REPOSITORY_PROVIDER; on a pull request
// SYSTEM_PULLREQUEST_PULLREQUESTID, and SYSTEM_PULLREQUEST_PULLREQUESTNUMBER for GitHub's, whose
// id and number differ). SonarSource's extension keys a pull request by PULLREQUESTNUMBER on
// GitHub and GitHub Enterprise, by PULLREQUESTID elsewhere (sonar-scanner-azdo,
// src/common/latest/prepare-task.ts). A pull request build checks out the merge commit; the
// scanner records SYSTEM_PULLREQUEST_SOURCECOMMITID, the head, when set (sonar-scanner-engine,
// org/sonar/scanner/ci/vendors/AzureDevops.java; that variable is not on Microsoft's page): both
// are taken.
function azurePipelines(env: Env): CiAnalysis | undefined {
  const ci = new CiVariables('Azure Pipelines', env)
  const commit = ci.commit('BUILD_SOURCEVERSION')
  if (ci.has('SYSTEM_PULLREQUEST_PULLREQUESTID')) {
    const provider = env['BUILD_REPOSITORY_PROVIDER'] ?? ''
    const github = provider === 'GitHub' || provider === 'GitHubEnterprise'
    const key = github ? 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER' : 'SYSTEM_PULLREQUEST_PULLREQUESTID'
    const head = ci.commit('SYSTEM_PULLREQUEST_SOURCECOMMITID')
    return ci.analysis({ pullRequest: ci.number(key) }, [...head, ...commit])
  }
  if ((env['BUILD_SOURCEBRANCH'] ?? '').startsWith('refs/pull/')) {
    throw new SettingsError(
      msg`Azure Pipelines builds a pull request (BUILD_SOURCEBRANCH is "${oneLine(env['BUILD_SOURCEBRANCH'] ?? '')}") but sets no SYSTEM_PULLREQUEST_PULLREQUESTID: ${TO_PASS}`
    )
  }
  return ci.analysis(ci.refScope('BUILD_SOURCEBRANCH'), commit)
}

// Bitbucket Pipelines: https://support.atlassian.com/bitbucket-cloud/docs/variables-and-secrets/
// (CI; BITBUCKET_COMMIT, the commit that started the build, which the scanner records;
// BITBUCKET_BRANCH, the source branch, not set for tags nor custom pipelines; BITBUCKET_TAG;
// BITBUCKET_PR_ID, on pull request builds only, which SonarQube keys the pull request by).
function bitbucketPipelines(env: Env): CiAnalysis | undefined {
  const ci = new CiVariables('Bitbucket Pipelines', env)
  const commit = ci.commit('BITBUCKET_COMMIT')
  if (ci.has('BITBUCKET_PR_ID')) {
    return ci.analysis({ pullRequest: ci.number('BITBUCKET_PR_ID') }, commit)
  }
  if (ci.has('BITBUCKET_TAG')) return ci.analysis({}, commit)
  return ci.analysis(ci.has('BITBUCKET_BRANCH') ? ci.branch('BITBUCKET_BRANCH') : {}, commit)
}

// CircleCI: https://circleci.com/docs/reference/variables/ (CIRCLECI; CIRCLE_SHA1; CIRCLE_BRANCH;
// CIRCLE_TAG; CIRCLE_PULL_REQUEST, the address of the branch's pull request, one at random when
// several: CIRCLE_PULL_REQUESTS lists them; CIRCLE_PR_NUMBER, on pull requests from forks only).
// SonarQube's scanners do not detect pull requests on CircleCI: the scan's
// sonar.pullrequest.key must be this number, or the analysis is the branch's (give the branch).
function circleCi(env: Env): CiAnalysis | undefined {
  const ci = new CiVariables('CircleCI', env)
  const commit = ci.commit('CIRCLE_SHA1')
  const urls = new Set(
    (env['CIRCLE_PULL_REQUESTS'] ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== '')
  )
  if (urls.size > 1) {
    throw new SettingsError(
      msg`CircleCI names ${urls.size} pull requests of this branch (CIRCLE_PULL_REQUESTS), and picks one at random: ${TO_PASS}`
    )
  }
  if (ci.has('CIRCLE_PR_NUMBER')) {
    return ci.analysis({ pullRequest: ci.number('CIRCLE_PR_NUMBER') }, commit)
  }
  if (ci.has('CIRCLE_PULL_REQUEST')) {
    return ci.analysis({ pullRequest: ci.numberInUrl('CIRCLE_PULL_REQUEST') }, commit)
  }
  if (ci.has('CIRCLE_TAG')) return ci.analysis({}, commit)
  return ci.analysis(ci.has('CIRCLE_BRANCH') ? ci.branch('CIRCLE_BRANCH') : {}, commit)
}

// Jenkins: the list every controller serves at <JENKINS_URL>/pipeline-syntax/globals#env, to
// which https://docs.cloudbees.com/docs/cloudbees-ci/latest/automating-with-jenkinsfile/working-with-the-env
// points (JENKINS_URL, EXECUTOR_NUMBER; for multibranch projects BRANCH_NAME, the tag's name on
// tags, CHANGE_ID, the pull or merge request's number, which SonarQube keys it by, and TAG_NAME,
// as the Branch API plugin sets them: jenkins/branch/BranchNameContributor.java); GIT_COMMIT,
// "SHA-1 of the commit used in this build", from the Git plugin:
// https://github.com/jenkinsci/git-plugin/blob/master/README.adoc#environment-variables (a
// scripted pipeline sets it from checkout's result). With the merge strategy, GIT_COMMIT is
// Jenkins' own merge of the target into the pull request, which no scan records (SonarQube's
// scanner records the pull request's head): then the commit setting gives the head.
function jenkins(env: Env): CiAnalysis | undefined {
  const ci = new CiVariables('Jenkins', env)
  const commit = ci.commit('GIT_COMMIT')
  if (ci.has('CHANGE_ID')) return ci.analysis({ pullRequest: ci.number('CHANGE_ID') }, commit)
  if (ci.has('TAG_NAME')) return ci.analysis({}, commit)
  return ci.analysis(ci.has('BRANCH_NAME') ? ci.branch('BRANCH_NAME') : {}, commit)
}

/**
 * The commit a CI builds whose run scope is not read (no branch or pull request is taken from
 * it), for a decoration that goes on a commit: Bamboo's, found as SonarQube's scanner finds it
 * (sonar-scanner-engine, org/sonar/scanner/ci/vendors/Bamboo.java: bamboo_buildNumber, the commit
 * in bamboo_planRepository_revision; Bamboo's variables reach a script as bamboo_<name>), and
 * TeamCity's BUILD_VCS_NUMBER (TEAMCITY_VERSION; set when the build has one VCS root). Only a full
 * SHA is taken.
 *
 * @example builtCommit({ bamboo_buildNumber: '7', bamboo_planRepository_revision: sha }) // sha
 */
export function builtCommit(env: Env): string | undefined {
  let commit: string | undefined
  if (env['bamboo_buildNumber']) commit = env['bamboo_planRepository_revision']
  else if (env['TEAMCITY_VERSION']) commit = env['BUILD_VCS_NUMBER']
  const sha = commit?.toLowerCase()
  return sha && isFullSha(sha) ? sha : undefined
}

/** What to do when the CI's facts cannot be taken, in the command's words. */
const TO_PASS = msg`pass ${setting('pullRequest')} or ${setting('branch')}, and ${setting('commit')}, to say which analysis to check.`

type Scope = { branch?: string; pullRequest?: string }

/** One CI's variables, each read as the fact it should be, or refused by name. */
class CiVariables {
  /** The variables read for a commit, for a message that names them. */
  private readonly commitVariables: string[] = []

  constructor(
    readonly from: string,
    private readonly env: Env
  ) {}

  has(name: string): boolean {
    return (this.env[name] ?? '') !== ''
  }

  /** The variable's commit, lower-cased, when set: a full SHA, or refused. */
  commit(name: string): string[] {
    this.commitVariables.push(name)
    const value = this.env[name] ?? ''
    if (value === '') return []
    const sha = value.toLowerCase()
    if (!isFullSha(sha)) this.refuse(name, value, 'not a full commit SHA')
    return [sha]
  }

  /** The variable's branch: a name the server keys (at most 255 characters, no control character). */
  branch(name: string, value = this.env[name] ?? ''): Scope {
    if (!isBranchName(value)) {
      this.refuse(
        name,
        value,
        `no branch name (at most ${MAX_BRANCH_LENGTH} characters, no control characters)`
      )
    }
    return { branch: value }
  }

  /** A ref's branch (refs/heads/…); no branch for any other ref (a tag's). */
  refScope(name: string): Scope {
    const ref = this.env[name] ?? ''
    return ref.startsWith('refs/heads/') ? this.branch(name, ref.slice('refs/heads/'.length)) : {}
  }

  /** The variable's pull-request number. */
  number(name: string): string {
    const value = this.env[name] ?? ''
    if (!NUMBER.test(value)) this.refuse(name, value, 'not a pull request number')
    return value
  }

  /** The number a pull request's address ends with (…/pull/12, …/pull-requests/12). */
  numberInUrl(name: string): string {
    const value = this.env[name] ?? ''
    const number = /^https?:\/\/[^\s]+\/(?:pull|pull-requests|merge_requests)\/([0-9]+)\/?$/.exec(
      value
    )?.[1]
    if (!number || !NUMBER.test(number)) {
      this.refuse(name, value, "not a pull request's address")
    }
    return number
  }

  /**
   * The analysis the scope and commits make, the commits once each. A branch or pull request
   * without its commit would be the newest analysis, maybe the previous one's: refused. Nothing
   * at all: nothing taken.
   */
  analysis(scope: Scope, commits: string[], since?: RunStart): CiAnalysis | undefined {
    const unique = [...new Set(commits)]
    if (unique.length === 0) {
      if (scope.branch === undefined && scope.pullRequest === undefined) return undefined
      const what = scope.pullRequest === undefined ? 'branch' : 'pull request'
      const unset = this.commitVariables.join(' nor ')
      throw new SettingsError(
        msg`${this.from} names the ${what} but not its commit (${unset} is not set), so the newest analysis could be an earlier commit's: pass ${setting('commit')} with the commit the scan analysed.`
      )
    }
    return {
      ...scope,
      commits: unique,
      ...(since && scope.pullRequest !== undefined ? { since } : {}),
      from: this.from
    }
  }

  private refuse(name: string, value: string, problem: string): never {
    throw new SettingsError(
      msg`${this.from} sets ${name} to "${oneLine(value)}", which is ${problem}: ${TO_PASS}`
    )
  }
}
