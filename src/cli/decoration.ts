/**
 * `--decorate`: which platform the run writes to, from the options and the CI's variables
 * (src/ci/review-targets.ts), opened with its token and handed to the one driver
 * (src/platforms/decorate.ts). The table below is the one place a platform is named: each row
 * finds its target or says what is missing, and opens its platform. The
 * platform's token goes to its API's origin only and is hidden from the log and from everything
 * written, like the Sonar token, which never goes to a platform. Whatever happens, the verdict
 * and the exit code are the gate's.
 */
import type { Clock } from '../clock.js'
import { builtCommit, ciAnalysis } from '../ci/ci-analysis.js'
import { giteaActions, giteaRepository } from '../ci/gitea-repository.js'
import { githubRepository, namesGitHub } from '../ci/github-repository.js'
import {
  azurePullRequest,
  azureRepository,
  bitbucketPipeline,
  bitbucketRepository,
  decoratedCommit,
  gitlabPipeline,
  gitlabProject,
  namesAzureFromJenkins,
  namesBitbucketFromJenkins,
  namesGitLabFromJenkins,
  type GitLabPipeline
} from '../ci/review-targets.js'
import { httpUrl, variable } from '../ci/variables.js'
import { decorationDeadline } from '../deadline.js'
import { quotedSaidOf } from '../errors.js'
import type { FailPolicy } from '../fail-policy.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import { RestApi } from '../http/rest-api.js'
import { AzureApi } from '../platforms/azure-devops/azure-api.js'
import { azureDevOps } from '../platforms/azure-devops/azure-devops.js'
import { BitbucketApi } from '../platforms/bitbucket-cloud/bitbucket-api.js'
import { bitbucketCloud } from '../platforms/bitbucket-cloud/bitbucket-cloud.js'
import { bitbucketDataCenter as dataCenterPlatform } from '../platforms/bitbucket-data-center/bitbucket-data-center.js'
import { decorate as decoratePlatform, type DecorationOptions } from '../platforms/decorate.js'
import { giteaPlatform } from '../platforms/gitea/gitea.js'
import { GitHubApi } from '../platforms/github/github-api.js'
import { GATE_CHECK_RUN, githubPlatform } from '../platforms/github/github.js'
import { GitLabApi } from '../platforms/gitlab/gitlab-api.js'
import { gitlabPlatform } from '../platforms/gitlab/gitlab.js'
import type { PlatformConnection, ReviewPlatform } from '../platforms/review-platform.js'
import { markdownForms } from '../report/markup.js'
import type { FileLink } from '../report/new-issues-block.js'
import { summaryForms } from '../report/summary-text.js'
import { tokenForms } from '../secrets.js'
import { createSink } from '../sink.js'
import { msg, type Said } from '../words.js'
import { COMMAND_NAMES } from './names.js'
import type { CheckLine } from './options.js'
import type { TerminalLog } from './terminal-log.js'

/**
 * What the command's decoration is given: the options' (the commit decorated on every platform,
 * lower case: decoratedCommit), and the run's.
 */
interface DecorationContext
  extends
    Pick<CheckLine, 'commentWhen' | 'inlineLimit' | 'inlineSeverity'>,
    Partial<Pick<CheckLine, 'commit' | 'bitbucketServer' | 'review' | 'platform'>> {
  env: NodeJS.ProcessEnv
  log: TerminalLog
  /** Every form of the Sonar token: hidden from what is written too. */
  secrets: readonly string[]
  policy: FailPolicy
  clock: Clock
  /** Clock time of the overall time-out; the decoration has its allowance past the check. */
  deadline: number
  userAgent: string
  /** --all-projects: those this run did not analyse get a passing status. */
  allProjects?: readonly string[] | undefined
}

/** A platform found: how to open it, the token's variable, and how its comments are written. */
interface Found {
  token: string | undefined
  /** What to do without a token, in one warning; undefined where none is needed. */
  noToken: string | undefined
  markup: 'html' | 'markdown'
  /** The sink's limit on what is written, in characters. */
  limit?: number
  fileLink?: FileLink | undefined
  open(connection: PlatformConnection): ReviewPlatform
}

/** What is missing, and what to do, said after "nothing is decorated". */
type Missing = { missing: Said; advice?: string }

/** A row of the table: whether the run names this platform, and where it is. */
interface PlatformRow {
  /** Whether the options or the CI name this platform. */
  named(context: DecorationContext): boolean
  find(context: DecorationContext): Promise<Found | Missing>
}

/** The platforms, in the order they are looked for: the options first, then the CI's own. */
const PLATFORMS: readonly PlatformRow[] = [
  { named: (context) => context.bitbucketServer !== undefined, find: bitbucketDataCenter },
  { named: (context) => context.platform?.githubRepository !== undefined, find: github },
  {
    named: (context) => context.platform?.bitbucketRepository !== undefined,
    find: bitbucketFromAnyCi
  },
  { named: (context) => context.platform?.azureRepository !== undefined, find: azureFromAnyCi },
  { named: (context) => context.platform?.gitlab !== undefined, find: gitlabFromAnyCi },
  { named: (context) => context.platform?.gitea !== undefined, find: gitea },
  { named: ({ env }) => giteaActions(env) !== undefined, find: gitea },
  { named: ({ env }) => variable(env, 'CI_API_V4_URL') !== undefined, find: gitlab },
  { named: ({ env }) => variable(env, 'BITBUCKET_REPO_FULL_NAME') !== undefined, find: bitbucket },
  {
    named: ({ env }) =>
      variable(env, 'SYSTEM_COLLECTIONURI') !== undefined &&
      !/^GitHub(Enterprise)?$/.test(variable(env, 'BUILD_REPOSITORY_PROVIDER') ?? ''),
    find: azure
  },
  { named: ({ env }) => namesGitLabFromJenkins(env), find: gitlabFromAnyCi },
  { named: ({ env }) => namesBitbucketFromJenkins(env), find: bitbucketFromAnyCi },
  { named: ({ env }) => namesAzureFromJenkins(env), find: azureFromAnyCi },
  { named: ({ env }) => namesGitHub(env, {}), find: github }
]

/**
 * Decorates the platform the run names with the outcomes; never throws.
 *
 * @example if (line.decorate) await decorate(outcomes, context)
 */
export async function decorate(
  outcomes: readonly AnalysisOutcome[],
  context: DecorationContext
): Promise<void> {
  const { log } = context
  try {
    const row = PLATFORMS.find((platform) => platform.named(context))
    if (!row) {
      log.warning(
        '--decorate: no platform found to decorate; nothing is decorated. GitLab CI, Bitbucket Pipelines and Azure Pipelines are found by their own variables; from any other CI, name the repository: --github-repository (with GITHUB_TOKEN), --gitlab-url and --gitlab-project (with GITLAB_TOKEN), --gitea-url and --gitea-repository (with GITEA_TOKEN), --bitbucket-repository (Bitbucket Cloud, with BITBUCKET_TOKEN), --azure-repository (with AZURE_DEVOPS_TOKEN), or --bitbucket-server (Data Center).'
      )
      return
    }
    const found = await row.find(context)
    if ('missing' in found) {
      const advice = found.advice === undefined ? '' : ` ${found.advice}`
      log.warning(msg`--decorate: ${found.missing}; nothing is decorated.${advice}`)
      return
    }
    if (found.noToken !== undefined && !found.token) {
      log.warning(`--decorate: ${found.noToken}`)
      return
    }
    const forms = found.token ? tokenForms(found.token) : []
    log.hideSecrets(forms)
    const sink = createSink({
      names: COMMAND_NAMES,
      secrets: [...context.secrets, ...forms],
      escapedForms: found.markup === 'html' ? summaryForms : markdownForms,
      ...(found.limit === undefined ? {} : { limit: found.limit, unit: 'characters' as const })
    })
    const platform = found.open({
      token: found.token ?? '',
      userAgent: context.userAgent,
      clock: context.clock,
      deadline: decorationDeadline(context)
    })
    const options: DecorationOptions = {
      sink,
      policy: context.policy,
      commentWhen: context.commentWhen,
      inlineLimit: context.inlineLimit,
      inlineSeverity: context.inlineSeverity,
      fileLink: found.fileLink,
      allProjects: context.allProjects,
      log
    }
    try {
      await decoratePlatform(platform, outcomes, options)
    } finally {
      platform.close()
    }
  } catch (error) {
    // Each platform says its own failures in one warning (`decorating`, src/platforms/decorate.ts);
    // this keeps the promise for anything else: the verdict and the exit code are the gate's.
    log.warning(
      msg`--decorate failed, and nothing more is decorated; the verdict and the exit code are unchanged. ${quotedSaidOf(error)}`
    )
  }
}

/** GitLab CI: a commit status per project, and on a merge request the note and discussions. */
async function gitlab(context: DecorationContext): Promise<Found | Missing> {
  const found = gitlabPipeline(context.env, context.commit)
  if ('missing' in found) {
    const advice =
      'It runs in a GitLab CI job, with a project or group access token (api scope) in GITLAB_TOKEN.'
    return { ...found, advice }
  }
  return gitlabFound(context, found)
}

/** A GitLab project found, with GITLAB_TOKEN. */
function gitlabFound(context: DecorationContext, found: GitLabPipeline): Found {
  return {
    token: variable(context.env, 'GITLAB_TOKEN'),
    noToken:
      'GITLAB_TOKEN is not set; nothing is decorated. Set it to a project or group access token with the api scope, from a masked CI/CD variable (CI_JOB_TOKEN may not write notes or statuses).',
    markup: 'html',
    limit: 1_000_000,
    fileLink: found.pipeline.fileLink,
    open(connection) {
      return gitlabPlatform(new GitLabApi({ ...connection, apiUrl: found.apiUrl }), found.pipeline)
    }
  }
}

/**
 * GitHub from any CI: a commit status per project, and on a pull request the comment and the
 * issues' comments as one review, with the token in GITHUB_TOKEN (a personal access token, or a
 * GitHub App's installation token). With an installation token (`ghs_`, which alone may create
 * check runs), a check run per project stands for its status: the same name, the new issues as
 * its annotations; where the app may not write checks, the status is set.
 */
async function github(context: DecorationContext): Promise<Found | Missing> {
  const found = await githubRepository(
    context.env,
    given(context, { repository: context.platform?.githubRepository })
  )
  if ('missing' in found) return found
  return {
    token: variable(context.env, 'GITHUB_TOKEN'),
    noToken:
      'GITHUB_TOKEN is not set; nothing is decorated. Set it to a token that may write commit statuses and pull requests: a fine-grained personal access token, or a GitHub App installation token.',
    markup: 'html',
    limit: 65_536,
    open(connection) {
      const api = new GitHubApi({ ...connection, apiUrl: found.apiUrl.href.replace(/\/+$/, '') })
      const installation = connection.token.startsWith('ghs_')
      return githubPlatform(api, found, { checkRuns: installation ? GATE_CHECK_RUN : undefined })
    }
  }
}

/**
 * GitLab from any CI (--gitlab-url, --gitlab-project, --pull-request, or the Jenkins GitLab
 * plugin's variables), with GITLAB_TOKEN.
 */
async function gitlabFromAnyCi(context: DecorationContext): Promise<Found | Missing> {
  const found = gitlabProject(context.env, given(context, context.platform?.gitlab))
  return 'missing' in found ? found : gitlabFound(context, found)
}

/**
 * Gitea or Forgejo: from their Actions, or from any CI with --gitea-url and --gitea-repository; a
 * commit status per project, and on a pull request the comment and the issues' comments as one
 * review, with GITEA_TOKEN (FORGEJO_TOKEN, or in their Actions the job's GITHUB_TOKEN).
 */
async function gitea(context: DecorationContext): Promise<Found | Missing> {
  const found = await giteaRepository(
    context.env,
    given(context, context.platform?.gitea),
    await ciCommit(context)
  )
  if ('missing' in found) return found
  return {
    token: found.token,
    noToken: `GITEA_TOKEN is not set; nothing is decorated. Set it to an access token of a user who may write to the repository (scopes write:repository and write:issue).`,
    markup: 'markdown',
    limit: 65_536,
    open(connection) {
      const rest = new RestApi({
        ...connection,
        platform: found.kind,
        apiUrl: found.apiUrl,
        headers: { authorization: `token ${connection.token}` },
        redirectAdvice: `Set the address of ${found.kind}'s API (/api/v1) it answers at.`
      })
      return giteaPlatform(rest, found)
    }
  }
}

/** What the options name of a platform's target, with the review and the commit decorated. */
function given<Target extends object>(context: DecorationContext, target: Target | undefined) {
  return { ...target, pullRequest: context.review, commit: context.commit }
}

/** The commit the CI names, when --commit is not given and a platform has no variable of its own. */
async function ciCommit(context: DecorationContext): Promise<string | undefined> {
  if (context.commit) return undefined
  const scoped = await ciAnalysis(context.env).catch(() => undefined)
  return scoped?.commits[0] ?? builtCommit(context.env)
}

/** Bitbucket Pipelines' proxy for Code Insights, as its documentation names it. */
const PIPELINES_PROXY = 'http://localhost:29418'

/**
 * Bitbucket Pipelines: per project a build status and a report, and on a pull request the
 * comment; without BITBUCKET_TOKEN, the reports alone, through Bitbucket Pipelines' proxy, which
 * signs Code Insights requests for the build (plain http to the API, through localhost:29418;
 * BITBUCKET_PIPELINES_PROXY overrides it).
 */
async function bitbucket(context: DecorationContext): Promise<Found | Missing> {
  const { env } = context
  const found = bitbucketPipeline(env, context.commit)
  if ('missing' in found) return found
  const token = variable(env, 'BITBUCKET_TOKEN')
  const pipelinesProxy = token
    ? undefined
    : httpUrl(variable(env, 'BITBUCKET_PIPELINES_PROXY') ?? PIPELINES_PROXY)
  if (!token && !pipelinesProxy) {
    return { missing: 'BITBUCKET_PIPELINES_PROXY is not an http address' }
  }
  return {
    token,
    noToken: undefined,
    markup: 'markdown',
    limit: 30_000,
    open(connection) {
      const api = new BitbucketApi({
        ...connection,
        token,
        apiUrl: token ? found.apiUrl : new URL(found.apiUrl.href.replace(/^https:/, 'http:')),
        ...(pipelinesProxy ? { pipelinesProxy } : {})
      })
      return bitbucketCloud(api, { ...found.pipeline, reportsOnly: token === undefined })
    }
  }
}

/**
 * Bitbucket Cloud from any CI (--bitbucket-repository, or Jenkins' CHANGE_URL or GIT_URL on
 * bitbucket.org), with BITBUCKET_TOKEN: a build status and a report per project on the commit,
 * and on a pull request the comment. Outside Bitbucket Pipelines there is no proxy to sign for
 * the build: the token is needed.
 */
async function bitbucketFromAnyCi(context: DecorationContext): Promise<Found | Missing> {
  const found = bitbucketRepository(
    context.env,
    given(context, { repository: context.platform?.bitbucketRepository }),
    await ciCommit(context)
  )
  if ('missing' in found) return found
  return {
    token: variable(context.env, 'BITBUCKET_TOKEN'),
    noToken:
      'BITBUCKET_TOKEN is not set; nothing is decorated. Set it to a repository access token with the pull requests write scope (outside Bitbucket Pipelines there is no proxy to sign for the build).',
    markup: 'markdown',
    limit: 30_000,
    open(connection) {
      const api = new BitbucketApi({ ...connection, apiUrl: found.apiUrl })
      return bitbucketCloud(api, { ...found.pipeline, reportsOnly: false })
    }
  }
}

/**
 * Bitbucket Data Center from any CI (--bitbucket-server, --bitbucket-project, --bitbucket-repo):
 * a Code Insights report and a build status per project, on the commit decoratedCommit gives
 * (--commit, else the CI's).
 */
async function bitbucketDataCenter(context: DecorationContext): Promise<Found | Missing> {
  const repository = context.bitbucketServer!
  const server = httpUrl(repository.url)
  if (!server) return { missing: '--bitbucket-server is not an http(s) address' }
  const fromTheCi = await ciCommit(context)
  const commit = decoratedCommit(context, fromTheCi)
  if (!commit || !/^[0-9a-f]{40}$/i.test(commit)) {
    return {
      missing: 'no commit to decorate on Bitbucket Data Center',
      advice:
        'Give --commit, or run in a CI that names it (Jenkins: GIT_COMMIT; Bamboo: bamboo_planRepository_revision; TeamCity: BUILD_VCS_NUMBER).'
    }
  }
  return {
    token: variable(context.env, 'BITBUCKET_TOKEN'),
    noToken:
      'BITBUCKET_TOKEN is not set; nothing is decorated. Set it to an HTTP access token of the repository or its project, with the repository write permission.',
    markup: 'markdown',
    open(connection) {
      const rest = new RestApi({
        ...connection,
        platform: 'Bitbucket',
        apiUrl: new URL('rest/', server.href.replace(/\/*$/, '/')),
        headers: { authorization: `Bearer ${connection.token}` },
        redirectAdvice: 'Set --bitbucket-server to the address the server answers at.'
      })
      return dataCenterPlatform(rest, {
        project: repository.project,
        repository: repository.repository,
        commit
      })
    }
  }
}

/**
 * Azure DevOps from any CI (--azure-repository, or Jenkins' GIT_URL), with --pull-request and a
 * personal access token in AZURE_DEVOPS_TOKEN, sent as Basic: the statuses and threads as from
 * Azure Pipelines.
 */
async function azureFromAnyCi(context: DecorationContext): Promise<Found | Missing> {
  const found = azureRepository(
    context.env,
    given(context, { repository: context.platform?.azureRepository }),
    await ciCommit(context)
  )
  if ('missing' in found) return found
  return {
    token: variable(context.env, 'AZURE_DEVOPS_TOKEN'),
    noToken:
      'AZURE_DEVOPS_TOKEN is not set; nothing is decorated. Set it to a personal access token with the Code (read and write) scope.',
    markup: 'markdown',
    limit: 150_000,
    open(connection) {
      const api = new AzureApi({ ...connection, ...found, scheme: 'Basic' })
      return azureDevOps(api, { pullRequestId: found.pullRequestId, commit: found.commit })
    }
  }
}

/**
 * Azure Pipelines: the pull request's statuses and threads, with the token the step must map
 * (`env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)`).
 */
async function azure(context: DecorationContext): Promise<Found | Missing> {
  const found = azurePullRequest(context.env)
  if ('missing' in found) return found
  return {
    token: variable(context.env, 'SYSTEM_ACCESSTOKEN'),
    noToken:
      'SYSTEM_ACCESSTOKEN is not set; nothing is decorated. Map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)), and give the build service "Contribute to pull requests" on the repository.',
    markup: 'markdown',
    limit: 150_000,
    open(connection) {
      const api = new AzureApi({ ...connection, ...found })
      return azureDevOps(api, {
        pullRequestId: found.pullRequestId,
        commit: decoratedCommit(context, found.commit)
      })
    }
  }
}
