import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { builtCommit, ciAnalysis, withTheCisAnalysis } from '../../src/ci/ci-analysis.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { parseCommandLine } from '../../src/cli/options.js'
import { readCommandSettings } from '../../src/cli/settings.js'
import { SettingsError } from '../../src/errors.js'
import { readSettings } from '../../src/settings.js'
import { inWords } from '../../src/words.js'
import { tempFolder } from '../support/temp-files.js'

const HEAD = 'a'.repeat(40)
const MERGE = 'b'.repeat(40)
const HOST = 'https://sonar.example.com'
const temp = tempFolder('ci-analysis-')
let files = 0

/** The command's settings for --project shop (and `raw`), then the CI's facts applied. */
async function inCi(env: Record<string, string>, raw: Record<string, string> = {}) {
  const log = new RecordingLog()
  const settings = readSettings({ project: 'shop', host: HOST, ...raw })
  const result = await withTheCisAnalysis(settings, env, log)
  return { settings: result, lines: log.lines.map(({ text }) => text) }
}

/** The message of the SettingsError the CI's facts make, in the command's words. */
async function refusal(env: Record<string, string>): Promise<string> {
  const error: unknown = await ciAnalysis(env).then(
    () => undefined,
    (thrown: unknown) => thrown
  )
  expect(error).toBeInstanceOf(SettingsError)
  return inWords((error as SettingsError).said, COMMAND_NAMES)
}

async function eventFile(payload: unknown): Promise<string> {
  const file = temp.file(`event-${files++}.json`)
  await writeFile(file, JSON.stringify(payload))
  return file
}

describe('GitLab CI', () => {
  const gitlab = { GITLAB_CI: 'true', CI: 'true' }

  it('merge request pipeline: the merge request and CI_COMMIT_SHA, said in one line', async () => {
    const { settings, lines } = await inCi({
      ...gitlab,
      CI_MERGE_REQUEST_IID: '42',
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '',
      CI_COMMIT_SHA: 'abc1234' + 'f'.repeat(33),
      CI_COMMIT_REF_NAME: 'feature/login'
    })
    expect(settings).toMatchObject({
      pullRequest: '42',
      branch: undefined,
      commits: ['abc1234' + 'f'.repeat(33)]
    })
    expect(lines).toEqual(['Checking the newest analysis on merge request 42, as GitLab CI says.'])
  })

  it('merged results pipeline: the source branch head, or the merge commit checked out', async () => {
    const { settings, lines } = await inCi({
      ...gitlab,
      CI_MERGE_REQUEST_IID: '42',
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD,
      CI_COMMIT_SHA: MERGE
    })
    expect(settings).toMatchObject({ pullRequest: '42', commits: [HEAD, MERGE] })
    expect(lines).toEqual(['Checking the newest analysis on merge request 42, as GitLab CI says.'])
  })

  it("the pipeline's creation (CI_PIPELINE_CREATED_AT, ISO 8601): the merge request's analysis is one made after it", async () => {
    const { settings, lines } = await inCi({
      ...gitlab,
      CI_MERGE_REQUEST_IID: '42',
      CI_COMMIT_SHA: MERGE,
      CI_PIPELINE_CREATED_AT: '2026-11-24T10:00:03+01:00'
    })
    expect(settings.since).toEqual({
      at: Date.parse('2026-11-24T09:00:03Z'),
      what: "the pipeline's creation"
    })
    expect(lines).toEqual([
      "Checking the newest analysis on merge request 42 made after the pipeline's creation, as GitLab CI says."
    ])
    for (const bad of ['yesterday', '2026-11-24', '2026-11-24T10:00:03+01:00\n::error::x']) {
      const other = await inCi({
        ...gitlab,
        CI_MERGE_REQUEST_IID: '42',
        CI_COMMIT_SHA: MERGE,
        CI_PIPELINE_CREATED_AT: bad
      })
      expect(other.settings.since).toBeUndefined()
    }
    // A branch's analysis is found by its commit: no time is taken.
    const branch = await inCi({
      ...gitlab,
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_SHA: MERGE,
      CI_PIPELINE_CREATED_AT: '2026-11-24T10:00:03+01:00'
    })
    expect(branch.settings.since).toBeUndefined()
  })

  it('branch pipeline: CI_COMMIT_BRANCH and its commit', async () => {
    const { settings, lines } = await inCi({
      ...gitlab,
      CI_COMMIT_BRANCH: 'release/2.4',
      CI_COMMIT_SHA: HEAD
    })
    expect(settings).toMatchObject({
      branch: 'release/2.4',
      pullRequest: undefined,
      commits: [HEAD]
    })
    expect(lines).toEqual([
      'Checking the analysis of aaaaaaa on branch release/2.4, as GitLab CI says.'
    ])
  })

  it('tag pipeline: no branch, the tagged commit', async () => {
    const { settings } = await inCi({ ...gitlab, CI_COMMIT_TAG: 'v2.4.0', CI_COMMIT_SHA: HEAD })
    expect(settings).toMatchObject({ branch: undefined, pullRequest: undefined, commits: [HEAD] })
  })
})

describe('Azure Pipelines', () => {
  const azure = { TF_BUILD: 'True', BUILD_SOURCEVERSION: MERGE }

  it('branch build: the branch of BUILD_SOURCEBRANCH (refs/heads/…)', async () => {
    const { settings, lines } = await inCi({
      ...azure,
      BUILD_SOURCEBRANCH: 'refs/heads/feature/tools',
      BUILD_SOURCEBRANCHNAME: 'tools'
    })
    expect(settings).toMatchObject({ branch: 'feature/tools', commits: [MERGE] })
    expect(lines).toEqual([
      'Checking the analysis of bbbbbbb on branch feature/tools, as Azure Pipelines says.'
    ])
  })

  it('Azure Repos pull request: keyed by PULLREQUESTID; its head, or the merge commit', async () => {
    const { settings } = await inCi({
      ...azure,
      BUILD_REPOSITORY_PROVIDER: 'TfsGit',
      BUILD_SOURCEBRANCH: 'refs/pull/17/merge',
      SYSTEM_PULLREQUEST_PULLREQUESTID: '17',
      SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD
    })
    expect(settings).toMatchObject({ pullRequest: '17', branch: undefined, commits: [HEAD, MERGE] })
  })

  it("GitHub pull request: keyed by its number, not Azure's id", async () => {
    const { settings } = await inCi({
      ...azure,
      BUILD_REPOSITORY_PROVIDER: 'GitHub',
      BUILD_SOURCEBRANCH: 'refs/pull/42/merge',
      SYSTEM_PULLREQUEST_PULLREQUESTID: '1234567890',
      SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '42'
    })
    expect(settings).toMatchObject({ pullRequest: '42', commits: [MERGE] })
  })

  it('GitHub pull request without its number: refused, not keyed by the id', async () => {
    const message = await refusal({
      ...azure,
      BUILD_REPOSITORY_PROVIDER: 'GitHubEnterprise',
      SYSTEM_PULLREQUEST_PULLREQUESTID: '1234567890'
    })
    expect(message).toContain('SYSTEM_PULLREQUEST_PULLREQUESTNUMBER')
    expect(message).toContain('--pull-request')
  })

  it('a pull request build that names no pull request: refused', async () => {
    const message = await refusal({ ...azure, BUILD_SOURCEBRANCH: 'refs/pull/42/merge' })
    expect(message).toContain('--pull-request')
  })

  it('tag build: no branch', async () => {
    const { settings } = await inCi({ ...azure, BUILD_SOURCEBRANCH: 'refs/tags/v2.4.0' })
    expect(settings).toMatchObject({ branch: undefined, pullRequest: undefined, commits: [MERGE] })
  })
})

describe('Jenkins', () => {
  const jenkins = { JENKINS_URL: 'https://ci.example.com/', EXECUTOR_NUMBER: '0', GIT_COMMIT: HEAD }

  it('multibranch branch: BRANCH_NAME and GIT_COMMIT', async () => {
    const { settings, lines } = await inCi({ ...jenkins, BRANCH_NAME: 'main' })
    expect(settings).toMatchObject({ branch: 'main', commits: [HEAD] })
    expect(lines).toEqual(['Checking the analysis of aaaaaaa on branch main, as Jenkins says.'])
  })

  it('multibranch pull request: CHANGE_ID, not the arbitrary BRANCH_NAME', async () => {
    const { settings, lines } = await inCi({
      ...jenkins,
      BRANCH_NAME: 'PR-7',
      CHANGE_ID: '7',
      CHANGE_TARGET: 'main'
    })
    expect(settings).toMatchObject({ pullRequest: '7', branch: undefined, commits: [HEAD] })
    expect(lines).toEqual(['Checking the newest analysis on pull request 7, as Jenkins says.'])
  })

  it("multibranch tag: BRANCH_NAME is the tag's name, not a branch", async () => {
    const { settings } = await inCi({ ...jenkins, BRANCH_NAME: 'v2.4.0', TAG_NAME: 'v2.4.0' })
    expect(settings).toMatchObject({ branch: undefined, commits: [HEAD] })
  })

  it('a pull request without GIT_COMMIT (a scripted pipeline): refused, not the newest', async () => {
    const message = await refusal({ ...jenkins, GIT_COMMIT: '', CHANGE_ID: '7' })
    expect(message).toBe(
      "Jenkins names the pull request but not its commit (GIT_COMMIT is not set), so the newest analysis could be an earlier commit's: pass --commit with the commit the scan analysed."
    )
  })

  it('a job that names neither a commit nor a branch: nothing taken', async () => {
    expect(await ciAnalysis({ JENKINS_URL: 'https://ci.example.com/', EXECUTOR_NUMBER: '1' })).toBe(
      undefined
    )
  })

  it('JENKINS_URL alone is not Jenkins', async () => {
    expect(await ciAnalysis({ JENKINS_URL: 'https://ci.example.com/', GIT_COMMIT: HEAD })).toBe(
      undefined
    )
  })
})

describe('Bitbucket Pipelines', () => {
  const bitbucket = { CI: 'true', BITBUCKET_COMMIT: HEAD, BITBUCKET_BUILD_NUMBER: '12' }

  it('branch: BITBUCKET_BRANCH and BITBUCKET_COMMIT', async () => {
    const { settings } = await inCi({ ...bitbucket, BITBUCKET_BRANCH: 'feature/x' })
    expect(settings).toMatchObject({ branch: 'feature/x', commits: [HEAD] })
  })

  it('pull request: BITBUCKET_PR_ID', async () => {
    const { settings, lines } = await inCi({
      ...bitbucket,
      BITBUCKET_BRANCH: 'feature/x',
      BITBUCKET_PR_ID: '12'
    })
    expect(settings).toMatchObject({ pullRequest: '12', branch: undefined, commits: [HEAD] })
    expect(lines).toEqual([
      'Checking the newest analysis on pull request 12, as Bitbucket Pipelines says.'
    ])
  })

  it('tag: no branch', async () => {
    const { settings } = await inCi({ ...bitbucket, BITBUCKET_TAG: 'v2.4.0' })
    expect(settings).toMatchObject({ branch: undefined, commits: [HEAD] })
  })
})

describe('CircleCI', () => {
  const circle = { CI: 'true', CIRCLECI: 'true', CIRCLE_SHA1: HEAD, CIRCLE_BRANCH: 'feature/x' }

  it('branch: CIRCLE_BRANCH and CIRCLE_SHA1', async () => {
    const { settings } = await inCi(circle)
    expect(settings).toMatchObject({ branch: 'feature/x', pullRequest: undefined, commits: [HEAD] })
  })

  it("pull request: the number CIRCLE_PULL_REQUEST's address ends with", async () => {
    const url = 'https://github.com/octo/shop/pull/42'
    const { settings } = await inCi({
      ...circle,
      CIRCLE_PULL_REQUEST: url,
      CIRCLE_PULL_REQUESTS: url
    })
    expect(settings).toMatchObject({ pullRequest: '42', branch: undefined, commits: [HEAD] })
  })

  it('pull request from a fork: CIRCLE_PR_NUMBER', async () => {
    const { settings } = await inCi({
      ...circle,
      CIRCLE_BRANCH: 'pull/42',
      CIRCLE_PR_NUMBER: '42',
      CIRCLE_PULL_REQUEST: 'https://github.com/octo/shop/pull/42'
    })
    expect(settings).toMatchObject({ pullRequest: '42', commits: [HEAD] })
  })

  it('several pull requests of the branch: refused, CircleCI picks one at random', async () => {
    const message = await refusal({
      ...circle,
      CIRCLE_PULL_REQUEST: 'https://github.com/octo/shop/pull/42',
      CIRCLE_PULL_REQUESTS:
        'https://github.com/octo/shop/pull/42,https://github.com/octo/shop/pull/43'
    })
    expect(message).toContain('CIRCLE_PULL_REQUESTS')
  })

  it('tag: no branch', async () => {
    const { settings } = await inCi({ ...circle, CIRCLE_BRANCH: '', CIRCLE_TAG: 'v2.4.0' })
    expect(settings).toMatchObject({ branch: undefined, commits: [HEAD] })
  })
})

describe('GitHub Actions, when the command runs there', () => {
  const github = { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_SHA: MERGE }

  it('push: the branch of GITHUB_REF and GITHUB_SHA', async () => {
    const { settings, lines } = await inCi({
      ...github,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main'
    })
    expect(settings).toMatchObject({ branch: 'main', commits: [MERGE] })
    expect(lines).toEqual([
      'Checking the analysis of bbbbbbb on branch main, as GitHub Actions says.'
    ])
  })

  it('pull_request: its number, and its head (from the event file) or the merge commit', async () => {
    const { settings } = await inCi({
      ...github,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REF: 'refs/pull/42/merge',
      GITHUB_EVENT_PATH: await eventFile({ pull_request: { number: 42, head: { sha: HEAD } } })
    })
    expect(settings).toMatchObject({ pullRequest: '42', branch: undefined, commits: [HEAD, MERGE] })
  })

  it('pull_request without a readable event file: the number of GITHUB_REF, the merge commit', async () => {
    const { settings } = await inCi({
      ...github,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REF: 'refs/pull/42/merge',
      GITHUB_EVENT_PATH: temp.file('missing.json')
    })
    expect(settings).toMatchObject({ pullRequest: '42', commits: [MERGE] })
  })

  it("pull_request_target: GITHUB_REF is the base branch's, the event file names the pull request", async () => {
    const { settings } = await inCi({
      ...github,
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_EVENT_PATH: await eventFile({ pull_request: { number: 42, head: { sha: HEAD } } })
    })
    expect(settings).toMatchObject({ pullRequest: '42', branch: undefined, commits: [HEAD, MERGE] })
  })

  it('a pull request event whose pull request is unknown: refused', async () => {
    const message = await refusal({
      ...github,
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_EVENT_PATH: await eventFile({ pull_request: { number: 'forty-two' } })
    })
    expect(message).toContain('--pull-request')
  })

  it('tag push: no branch', async () => {
    const { settings } = await inCi({
      ...github,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/tags/v2.4.0'
    })
    expect(settings).toMatchObject({ branch: undefined, commits: [MERGE] })
  })
})

describe('an option given wins', () => {
  const gitlab = {
    GITLAB_CI: 'true',
    CI_MERGE_REQUEST_IID: '42',
    CI_COMMIT_SHA: MERGE
  }

  it.each([
    ['--branch', { branch: 'main' }, { branch: 'main', pullRequest: undefined, commits: [] }],
    ['--pull-request', { pullRequest: '7' }, { branch: undefined, pullRequest: '7', commits: [] }],
    ['--commit', { commit: HEAD }, { branch: undefined, pullRequest: undefined, commits: [HEAD] }]
  ])('%s: nothing is taken from the CI, the commit included', async (_, raw, expected) => {
    const { settings, lines } = await inCi(gitlab, raw)
    expect(settings).toMatchObject(expected)
    expect(lines).toEqual([])
  })

  it('without --project nothing is read from the CI', async () => {
    const log = new RecordingLog()
    const settings = readSettings({ reportFile: '.scannerwork/report-task.txt' })
    expect(await withTheCisAnalysis(settings, gitlab, log)).toBe(settings)
    expect(log.lines).toEqual([])
  })

  it("through the command line: --project alone takes the CI's, --branch keeps its own", async () => {
    const read = (argv: string[]) =>
      readCommandSettings(
        parseCommandLine(['--project', 'shop', '--host', HOST, ...argv]) as Extract<
          ReturnType<typeof parseCommandLine>,
          { kind: 'check' }
        >,
        gitlab,
        process.cwd(),
        new RecordingLog()
      )
    expect(await read([])).toMatchObject({ pullRequest: '42', commits: [MERGE] })
    expect(await read(['--branch', 'main'])).toMatchObject({
      branch: 'main',
      pullRequest: undefined,
      commits: []
    })
  })
})

describe('--commit without --project: the run’s commit, not the analysis’s', () => {
  it('in a merge-request pipeline with a report file: no scope taken, the analysis the report file’s', async () => {
    const log = new RecordingLog()
    const line = parseCommandLine([
      '--report',
      'build/report-task.txt',
      '--decorate',
      '--commit',
      HEAD
    ]) as Extract<ReturnType<typeof parseCommandLine>, { kind: 'check' }>
    const env = { GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '42', CI_COMMIT_SHA: MERGE }
    const settings = await readCommandSettings(line, env, process.cwd(), log)
    expect(settings).toMatchObject({
      reportFiles: ['build/report-task.txt'],
      projectKeys: [],
      branch: undefined,
      pullRequest: undefined,
      commits: [],
      runCommit: HEAD
    })
    expect(log.lines).toEqual([])
  })

  it('with --project: the commit whose analysis is checked, and no run commit beside it', async () => {
    const line = parseCommandLine([
      '--project',
      'shop',
      '--host',
      HOST,
      '--commit',
      HEAD
    ]) as Extract<ReturnType<typeof parseCommandLine>, { kind: 'check' }>
    const settings = await readCommandSettings(line, {}, process.cwd(), new RecordingLog())
    expect(settings).toMatchObject({ commits: [HEAD] })
    expect(settings.runCommit).toBeUndefined()
  })
})

describe('hostile values are refused, never taken', () => {
  const gitlab = { GITLAB_CI: 'true', CI_COMMIT_SHA: HEAD }

  it.each([
    ['an abbreviated commit', { CI_COMMIT_SHA: 'abc1234' }],
    ['a commit that is no SHA', { CI_COMMIT_SHA: 'g'.repeat(40) }],
    ['a commit with a line break', { CI_COMMIT_SHA: `${HEAD}\n` }],
    ['a branch with an escape sequence', { CI_COMMIT_BRANCH: 'main\u001b[2J' }],
    ['a branch with a bidi override', { CI_COMMIT_BRANCH: 'main\u202egnp.exe' }],
    ['a branch longer than the server keys', { CI_COMMIT_BRANCH: 'b'.repeat(256) }],
    ['a merge request id with a command', { CI_MERGE_REQUEST_IID: '42; rm -rf /' }],
    ['a merge request id in hexadecimal', { CI_MERGE_REQUEST_IID: '0x2a' }],
    ['a negative merge request id', { CI_MERGE_REQUEST_IID: '-1' }],
    ['a merge request id of zero', { CI_MERGE_REQUEST_IID: '0' }]
  ])('%s', async (_, values) => {
    const message = await refusal({ ...gitlab, ...values })
    expect(message).toMatch(/^GitLab CI sets [A-Z_]+ to "/)
    // The value is quoted as one visible line: no control or format character reaches the log.
    expect(message).not.toMatch(/[\p{Cc}\p{Cf}]/u)
  })

  it('a long branch is quoted cut short', async () => {
    const message = await refusal({ ...gitlab, CI_COMMIT_BRANCH: 'b'.repeat(100_000) })
    expect(message.length).toBeLessThan(600)
  })

  it("a pull request's address that is not one", async () => {
    const message = await refusal({
      CIRCLECI: 'true',
      CIRCLE_SHA1: HEAD,
      CIRCLE_PULL_REQUEST: 'javascript:alert(1)//pull/42'
    })
    expect(message).toContain('CIRCLE_PULL_REQUEST')
  })

  it("a GitHub event file's head that is no SHA is left out", async () => {
    const analysis = await ciAnalysis({
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REF: 'refs/pull/42/merge',
      GITHUB_SHA: MERGE,
      GITHUB_EVENT_PATH: await eventFile({
        pull_request: { number: 42, head: { sha: 'HEAD~1; echo pwned' } }
      })
    })
    expect(analysis).toEqual({ pullRequest: '42', commits: [MERGE], from: 'GitHub Actions' })
  })

  it('an upper-case SHA is taken lower-cased', async () => {
    const analysis = await ciAnalysis({ ...gitlab, CI_COMMIT_SHA: 'ABCDEF'.repeat(6) + 'ABCD' })
    expect(analysis).toEqual({ commits: ['abcdef'.repeat(6) + 'abcd'], from: 'GitLab CI' })
  })
})

describe('Bamboo and TeamCity: the commit built, for a decoration; no run scope', () => {
  const bamboo = { bamboo_buildNumber: '41', bamboo_planRepository_revision: HEAD.toUpperCase() }

  it("Bamboo's bamboo_planRepository_revision, as SonarQube's scanner reads it", async () => {
    expect(builtCommit(bamboo)).toBe(HEAD)
    // Nothing of the run's scope is taken: the newest analysis, as without a CI.
    expect(await ciAnalysis(bamboo)).toBe(undefined)
  })

  it("TeamCity's BUILD_VCS_NUMBER", () => {
    expect(
      builtCommit({ TEAMCITY_VERSION: '2025.07 (build 197242)', BUILD_VCS_NUMBER: HEAD })
    ).toBe(HEAD)
  })

  it('only a full SHA, and only in the CI that sets it', () => {
    expect(builtCommit({ ...bamboo, bamboo_planRepository_revision: 'aaaaaaa' })).toBe(undefined)
    expect(builtCommit({ TEAMCITY_VERSION: '2025.07', BUILD_VCS_NUMBER: '1234' })).toBe(undefined)
    expect(builtCommit({ bamboo_planRepository_revision: HEAD, BUILD_VCS_NUMBER: HEAD })).toBe(
      undefined
    )
  })
})

describe('no CI', () => {
  it('nothing is taken: the newest analysis of the main branch, no line', async () => {
    expect(await ciAnalysis({})).toBe(undefined)
    const { settings, lines } = await inCi({ CI: 'true', HOME: '/home/user' })
    expect(settings).toMatchObject({ branch: undefined, pullRequest: undefined, commits: [] })
    expect(lines).toEqual([])
  })

  it("a CI's name in another's variable is not that CI", async () => {
    expect(await ciAnalysis({ GITLAB_CI: 'false', TF_BUILD: '', CIRCLECI: '1' })).toBe(undefined)
  })
})
