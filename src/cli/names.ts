import type { Names } from '../words.js'

/**
 * The command's words for every setting: its options and environment variables. The token has
 * no option (it would show in process lists), so messages name SONAR_TOKEN alone; the settings
 * only the action has are named by their key, and no message of the command's path names them.
 * The one place that knows the options' names besides the option parser and --help.
 */
export const COMMAND_NAMES: Names = {
  kind: 'Option',
  settings: {
    reportFile: { name: '--report' },
    token: { variable: 'SONAR_TOKEN' },
    host: { name: '--host', variable: 'SONAR_HOST_URL' },
    // The certificate's text comes from SONAR_ROOT_CERT, or from the file --root-cert-file names
    // (read and checked before the settings): a message about the text names the variable.
    rootCert: { variable: 'SONAR_ROOT_CERT', also: '--root-cert-file' },
    timeout: { name: '--timeout' },
    initialDelay: { name: '--initial-delay' },
    interval: { name: '--interval' },
    failStep: { name: '--no-fail' },
    failingStatuses: { name: '--fail-on' },
    task: { name: '--task-id' },
    analysis: { name: '--analysis-id' },
    project: { name: '--project' },
    branch: { name: '--branch' },
    pullRequest: { name: '--pull-request' },
    commit: { name: '--commit' },
    comment: { name: '--comment-when' },
    gitHubToken: {},
    annotate: {},
    checkRun: {},
    sarif: { name: '--sarif' },
    inlineLimit: { name: '--inline-limit' },
    inlineSeverity: { name: '--inline-severity' },
    bitbucketProject: { name: '--bitbucket-project' },
    bitbucketRepo: { name: '--bitbucket-repo' },
    githubRepository: { name: '--github-repository' },
    gitlabUrl: { name: '--gitlab-url' },
    gitlabProject: { name: '--gitlab-project' },
    giteaUrl: { name: '--gitea-url' },
    giteaRepository: { name: '--gitea-repository' },
    allProjects: { name: '--all-projects' },
    bitbucketRepository: { name: '--bitbucket-repository' },
    azureRepository: { name: '--azure-repository' }
  },
  // The command writes no job summary: its files hold what the summary would.
  places: { details: 'the --markdown or --json file', self: 'the command' }
}
