/**
 * `--decorate` as Bitbucket Pipelines runs it: the bundle dist/cli.js against the simulated
 * server, with Bitbucket's variables and BITBUCKET_API_URL pointing at a loopback Bitbucket Cloud
 * shaped from its OpenAPI description. A failing gate (failed build status, the report with its
 * annotations, the Markdown comment), a re-run after the fix (the status flipped, the report
 * replaced, the comment edited), a refusal that changes nothing else, hostile issue text, and
 * each token kept to its own server.
 */
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  BITBUCKET_TOKEN,
  COMMIT,
  PULL_REQUEST,
  REPOSITORY,
  SOMEONE,
  startFakeBitbucketCloud,
  TOKEN_BOT,
  TOKEN_USER,
  type FakeBitbucketCloud
} from '../../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import {
  sampleIssues,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK, stoppedAfterEach } from '../support/decoration-runs.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsMarkdown } from '../support/summary-as-github.js'

const server = decorationServer()
const checkout = (script: AnalysisScript) => server.checkout(script)

const started = stoppedAfterEach(startFakeBitbucketCloud)

async function bitbucketWith(options: Parameters<typeof startFakeBitbucketCloud>[0] = {}) {
  return started(options)
}

describe.each(RUNTIMES)('--decorate in Bitbucket Pipelines, on $runtime', ({ node }) => {
  function decorate(ws: Workspace, fake: FakeBitbucketCloud) {
    return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate'], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        BITBUCKET_TOKEN,
        BITBUCKET_API_URL: fake.url,
        BITBUCKET_REPO_FULL_NAME: REPOSITORY,
        BITBUCKET_COMMIT: COMMIT,
        BITBUCKET_PR_ID: PULL_REQUEST,
        BITBUCKET_BRANCH: 'feature/login'
      },
      killAfterMs: 30_000
    })
  }

  it('a failing gate, then a re-run after the fix: the status flipped, the report replaced, the comment edited', async () => {
    // A user's token: GET /user names its account, so its comment is found and edited in place.
    const fake = await bitbucketWith({ account: TOKEN_USER })
    const failed = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
      fake
    )
    expect(failed.exitCode).toBe(1)
    expect([...fake.statuses.values()]).toEqual([
      expect.objectContaining({ state: 'FAILED', name: 'sonarqube/demo-project' })
    ])
    const [report] = [...fake.reports.values()]
    expect(report!.body).toMatchObject({ result: 'FAILED', title: 'SonarQube: demo-project' })
    expect(report!.annotations).toHaveLength(18)
    const comment = renderAsMarkdown(fake.comments[0]!.content.raw)
    expect(comment.of('h3')[0]!.text).toBe('❌ Quality Gate failed · demo-project')
    expect(comment.text).toContain('New issues: 18')
    expect(comment.text).toContain('Security hotspots to review in the new code: 7')

    const fixed = await decorate(await checkout(await scenario('done')), fake)
    expect(fixed.exitCode).toBe(0)
    expect([...fake.statuses.values()].map(({ state }) => state)).toEqual(['SUCCESSFUL'])
    expect([...fake.reports.values()][0]!.annotations).toEqual([])
    expect(fake.comments).toHaveLength(1)
    expect(renderAsMarkdown(fake.comments[0]!.content.raw).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · demo-project'
    )
    for (const result of [failed, fixed]) {
      expect(result.stderr).not.toContain(BITBUCKET_TOKEN)
      expect(result.stderr).not.toContain(TOKEN)
    }
    expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
    expect(JSON.stringify(server.simulator.requests)).not.toContain(BITBUCKET_TOKEN)
  })

  it('an access token: another’s exact copy is never touched; ours is written anew and our earlier one deleted', async () => {
    const fake = await bitbucketWith()
    const failed = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
      fake
    )
    expect(failed.exitCode).toBe(1)
    await decorate(await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }), fake)
    // The first run's comment (deleted by the second) is copied by someone, exactly.
    const copy = { ...fake.comments[0]!, id: 1, user: SOMEONE, deleted: false }
    fake.comments.unshift(copy)
    const copied = JSON.stringify(copy)

    const fixed = await decorate(await checkout(await scenario('done')), fake)
    expect(fixed.exitCode).toBe(0)
    expect(fixed.stderr).toContain('Quality Gate status: OK')
    expect(fixed.stderr).not.toContain('warning')
    expect(JSON.stringify(copy)).toBe(copied)
    const live = fake.comments.filter(({ deleted }) => !deleted)
    expect(live.map(({ user }) => user?.uuid)).toEqual([SOMEONE.uuid, TOKEN_BOT.uuid])
    expect(renderAsMarkdown(live[1]!.content.raw).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · demo-project'
    )
    const edits = fake.requests.filter(
      ({ method, path }) => (method === 'PUT' || method === 'DELETE') && path.includes('/comments/')
    )
    expect(edits.every(({ path }) => !path.endsWith('/comments/1'))).toBe(true)
    expect(edits.map(({ method }) => method)).toEqual(['DELETE', 'DELETE'])
  })

  it('1,200 new issues: batches of 100, the 1,000 most severe, each named by its issue key', async () => {
    const fake = await bitbucketWith()
    const issues = sampleIssues(1200)
    const result = await decorate(
      await checkout({ ...(await scenario('done')), finishAfterMs: 0, issues }),
      fake
    )
    expect(result.exitCode).toBe(0)
    const posts = fake.requests.filter(({ path }) => path.endsWith('/annotations'))
    expect(posts.map(({ body }) => (body as unknown[]).length)).toEqual(Array(10).fill(100))
    const [report] = [...fake.reports.values()]
    expect(report!.annotations).toHaveLength(1000)
    expect(report!.annotations[0]!['external_id']).toMatch(/^sonarqube-AYIssue\d{5}$/)
    // The most severe first: no blocker is left out for a lesser issue.
    expect(report!.annotations.filter(({ severity }) => severity === 'CRITICAL')).toHaveLength(240)
  })

  it('hostile issue text: the comment inert, no token sent', async () => {
    const fake = await bitbucketWith()
    const hostile = ['@all look', '[x](https://evil.example) <img src=x>', `token ${TOKEN}`]
    const issues = sampleIssues(3, ['BLOCKER'], 3).map((one, index) => ({
      ...one,
      message: hostile[index]!
    }))
    const result = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0, issues }),
      fake
    )
    expect(result.exitCode).toBe(1)
    const rendered = renderAsMarkdown(fake.comments[0]!.content.raw)
    expect(mentionsIn(rendered.mentionable)).toEqual([])
    expect(rendered.of('img')).toEqual([])
    expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
  })

  it("without a token, through Bitbucket Pipelines' proxy: the report and its annotations alone", async () => {
    const fake = await bitbucketWith({ pipelinesProxy: true })
    const ws = await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 })
    const result = await timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate'], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        BITBUCKET_PIPELINES_PROXY: new URL(fake.url).origin,
        BITBUCKET_REPO_FULL_NAME: REPOSITORY,
        BITBUCKET_COMMIT: COMMIT,
        BITBUCKET_PR_ID: PULL_REQUEST
      },
      killAfterMs: 30_000
    })
    expect(result.exitCode).toBe(1)
    expect([...fake.reports.values()][0]!.annotations).toHaveLength(18)
    expect(
      fake.requests.every(({ target }) => target.startsWith('http://api.bitbucket.org/2.0/'))
    ).toBe(true)
    expect(fake.requests.every(({ authorization }) => authorization === undefined)).toBe(true)
    expect(fake.comments).toEqual([])
    expect(result.stderr).toContain(
      'Bitbucket: without BITBUCKET_TOKEN the reports go through the Pipelines proxy, which takes Code Insights only: no build status, no comment.'
    )
  })

  it('403: one warning naming the scopes, and the exit code is the verdict’s', async () => {
    const fake = await bitbucketWith({ refuse: 403 })
    const result = await decorate(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
      fake
    )
    expect(result.exitCode).toBe(1)
    const warnings = result.stderr.split('\n').filter((line) => line.includes('Bitbucket refused'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('(403): it needs the repository write scope')
    expect(fake.requests).toHaveLength(1)
  })
})

describe('--decorate for a Bitbucket Cloud pull request built in Jenkins (Bitbucket Branch Source)', () => {
  const { node } = RUNTIMES[0]!

  function fromJenkins(
    ws: Workspace,
    fake: FakeBitbucketCloud,
    args: string[],
    env: NodeJS.ProcessEnv
  ) {
    return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate', ...args], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        BITBUCKET_TOKEN,
        BITBUCKET_API_URL: fake.url,
        JENKINS_URL: 'https://jenkins.example.com/',
        EXECUTOR_NUMBER: '1',
        GIT_COMMIT: COMMIT,
        ...env
      },
      killAfterMs: 30_000
    })
  }

  it('CHANGE_URL names the repository and the pull request: the status, the report and the comment', async () => {
    const fake = await bitbucketWith({ account: TOKEN_USER })
    const run = await fromJenkins(
      await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
      fake,
      [],
      {
        CHANGE_URL: `https://bitbucket.org/${REPOSITORY}/pull-requests/${PULL_REQUEST}`,
        CHANGE_ID: PULL_REQUEST,
        BRANCH_NAME: `PR-${PULL_REQUEST}`
      }
    )
    expect(run.exitCode).toBe(1)
    expect([...fake.statuses.values()]).toEqual([
      expect.objectContaining({ state: 'FAILED', name: 'sonarqube/demo-project' })
    ])
    expect([...fake.reports.values()][0]!.annotations).toHaveLength(18)
    expect(fake.comments).toHaveLength(1)
    expect(run.stderr).not.toContain(BITBUCKET_TOKEN)
    expect(fake.requests.every(({ path }) => path.startsWith('/2.0/'))).toBe(true)
  })

  it('--bitbucket-repository from any CI, without a pull request: the status and the report, said in one line', async () => {
    const fake = await bitbucketWith({ account: TOKEN_USER })
    const run = await fromJenkins(
      await checkout(await scenario('done')),
      fake,
      ['--bitbucket-repository', REPOSITORY],
      {}
    )
    expect(run.exitCode).toBe(0)
    expect([...fake.statuses.values()].map(({ state }) => state)).toEqual(['SUCCESSFUL'])
    expect(fake.reports.size).toBe(1)
    expect(fake.comments).toEqual([])
  })
})
