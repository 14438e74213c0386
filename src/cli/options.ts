import { DECORATION_ALLOWANCE_MS } from '../deadline.js'
import { parseArgs } from 'node:util'
import { ExplainedError, asError } from '../errors.js'
import { DEFAULT_REPORT_LOCATIONS } from '../report-file.js'
import { DEFAULTS, isFullSha, type RawSettings } from '../settings.js'
import { SEVERITY_ORDER, type Severity } from '../findings/finding.js'
import { COMMENT_WHEN, type CommentWhen } from '../report/comment-settings.js'
import { COMMAND } from './version.js'
import { idProblem } from '../identifier.js'
import { oneLine } from '../untrusted-text.js'

export { COMMAND }

/** A mistake on the command line: its message says what is wrong; the exit code is 2. */
export class UsageError extends ExplainedError {
  static readonly code = 'ERR_USAGE'
  declare readonly code: typeof UsageError.code

  constructor(message: string, options?: ErrorOptions) {
    super(UsageError.code, message, options)
  }
}

/** The result files' options, in the order they are written (see writeResultFiles). */
export const RESULT_FILES = ['json', 'junit', 'markdown', 'sarif', 'codequality'] as const

/** Where the command writes what it found besides its log, by option; `-` is standard output. */
export type ResultFiles = Record<(typeof RESULT_FILES)[number], string | undefined>

/** What the command line asks for. */
type CommandLine = { kind: 'help' } | { kind: 'version' } | CheckLine

/** A check, as the command line asks for it. */
export interface CheckLine {
  kind: 'check'
  /**
   * The settings' text as the options give it (see commandSettings): the lines of --report and
   * --project, --fail-on's statuses comma-separated, and --pull-request and --commit only when
   * they choose the analysis.
   */
  settings: RawSettings
  /** Project keys, one per --project. */
  projects: string[]
  /**
   * --commit: with --project, the commit whose analysis to check (checked with the
   * settings); without, the commit --decorate decorates (a full SHA, lower case), which wins
   * over the CI's. Either way the decoration's commit.
   */
  commit: string | undefined
  rootCertFile: string | undefined
  files: ResultFiles
  /** Decorate the platform the run names: statuses, and the review's comment (decoration.ts). */
  decorate: boolean
  /** When the note is written (with --decorate). */
  commentWhen: CommentWhen
  /** At most this many discussions on the diff a run (with --decorate). */
  inlineLimit: number
  /** The least severe issue that gets a discussion (with --decorate). */
  inlineSeverity: Severity
  /** Bitbucket Data Center's repository to decorate (with --decorate), when given. */
  bitbucketServer: { url: string; project: string; repository: string } | undefined
  /** The review decorated (with --decorate, without --project: --pull-request's number). */
  review: string | undefined
  /** --all-projects: every project a rule may require a status of (with --decorate). */
  allProjects: string[]
  /** The platform's repository or project and address the options name (with --decorate). */
  platform: PlatformOptions
}

/** --github-repository, --gitlab-url and --gitlab-project, --gitea-url and --gitea-repository. */
interface PlatformOptions {
  githubRepository?: string | undefined
  /** Bitbucket Cloud's workspace/repository. */
  bitbucketRepository?: string | undefined
  /** An Azure DevOps repository's address. */
  azureRepository?: string | undefined
  gitlab?: { url: string | undefined; project: string | undefined } | undefined
  gitea?: { url: string; repository: string } | undefined
}

const OPTIONS = {
  report: { type: 'string', short: 'r', multiple: true },
  host: { type: 'string' },
  'task-id': { type: 'string' },
  'analysis-id': { type: 'string' },
  project: { type: 'string', multiple: true },
  branch: { type: 'string' },
  'pull-request': { type: 'string' },
  commit: { type: 'string' },
  timeout: { type: 'string' },
  'initial-delay': { type: 'string' },
  interval: { type: 'string' },
  'no-fail': { type: 'boolean' },
  'fail-on': { type: 'string', multiple: true },
  'root-cert-file': { type: 'string' },
  json: { type: 'string' },
  junit: { type: 'string' },
  markdown: { type: 'string' },
  sarif: { type: 'string' },
  codequality: { type: 'string' },
  decorate: { type: 'boolean' },
  'comment-when': { type: 'string' },
  'inline-limit': { type: 'string' },
  'inline-severity': { type: 'string' },
  'all-projects': { type: 'string', multiple: true },
  'bitbucket-server': { type: 'string' },
  'bitbucket-project': { type: 'string' },
  'bitbucket-repo': { type: 'string' },
  'github-repository': { type: 'string' },
  'gitlab-url': { type: 'string' },
  'gitlab-project': { type: 'string' },
  'gitea-url': { type: 'string' },
  'gitea-repository': { type: 'string' },
  'bitbucket-repository': { type: 'string' },
  'azure-repository': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' }
} as const

/**
 * The command line, parsed with Node's own `util.parseArgs`: unknown options, positional
 * arguments, a value-taking option given twice or with an empty value, and two result files on
 * standard output are usage errors.
 *
 * @example parseCommandLine(['--report', '*\/.scannerwork/report-task.txt', '--junit', 'gate.xml'])
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
      tokens: true
    })
  } catch (error) {
    throw new UsageError(usageMessage(asError(error)), { cause: error })
  }
  const { values, tokens } = parsed
  const decorate = values.decorate ?? false
  const projects = values.project ?? []
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }

  const seen = new Set<string>()
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = OPTIONS[token.name]
    if (option.type !== 'string') continue
    if (token.value === undefined || token.value.trim() === '') {
      throw new UsageError(`--${token.name} is empty: give it a value, or leave it out.`)
    }
    if (!('multiple' in option) && seen.has(token.name)) {
      throw new UsageError(`--${token.name} is given twice: give it once.`)
    }
    seen.add(token.name)
  }

  const files = resultFiles(values)
  const review = reviewOption(values['pull-request'], projects.length > 0, decorate)
  const platform = platformOptions(values, decorate)
  const commit = commitOption(values.commit, projects.length > 0, decorate)
  return {
    kind: 'check',
    settings: {
      reportFile: (values.report ?? []).join('\n'),
      host: values.host,
      timeout: values.timeout,
      initialDelay: values['initial-delay'],
      interval: values.interval,
      failStep: values['no-fail'] ? 'false' : 'true',
      failingStatuses: (values['fail-on'] ?? []).join(','),
      task: values['task-id'],
      analysis: values['analysis-id'],
      project: projects.join('\n'),
      branch: values.branch,
      // Without --project and with --decorate, --pull-request is the review decorated alone.
      pullRequest: review === undefined ? values['pull-request'] : undefined,
      // Without --project, --commit is the decoration's commit alone: the analysis is the task's.
      commit: projects.length > 0 ? commit : undefined
    },
    projects,
    review,
    platform,
    commit,
    rootCertFile: values['root-cert-file'],
    files,
    decorate,
    commentWhen: oneOf('comment-when', values['comment-when'], decorate, COMMENT_WHEN, 'always'),
    inlineLimit: inlineLimit(values['inline-limit'], decorate),
    inlineSeverity: oneOf(
      'inline-severity',
      values['inline-severity'],
      decorate,
      SEVERITY_ORDER,
      'info'
    ),
    bitbucketServer: bitbucketServer(values, decorate),
    allProjects: allProjects(values['all-projects'], decorate)
  }
}

/** The result files: at most one of them on standard output. */
function resultFiles(values: Partial<ResultFiles>): ResultFiles {
  const files = Object.fromEntries(RESULT_FILES.map((kind) => [kind, values[kind]])) as ResultFiles
  const onStdout = Object.entries(files).filter(([, file]) => file === '-')
  if (onStdout.length > 1) {
    throw new UsageError(
      `${onStdout.map(([name]) => `--${name}`).join(' and ')} both write to standard output (-): give at most one of them -, the others a file.`
    )
  }
  return files
}

/** The most keys --all-projects takes: each not analysed is one request a platform. */
const MAX_ALL_PROJECTS = 100

/** --all-projects: project keys, comma-separated and repeatable, with --decorate. */
function allProjects(values: string[] | undefined, decorate: boolean): string[] {
  if (values === undefined) return []
  withDecorate('all-projects', decorate)
  const keys = [
    ...new Set(values.flatMap((value) => value.split(',').map((key) => key.trim())))
  ].filter((key) => key !== '')
  if (keys.length > MAX_ALL_PROJECTS) {
    throw new UsageError(
      `--all-projects names ${keys.length} projects: give at most ${MAX_ALL_PROJECTS}.`
    )
  }
  for (const key of keys) {
    const problem = idProblem(key)
    if (problem) {
      throw new UsageError(
        `--all-projects names "${oneLine(key, 80)}", which ${problem}: give project keys as the server shows them, separated by commas.`
      )
    }
  }
  return keys
}

/** --bitbucket-server, --bitbucket-project and --bitbucket-repo: all three, with --decorate. */
function bitbucketServer(
  values: { [name: string]: unknown },
  decorate: boolean
): CheckLine['bitbucketServer'] {
  const names = ['bitbucket-server', 'bitbucket-project', 'bitbucket-repo'] as const
  const given = names.filter((name) => typeof values[name] === 'string')
  if (given.length === 0) return undefined
  withDecorate(given[0]!, decorate)
  if (given.length < names.length) {
    throw new UsageError(
      `${given.map((name) => `--${name}`).join(' and ')} ${given.length === 1 ? 'is' : 'are'} given without ${names
        .filter((name) => !given.includes(name))
        .map((name) => `--${name}`)
        .join(' and ')}: Bitbucket Data Center's repository needs all three.`
    )
  }
  return {
    url: String(values['bitbucket-server']).trim(),
    project: String(values['bitbucket-project']).trim(),
    repository: String(values['bitbucket-repo']).trim()
  }
}

/** The options that name a platform's repository or project, each with --decorate. */
function platformOptions(values: { [name: string]: unknown }, decorate: boolean): PlatformOptions {
  const text = (name: string) =>
    typeof values[name] === 'string' ? values[name].trim() : undefined
  for (const name of [
    'github-repository',
    'gitlab-url',
    'gitlab-project',
    'gitea-url',
    'gitea-repository',
    'bitbucket-repository',
    'azure-repository'
  ]) {
    if (text(name) !== undefined) withDecorate(name, decorate)
  }
  const [giteaUrl, giteaRepository] = [text('gitea-url'), text('gitea-repository')]
  if ((giteaUrl === undefined) !== (giteaRepository === undefined)) {
    throw new UsageError(
      `${giteaUrl === undefined ? '--gitea-repository is given without --gitea-url' : '--gitea-url is given without --gitea-repository'}: a Gitea or Forgejo repository needs both (outside Gitea and Forgejo Actions).`
    )
  }
  const gitlab =
    text('gitlab-url') !== undefined || text('gitlab-project') !== undefined
      ? { url: text('gitlab-url'), project: text('gitlab-project') }
      : undefined
  return {
    githubRepository: text('github-repository'),
    bitbucketRepository: text('bitbucket-repository'),
    azureRepository: text('azure-repository'),
    gitlab,
    gitea: giteaUrl && giteaRepository ? { url: giteaUrl, repository: giteaRepository } : undefined
  }
}

/**
 * --pull-request without --project: the pull or merge request --decorate writes to, so only
 * with --decorate (without --decorate the settings refuse it, as ever: it chooses an analysis of
 * a project), and a number.
 */
function reviewOption(
  value: string | undefined,
  project: boolean,
  decorate: boolean
): string | undefined {
  if (value === undefined || project || !decorate) return undefined
  const number = value.trim()
  if (!/^[1-9][0-9]{0,9}$/.test(number)) {
    throw new UsageError(
      `--pull-request "${value.slice(0, 80)}" is not a pull or merge request's number: without --project it names the one review --decorate writes to.`
    )
  }
  return number
}

/**
 * --commit: with --project, as given (the settings check it); without, the commit to decorate,
 * so only with --decorate, and one full SHA: it does not choose the analysis checked (the report
 * file's task, or --task-id or --analysis-id, does).
 */
function commitOption(
  value: string | undefined,
  project: boolean,
  decorate: boolean
): string | undefined {
  if (value === undefined || project) return value
  if (!decorate) {
    throw new UsageError(
      "--commit is given without --project or --decorate: with --project it says which commit's analysis to check; without, which commit --decorate decorates (the analysis checked is the report file's). Give --project, or --decorate, or leave --commit out."
    )
  }
  const sha = value.trim().toLowerCase()
  if (!isFullSha(sha)) {
    throw new UsageError(
      `--commit "${value.slice(0, 80)}" is not one full commit SHA: without --project it names the one commit --decorate decorates (40 hexadecimal characters, as git rev-parse HEAD prints them).`
    )
  }
  return sha
}

/** An option of the decoration given without --decorate: a usage error. */
function withDecorate(option: string, decorate: boolean): void {
  if (!decorate) {
    throw new UsageError(
      `--${option} is given without --decorate: it shapes the decoration, and only --decorate decorates.`
    )
  }
}

/** The most comments on the issues' lines started a run, by default. */
const INLINE_COMMENTS_PER_RUN = 10

/** --inline-limit: a whole number from 0 (no discussions) to 100 (default 10). */
function inlineLimit(value: string | undefined, decorate: boolean): number {
  if (value === undefined) return INLINE_COMMENTS_PER_RUN
  withDecorate('inline-limit', decorate)
  const limit = Number(value.trim())
  if (!/^\d{1,3}$/.test(value.trim()) || limit > 100) {
    throw new UsageError(
      `--inline-limit "${value.slice(0, 40)}" is not a whole number from 0 to 100: the most discussions a run starts on the diff (0: none).`
    )
  }
  return limit
}

/**
 * --comment-when (COMMENT_WHEN, default always) or --inline-severity (the severities, most
 * severe first; default info: every issue): one of its words, in any case, with --decorate.
 */
function oneOf<Word extends string>(
  option: 'comment-when' | 'inline-severity',
  value: string | undefined,
  decorate: boolean,
  words: readonly Word[],
  fallback: Word
): Word {
  if (value === undefined) return fallback
  withDecorate(option, decorate)
  const known = words.find((word) => word === value.trim().toLowerCase())
  if (!known) {
    const purpose =
      option === 'inline-severity' ? ': the least severe issue that gets a discussion' : ''
    throw new UsageError(
      `--${option} "${value.slice(0, 40)}" is not one of ${words.join(', ')}${purpose}.`
    )
  }
  return known
}

/**
 * An option that tries to pass the token (`--token`, `--sonar-token`, `--login`, the scanner's
 * old `sonar.login`, `--password`): the token has no option, it would show in process lists.
 */
const TOKEN_OPTION = /^--?(?:sonar[-._]?)?(?:token|login|password)$/i

/** parseArgs's own message, without its advice for positional arguments. */
function usageMessage(error: Error): string {
  const { code } = error as Error & { code?: string }
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']*)'/.exec(error.message)?.[1] ?? ''
    if (TOKEN_OPTION.test(option)) {
      return `Unknown option ${option}: the token is never an option (it would show in process lists). Set the SONAR_TOKEN environment variable instead, e.g. from your CI's secret store.`
    }
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']*)'/.exec(error.message)?.[1]
    return `Unexpected argument${argument === undefined ? '' : ` "${argument}"`}: every value follows its option (--report ${argument ?? '<path>'} for a report file).`
  }
  return error.message.replace(/\.?$/, '.')
}

/**
 * The settings' text, from the command line. The token, and the host and CA certificate when no
 * option gives them, come from the environment (SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT:
 * see COMMAND_NAMES and withVariables).
 */
export function commandSettings(line: CheckLine, rootCert: string | undefined): RawSettings {
  return { ...line.settings, rootCert }
}

/** The scanners' default locations, one per line under the option's description. */
const DEFAULT_REPORTS = DEFAULT_REPORT_LOCATIONS.map(({ file }) => `${' '.repeat(28)}${file}`).join(
  ',\n'
)

/** `--help`: every option with its default, the environment and the exit codes. */
export const USAGE = `Usage: ${COMMAND} [options]

Waits for a SonarQube or SonarCloud analysis to finish and fails when its quality gate fails,
saying which conditions failed. Run it after the scanner, in the same working directory.

Options:
  -r, --report <path|glob>  the scanner's report-task.txt; repeat it, or use globs (** for any
                            folders; hidden folders are searched), to check several analyses
                            at once (default: the first of
${DEFAULT_REPORTS})
      --host <url>          the server's address; the task address is built from it
                            (default: SONAR_HOST_URL, else the report's serverUrl)
      --task-id <id>        check this analysis task instead of a report file (needs a host)
      --analysis-id <id>    read the gate of this analysis at once, no task (needs a host)
      --project <key>       check this project's analysis instead of a report file: the
                            commit's, waited for until it appears; repeat it for several
                            projects (needs a host)
      --branch <name>       with --project: the branch analysed (default: the CI's branch,
                            else the project's main branch)
      --pull-request <id>   with --project: the pull or merge request analysed (default: the
                            CI's). Without --project, with --decorate: the pull or merge
                            request decorated, instead of the CI's
      --commit <sha>        with --project: the full SHA whose analysis to wait for (default:
                            the CI's commit; none: the newest analysis). Without --project,
                            with --decorate: the commit decorated, instead of the CI's (the
                            analysis checked stays the report file's; a warning when the
                            server records another commit for it)
      --timeout <seconds>   overall time-out, counted from the start (default ${DEFAULTS.timeout})
      --initial-delay <ms>  wait before the first poll (default ${DEFAULTS.initialDelay})
      --interval <ms>       wait between polls (default ${DEFAULTS.interval}, closer together around
                            the end the project's previous analysis predicts; a value given
                            is kept exactly)
      --fail-on <statuses>  the gate statuses that fail (exit 1), comma-separated: ERROR, WARN,
                            NONE (no gate, or a status no server sends); must include ERROR
                            (default ERROR; ERROR,WARN,NONE fails on anything but OK)
      --no-fail             report a failed gate without failing: exit 0 (default: exit 1)
      --root-cert-file <file>
                            PEM file of an extra CA, trusted for this command's requests only
                            (default: the PEM text in SONAR_ROOT_CERT)
      --json <file>         write every analysis's result as JSON (the action's results output,
                            with its new issues)
      --junit <file>        write a JUnit XML report: one testsuite per analysis, one testcase
                            per condition, a failure for each ERROR
      --markdown <file>     write the summary (Markdown with HTML blocks), e.g. for a GitLab
                            merge-request note
      --sarif <file>        write the new issues as SARIF 2.1.0 (GitHub code scanning, Azure
                            DevOps, Jenkins Warnings NG)
      --codequality <file>  write the new issues as GitLab's Code Quality report
                            (artifacts:reports:codequality)
                            (each: - for standard output; default: none)
      --decorate            a status per project and, on a pull or merge request, one
                            comment per project edited in place and the new issues on the
                            changed lines (one review on GitHub and Gitea), or a Code
                            Insights report (Bitbucket): GitLab CI, Bitbucket Pipelines,
                            Azure Pipelines, Gitea and Forgejo Actions are found by their
                            variables; GitHub from Jenkins, CircleCI, Buildkite, Azure
                            Pipelines or GitHub Actions with GITHUB_TOKEN set; elsewhere
                            the options below name the repository. Never changes the
                            verdict or the exit code: a failure is one warning; it ends at
                            most ${DECORATION_ALLOWANCE_MS / 1000} s past --timeout
      --comment-when <when> with --decorate: always (default), failed (no new note while
                            the gate passes) or changed (only when the verdict changed)
      --inline-limit <n>    with --decorate: at most n discussions or threads started on the
                            diff a run, for the most severe new issues (default 10; 0: none)
      --inline-severity <s> with --decorate: the least severe issue that gets one: blocker,
                            high, medium, low or info (default info)
      --all-projects <keys> with --decorate: every project a rule may require a status of,
                            separated by commas; each this run did not analyse gets a
                            passing status that says so (a monorepo's unchanged project)
      --github-repository <owner/name>
                            with --decorate, from any CI: the GitHub repository (the API:
                            GITHUB_API_URL, default api.github.com; token: GITHUB_TOKEN)
      --gitlab-url <url>, --gitlab-project <id or path>
                            with --decorate, from any CI: the GitLab project (token:
                            GITLAB_TOKEN; default: the Jenkins GitLab plugin's variables)
      --gitea-url <url>, --gitea-repository <owner/name>
                            with --decorate, from any CI: the Gitea or Forgejo repository
                            (token: GITEA_TOKEN)
      --bitbucket-repository <workspace/slug>
                            with --decorate, from any CI: the Bitbucket Cloud repository
                            (token: BITBUCKET_TOKEN; default: Jenkins' CHANGE_URL or GIT_URL
                            on bitbucket.org)
      --azure-repository <url>
                            with --decorate, from any CI: the Azure DevOps repository's
                            address (…/<project>/_git/<repository>; default: Jenkins'
                            GIT_URL), with --pull-request (token: AZURE_DEVOPS_TOKEN, a
                            personal access token)
      --bitbucket-server <url>, --bitbucket-project <key>, --bitbucket-repo <slug>
                            with --decorate, from any CI: Bitbucket Data Center's repository
                            (a Code Insights report and a build status on --commit, else
                            the CI's commit; token: BITBUCKET_TOKEN, an HTTP access token)
  -h, --help                show this help and exit
  -v, --version             show the version and exit

Environment:
  SONAR_TOKEN       the token (never an option: it would show in process lists); none for a
                    public project
  SONAR_HOST_URL    the server's address, when --host is not given
  SONAR_ROOT_CERT   PEM text of an extra CA, when --root-cert-file is not given
  GITLAB_TOKEN      with --decorate: a project or group access token with the api scope
                    (sent to CI_API_V4_URL's origin only)
  BITBUCKET_TOKEN   with --decorate in Bitbucket Pipelines: a repository access token
                    (sent to Bitbucket's API only; BITBUCKET_API_URL overrides its address)
  GITHUB_TOKEN      with --decorate for GitHub: a token that may write commit statuses and
                    pull requests (sent to GITHUB_API_URL's origin only)
  GITEA_TOKEN       with --decorate for Gitea or Forgejo: an access token (FORGEJO_TOKEN, or
                    in their Actions GITHUB_TOKEN, when unset)
  AZURE_DEVOPS_TOKEN  with --decorate for Azure DevOps from another CI: a personal access
                    token (Code read & write); in Azure Pipelines, SYSTEM_ACCESSTOKEN
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   honoured; loopback addresses never use a proxy
  NO_COLOR          no colours; FORCE_COLOR=1: colours even when not on a terminal or in CI
                    (by default colours only on a terminal, never with CI set)

Exit codes:
  0  every gate passed (OK, and WARN and NONE unless --fail-on names them), or failed with
     --no-fail
  1  a quality gate failed (ERROR, or a status --fail-on names)
  2  bad usage or settings: an option, the environment, the report file, a result file
  3  no verdict: the server could not be read, the analysis task failed, or the time-out was
     reached

The log goes to standard error; standard output holds only what --help, --version or a
result file given as - writes.
`
