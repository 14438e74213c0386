import type { Names } from '../words.js'

/** How the action introduces itself to the server and to GitHub's API. */
export const USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`

/**
 * The action's words for every setting: its action.yml inputs, and the environment variable an
 * input falls back to. The one place that knows the inputs' names (outside action.yml).
 */
export const ACTION_NAMES: Names = {
  kind: 'Input',
  settings: {
    reportFile: { name: 'scanMetadataReportFile' },
    token: { name: 'sonarToken', variable: 'SONAR_TOKEN' },
    host: { name: 'sonarHostUrl', variable: 'SONAR_HOST_URL' },
    rootCert: { name: 'sonarRootCert', variable: 'SONAR_ROOT_CERT' },
    timeout: { name: 'pollingTimeoutSec' },
    initialDelay: { name: 'initialDelayMs' },
    interval: { name: 'pollingIntervalMs' },
    failStep: { name: 'failOnError' },
    failingStatuses: { name: 'failOn' },
    task: { name: 'taskId' },
    analysis: { name: 'analysisId' },
    project: { name: 'projectKey' },
    branch: { name: 'branch' },
    pullRequest: { name: 'pullRequest' },
    commit: { name: 'commit' },
    comment: { name: 'pullRequestComment' },
    gitHubToken: { name: 'githubToken', variable: 'GITHUB_TOKEN' },
    annotate: { name: 'annotateIssues' },
    checkRun: { name: 'issuesCheckRun' },
    sarif: { name: 'sarifFile' },
    // The decoration of GitLab merge requests is the command's alone.
    inlineLimit: {},
    inlineSeverity: {},
    bitbucketProject: {},
    bitbucketRepo: {},
    githubRepository: {},
    gitlabUrl: {},
    gitlabProject: {},
    giteaUrl: {},
    giteaRepository: {},
    allProjects: {},
    bitbucketRepository: {},
    azureRepository: {}
  },
  places: { details: 'the job summary', self: 'the action' }
}
