import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { githubContext } from '../../src/action/github-context.js'
import { readActionSettings } from '../../src/action/settings.js'
import { withTheRunsAnalysis } from '../../src/action/run-analysis.js'
import { SettingsError } from '../../src/errors.js'
import { tempFolder } from '../support/temp-files.js'

const HEAD = 'a'.repeat(40)
const MERGE = 'b'.repeat(40)
const HOST = 'https://sonar.example.com'
const temp = tempFolder('run-analysis-')
let files = 0

/** The settings a step with these inputs gets on a run of `event` with this payload. */
async function onRun(
  event: string,
  payload: unknown,
  inputs: Record<string, string> = { projectKey: 'shop', sonarHostUrl: HOST },
  env: Record<string, string> = {}
) {
  const file = temp.file(`event-${files++}.json`)
  await writeFile(file, JSON.stringify(payload))
  const runEnv = {
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: file,
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_SHA: MERGE,
    ...env
  }
  const log = new RecordingLog()
  const settings = readActionSettings((name) => inputs[name] ?? '', {})
  const github = await githubContext(runEnv)
  const result = await withTheRunsAnalysis(settings, github, runEnv, log, Date.now() + 60_000)
  return { settings: result, lines: log.lines.map(({ text }) => text) }
}

const pullRequest = { pull_request: { number: 42, head: { sha: HEAD } } }

/** GitHub's API on loopback: every request answered with `body`, recorded. */
async function gitHubApi(body: unknown, status = 200) {
  const requests: { url: string; authorization: string | undefined }[] = []
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', authorization: request.headers.authorization })
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

describe("projectKey's defaults come from the run", () => {
  it('pull_request: the pull request, its head or its merge commit, said in one line', async () => {
    const { settings, lines } = await onRun('pull_request', pullRequest)
    expect(settings).toMatchObject({ pullRequest: '42', branch: undefined, commits: [HEAD, MERGE] })
    expect(settings.since).toBeUndefined()
    expect(lines).toEqual([
      'Checking the newest analysis on pull request 42, as the pull_request event says.'
    ])
  })

  it("pull_request: its analysis is one made after the pull request's last update", async () => {
    const updated = {
      pull_request: { ...pullRequest.pull_request, updated_at: '2026-11-24T10:00:03Z' }
    }
    const { settings, lines } = await onRun('pull_request', updated)
    expect(settings.since).toEqual({
      at: Date.parse('2026-11-24T10:00:03Z'),
      what: "the pull request's last update"
    })
    expect(lines).toEqual([
      "Checking the newest analysis on pull request 42 made after the pull request's last update, as the pull_request event says."
    ])
  })

  it('push: the pushed branch and GITHUB_SHA', async () => {
    const { settings } = await onRun('push', {}, undefined, {
      GITHUB_REF: 'refs/heads/release/2.4'
    })
    expect(settings).toMatchObject({
      branch: 'release/2.4',
      pullRequest: undefined,
      commits: [MERGE]
    })
  })

  it('a pushed tag: no branch (the main branch), GITHUB_SHA', async () => {
    const { settings } = await onRun('push', {}, undefined, { GITHUB_REF: 'refs/tags/v1.0.0' })
    expect(settings).toMatchObject({ branch: undefined, commits: [MERGE] })
  })

  it('workflow_dispatch and schedule: the newest analysis, no commit', async () => {
    for (const event of ['workflow_dispatch', 'schedule']) {
      const { settings, lines } = await onRun(event, {})
      expect(settings.commits).toEqual([])
      expect(lines[0]).toBe(
        `Checking the newest analysis of the main branch, as the ${event} event says.`
      )
    }
  })

  it("workflow_run: the triggering run's pull request and head commit, or its branch", async () => {
    const run = (more: object) => ({
      workflow_run: { head_sha: HEAD, head_branch: 'feature/x', event: 'pull_request', ...more }
    })
    const pull = await onRun(
      'workflow_run',
      run({ pull_requests: [{ number: 7 }], created_at: '2026-11-24T10:00:03Z' })
    )
    expect(pull.settings).toMatchObject({ pullRequest: '7', commits: [HEAD] })
    expect(pull.settings.since).toEqual({
      at: Date.parse('2026-11-24T10:00:03Z'),
      what: "the triggering run's creation"
    })
    const push = await onRun('workflow_run', run({ event: 'push', pull_requests: [] }))
    expect(push.settings).toMatchObject({ branch: 'feature/x', commits: [HEAD] })
  })

  describe("workflow_run of a fork's pull request, which GitHub does not name", () => {
    const forkRun = {
      workflow_run: {
        head_sha: HEAD,
        head_branch: 'main',
        head_repository: { owner: { login: 'octo-fork' } },
        event: 'pull_request',
        pull_requests: []
      }
    }

    it("is found through GitHub's API by the fork's owner and branch, at the run's commit", async () => {
      const github = await gitHubApi([
        { number: 3, head: { sha: MERGE } },
        { number: 9, head: { sha: HEAD.toUpperCase() } }
      ])
      const { settings, lines } = await onRun(
        'workflow_run',
        forkRun,
        { projectKey: 'shop', sonarHostUrl: HOST, githubToken: 'ghs_test' },
        { GITHUB_API_URL: github.url }
      )
      expect(settings).toMatchObject({ pullRequest: '9', commits: [HEAD] })
      expect(github.requests).toEqual([
        {
          url: '/repos/octo/shop/pulls?head=octo-fork%3Amain&state=open&per_page=100',
          authorization: 'token ghs_test'
        }
      ])
      expect(lines).toEqual([
        "Checking the newest analysis on pull request 9, as the workflow_run event (its pull request found through GitHub's API) says."
      ])
    })

    it('none, or several and none at the commit: refused, naming the input', async () => {
      for (const pulls of [
        [],
        [
          { number: 3, head: { sha: MERGE } },
          { number: 4, head: { sha: MERGE } }
        ]
      ]) {
        const github = await gitHubApi(pulls)
        const error = await onRun(
          'workflow_run',
          forkRun,
          { projectKey: 'shop', sonarHostUrl: HOST, githubToken: 'ghs_test' },
          { GITHUB_API_URL: github.url }
        ).catch((thrown: Error) => thrown)
        expect(error).toBeInstanceOf(SettingsError)
        expect((error as Error).message).toMatch(
          pulls.length === 0
            ? /^GitHub has no open pull request of octo-fork:main: pass .*pullRequest.* to say which/
            : /^GitHub has 2 open pull requests of octo-fork:main, none at its commit aaaaaaa: pass/
        )
      }
    })

    it("GitHub's refusal, or no token: refused, saying what the token needs or which input to pass", async () => {
      const github = await gitHubApi({ message: 'Resource not accessible by integration' }, 403)
      const refused = await onRun(
        'workflow_run',
        forkRun,
        { projectKey: 'shop', sonarHostUrl: HOST, githubToken: 'ghs_test' },
        { GITHUB_API_URL: github.url }
      ).catch((thrown: Error) => thrown)
      expect((refused as Error).message).toMatch(
        /^GitHub's API could not list the pull requests of octo-fork:main \(.*\); the token needs the pull-requests read permission: pass/
      )
      const noToken = await onRun('workflow_run', forkRun).catch((thrown: Error) => thrown)
      expect(noToken).toBeInstanceOf(SettingsError)
      expect(inActionWords(noToken as Error)).toMatch(
        /from a fork, which GitHub does not name in the workflow_run event: set githubToken to let the action find it through GitHub's API, or pass pullRequest to say/
      )
    })
  })

  it('an input given wins, and leaves the commit to the inputs', async () => {
    const inputs = { projectKey: 'shop', sonarHostUrl: HOST, branch: 'main' }
    const { settings, lines } = await onRun('pull_request', pullRequest, inputs)
    expect(settings).toMatchObject({ branch: 'main', pullRequest: undefined, commits: [] })
    expect(lines).toEqual([])
  })

  it('without projectKey nothing is read from the run', async () => {
    const { settings, lines } = await onRun('pull_request', pullRequest, {})
    expect(settings).toMatchObject({ projectKeys: [], pullRequest: undefined, commits: [] })
    expect(lines).toEqual([])
  })

  it('a head SHA that cannot be one leaves the pull request unknown: refused, naming the inputs', async () => {
    const hostile = { pull_request: { number: 42, head: { sha: 'zz\n::error::x' } } }
    const error = await onRun('pull_request', hostile).catch((thrown: Error) => thrown)
    expect(error).toBeInstanceOf(SettingsError)
    expect((error as Error).message).toBe(
      "The run's pull request is unknown (the event file names no head commit): pass pullRequest and commit to say which analysis to check."
    )
  })

  it('a branch name that cannot be one is not taken', async () => {
    const push = await onRun('push', {}, undefined, { GITHUB_REF: 'refs/heads/a\u202eb' })
    expect(push.settings).toMatchObject({ branch: undefined, commits: [MERGE] })
  })
})
