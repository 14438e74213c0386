/**
 * `--decorate` as Azure Pipelines runs it on a pull request: the bundle dist/cli.js against the
 * simulated server, with the pipeline's variables pointing at a loopback Azure DevOps shaped
 * from its REST specification. A failing gate (a failed status, the verdict's thread, a thread
 * per issue in the files the pull request changes, the branch analysis narrowed to those files,
 * as Community Build needs), a re-run after the fix (a succeeded status appended, the thread
 * edited, the issue threads closed), a missing permission, a sign-in page for a token not taken,
 * hostile issue text, and each token kept to its own server.
 */
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  BUILD_SERVICE,
  REVIEWER,
  startFakeAzureDevOps,
  type FakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import {
  sampleIssues,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK, stoppedAfterEach } from '../support/decoration-runs.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsMarkdown } from '../support/summary-as-github.js'

const MERGE_COMMIT = 'a'.repeat(40)

const server = decorationServer()
const checkout = (script: AnalysisScript) => server.checkout(script)

const started = stoppedAfterEach(startFakeAzureDevOps)

async function azureWith(options: Parameters<typeof startFakeAzureDevOps>[0] = {}) {
  // The pull request changes two of the three sample files.
  const fake = await started({
    changed: ['src/app.ts', 'src/db/query.ts'],
    ...options
  })
  return fake
}

describe.each(RUNTIMES)('--decorate in Azure Pipelines, on $runtime', ({ node }) => {
  function decorate(ws: Workspace, fake: FakeAzureDevOps, token = AZURE_TOKEN) {
    return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate', '--inline-limit', '3'], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        SYSTEM_ACCESSTOKEN: token,
        TF_BUILD: 'True',
        SYSTEM_COLLECTIONURI: fake.collection,
        SYSTEM_TEAMPROJECT: AZURE_PROJECT,
        BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
        SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
        BUILD_SOURCEVERSION: MERGE_COMMIT
      },
      killAfterMs: 30_000
    })
  }

  const verdictThread = (fake: FakeAzureDevOps) =>
    fake.threads.find((thread) => thread.properties?.['sonarqube.project'])!
  const issueThreads = (fake: FakeAzureDevOps) =>
    fake.threads.filter((thread) => thread.properties?.['sonarqube.issue'])

  it('a reviewer’s copies of the verdict thread and of an issue thread are never edited nor closed; ours are', async () => {
    const fake = await azureWith()
    const failed = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
      fake
    )
    expect(failed.exitCode).toBe(1)
    // Our first run's threads, made a reviewer's: the same properties, the same words.
    const copy = verdictThread(fake)
    copy.comments[0]!.author = REVIEWER
    const theirs = issueThreads(fake)[0]!
    theirs.comments[0]!.author = REVIEWER
    const copied = copy.comments[0]!.content

    const fixed = await decorate(await checkout(await scenario('done')), fake)
    expect(fixed.exitCode).toBe(0)
    expect(fixed.stderr).toContain('Quality Gate status: OK')
    expect(fixed.stderr).not.toContain('warning')
    expect(copy.comments[0]!.content).toBe(copied)
    const verdicts = fake.threads.filter((thread) => thread.properties?.['sonarqube.project'])
    expect(verdicts.map((thread) => thread.comments[0]!.author)).toEqual([REVIEWER, BUILD_SERVICE])
    expect(renderAsMarkdown(verdicts[1]!.comments[0]!.content).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · demo-project'
    )
    expect(theirs.status).toBe('active')
    expect(
      issueThreads(fake)
        .slice(1)
        .map(({ status }) => status)
    ).toEqual(['closed', 'closed'])
    expect(fixed.stderr).toContain('2 closed (their issues are gone)')
  })

  it('a failing gate, then a re-run after the fix: a status appended, the thread edited, the issue threads closed', async () => {
    const fake = await azureWith()
    const failed = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
      fake
    )
    expect(failed.exitCode).toBe(1)
    expect(fake.statuses).toEqual([
      expect.objectContaining({
        state: 'failed',
        context: { genre: 'sonarqube', name: 'quality-gate/demo-project' }
      })
    ])
    // Community Build: the branch's 18 issues narrowed to the two files the pull request changes.
    expect(failed.stderr).toContain(
      '12 of the 18 new-code issues read are on the lines pull request !42 changes.'
    )
    const thread = renderAsMarkdown(verdictThread(fake).comments[0]!.content)
    expect(thread.of('h3')[0]!.text).toBe('❌ Quality Gate failed · demo-project')
    expect(thread.text).toContain('New issues: 12')
    expect(issueThreads(fake)).toHaveLength(3)
    expect(issueThreads(fake).map(({ threadContext }) => threadContext?.['filePath'])).toEqual(
      expect.arrayContaining(['/src/app.ts'])
    )
    expect(fake.requests.every(({ query }) => query.includes('api-version=7.1'))).toBe(true)

    const fixed = await decorate(await checkout(await scenario('done')), fake)
    expect(fixed.exitCode).toBe(0)
    expect(fake.statuses.map(({ state }) => state)).toEqual(['failed', 'succeeded'])
    expect(fake.threads.filter((t) => t.properties?.['sonarqube.project'])).toHaveLength(1)
    expect(renderAsMarkdown(verdictThread(fake).comments[0]!.content).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · demo-project'
    )
    expect(issueThreads(fake).every(({ status }) => status === 'closed')).toBe(true)
    for (const result of [failed, fixed]) {
      expect(result.stderr).not.toContain(AZURE_TOKEN)
      expect(result.stderr).not.toContain(TOKEN)
    }
    expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
    expect(JSON.stringify(server.simulator.requests)).not.toContain(AZURE_TOKEN)
  })

  it('hostile issue text: the threads inert', async () => {
    const fake = await azureWith()
    const hostile = ['@all look', '[x](https://evil.example) <img src=x>', `token ${TOKEN}`]
    const issues = sampleIssues(3, ['BLOCKER'], 3).map((one, index) => ({
      ...one,
      message: hostile[index]!
    }))
    await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0, issues }),
      fake
    )
    for (const thread of fake.threads) {
      const rendered = renderAsMarkdown(thread.comments[0]!.content)
      expect(mentionsIn(rendered.mentionable)).toEqual([])
      expect(rendered.of('img')).toEqual([])
    }
    expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
  })

  it.each([
    [{ refuse: 403 as const }, 'give it "Contribute to pull requests" on the repository'],
    [{ signInPage: true }, 'SYSTEM_ACCESSTOKEN is not valid (401): map it in the step']
  ])(
    '%j: one warning naming what is missing, the exit code the verdict’s',
    async (options, words) => {
      const fake = await azureWith(options)
      const result = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
        fake
      )
      expect(result.exitCode).toBe(1)
      const warnings = result.stderr
        .split('\n')
        .filter((line) => line.includes('Azure DevOps refused'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(words)
      expect(fake.requests).toHaveLength(1)
    }
  )
})

describe('--decorate for an Azure DevOps pull request built in Jenkins', () => {
  const { node } = RUNTIMES[0]!
  const HEAD = 'b'.repeat(40)

  it('GIT_URL names the repository, --pull-request the pull request; a personal access token in AZURE_DEVOPS_TOKEN: the status and the threads', async () => {
    const fake = await azureWith()
    const run = await timeChild(
      node,
      [CLI_ENTRY, ...QUICK, '--decorate', '--pull-request', AZURE_PULL_REQUEST],
      {
        cwd: (await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 })).cwd,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          SONAR_TOKEN: TOKEN,
          AZURE_DEVOPS_TOKEN: AZURE_TOKEN,
          JENKINS_URL: 'https://jenkins.example.com/',
          EXECUTOR_NUMBER: '1',
          GIT_URL: `${fake.collection}${AZURE_PROJECT}/_git/${AZURE_REPOSITORY}`,
          GIT_COMMIT: HEAD
        },
        killAfterMs: 30_000
      }
    )
    expect(run.exitCode).toBe(1)
    expect(fake.statuses).toEqual([
      expect.objectContaining({
        state: 'failed',
        context: { genre: 'sonarqube', name: 'quality-gate/demo-project' }
      })
    ])
    expect(fake.threads.some((thread) => thread.properties?.['sonarqube.project'])).toBe(true)
    // The token as Basic, its user empty, as Azure DevOps takes a personal access token.
    expect(
      fake.requests.every(
        ({ authorization }) =>
          authorization === `Basic ${Buffer.from(`:${AZURE_TOKEN}`).toString('base64')}`
      )
    ).toBe(true)
    expect(run.stderr).not.toContain(AZURE_TOKEN)
  })
})
