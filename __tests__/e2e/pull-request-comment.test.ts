import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  monorepoScenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import type { Workspace } from '../../__fixtures__/built-action.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  simulatedServer,
  TOKEN,
  workspace
} from '../support/action-runs.js'
import {
  FakeGitHub,
  HEAD_SHA,
  writePullRequestEvent
} from '../../__fixtures__/github/fake-github.js'

const GITHUB_TOKEN = 'ghs_e2eCommentToken0123456789abcdefABCDEF'

describe.each(RUNTIMES)('the verdict on the pull request, on $runtime', ({ node }) => {
  const server = simulatedServer(node)
  const github = new FakeGitHub()
  beforeAll(() => github.start())
  afterAll(() => github.stop())

  async function twoProjects(ws: Workspace): Promise<void> {
    const [api, web] = await monorepoScenario()
    const scripts: AnalysisScript[] = [
      { ...api!, finishAfterMs: 0 },
      { ...web!, finishAfterMs: 0 }
    ]
    for (const [index, script] of scripts.entries()) {
      const analysis = server.simulator.addAnalysis(script)
      await server.simulator.writeReportFile(analysis, ws.file(`p${index}/report-task.txt`))
    }
  }

  async function runOnPullRequest(ws: Workspace, event = 'pull_request') {
    const eventFile = await writePullRequestEvent(ws)
    return runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        scanMetadataReportFile: '*/report-task.txt',
        pullRequestComment: 'true',
        githubToken: GITHUB_TOKEN
      },
      env: {
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventFile,
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_API_URL: github.url
      }
    })
  }

  it('one comment per project, updated in place on the next run, never a new one', async () => {
    github.comments.length = 0
    github.refuseWrites = false
    const ws = await workspace()
    await twoProjects(ws)

    const first = await runOnPullRequest(ws)
    const created = github.comments.map(({ id }) => id)
    const second = await runOnPullRequest(ws)

    expect(first.exitCode).toBe(1)
    expect(second.exitCode).toBe(1)
    expect(github.comments.map(({ id }) => id)).toEqual(created)
    expect(created).toHaveLength(2)
    // Who the token is (GraphQL's viewer, GET /user refused) is a read, not a write.
    const writes = github.requests.filter(
      ({ method, url }) => method !== 'GET' && url !== '/graphql'
    )
    expect(writes.map(({ method }) => method)).toEqual(['POST', 'POST', 'PATCH', 'PATCH'])
    const [api, web] = github.comments.map(({ body: text }) => text)
    expect(api).toMatch(/^<!-- sonar-quality-gate: shop-api -->/)
    expect(api).toContain('Quality Gate passed')
    expect(web).toMatch(/^<!-- sonar-quality-gate: shop-web -->/)
    expect(web).toContain('Quality Gate failed')
    expect(web).toContain('Coverage on New Code')
    expect(web).toContain(HEAD_SHA.slice(0, 7))
    // The GitHub token goes to GitHub only; the Sonar token never does.
    for (const request of github.requests) {
      expect(request.authorization).toBe(`token ${GITHUB_TOKEN}`)
      expect(request.body).not.toContain(TOKEN)
    }
    expect(
      server.simulator.requests.filter(({ authorization }) => authorization?.includes(GITHUB_TOKEN))
    ).toEqual([])
    expect(`${first.stdout}${second.stdout}`).not.toContain(GITHUB_TOKEN)
  })

  it("a fork's read-only token: a warning that says how to grant the permission, the verdict unchanged", async () => {
    github.comments.length = 0
    github.refuseWrites = true
    const ws = await workspace()
    await twoProjects(ws)

    const run = await runOnPullRequest(ws)

    expect(run.exitCode).toBe(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(/^Quality Gate Failure for shop-web/)
    const warnings = annotations(run.stdout, 'warning').join('\n')
    expect(warnings).toContain('pull-requests: write')
    expect(github.comments).toEqual([])
  })

  it('another app’s and a person’s exact copies, posted before ours, are never edited: ours is written, then edited', async () => {
    github.comments.length = 0
    github.refuseWrites = false
    const ws = await workspace()
    await twoProjects(ws)
    await runOnPullRequest(ws)
    // Our first run's comments, made another app's and a person's: exact copies of our markers.
    const [api, web] = github.comments.splice(0)
    const copies = [
      { ...api!, id: 1, user: { login: 'other-app[bot]', id: 555, type: 'Bot' } },
      { ...web!, id: 2, user: { login: 'mallory', id: 66, type: 'User' } }
    ]
    github.comments.push(...copies.map((copy) => ({ ...copy })))
    const before = github.requests.length

    const first = await runOnPullRequest(ws)
    const second = await runOnPullRequest(ws)

    for (const run of [first, second]) {
      expect(run.exitCode).toBe(1)
      // The analysis's own warnings aside, nothing about the comment.
      expect(
        annotations(run.stdout, 'warning').filter((line) => !line.includes('Analysis warning'))
      ).toEqual([])
      expect(annotations(run.stdout, 'error')[0]).toMatch(/^Quality Gate Failure for shop-web/)
    }
    expect(github.comments.slice(0, 2)).toEqual(copies)
    const ours = github.comments.slice(2)
    expect(ours.map(({ user }) => user.login)).toEqual([
      'github-actions[bot]',
      'github-actions[bot]'
    ])
    expect(ours.map(({ body }) => body.split('\n')[0])).toEqual([
      '<!-- sonar-quality-gate: shop-api -->',
      '<!-- sonar-quality-gate: shop-web -->'
    ])
    const edits = github.requests.slice(before).filter(({ method }) => method === 'PATCH')
    expect(edits.map(({ url }) => Number(url.split('/').at(-1)))).toEqual(ours.map(({ id }) => id))
  })

  it('on a push, the input does nothing and the log says so', async () => {
    const before = github.requests.length
    const ws = await workspace()
    await twoProjects(ws)

    const run = await runOnPullRequest(ws, 'push')

    expect(github.requests.length).toBe(before)
    expect(run.stdout).toContain(
      'The pullRequestComment input does nothing on push events: it comments on pull_request and pull_request_target events only.'
    )
  })
})
