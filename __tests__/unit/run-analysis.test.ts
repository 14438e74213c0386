import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
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
  const result = await withTheRunsAnalysis(settings, github, runEnv, log)
  return { settings: result, lines: log.lines.map(({ text }) => text) }
}

const pullRequest = { pull_request: { number: 42, head: { sha: HEAD } } }

describe("projectKey's defaults come from the run", () => {
  it('pull_request: the pull request, its head or its merge commit, said in one line', async () => {
    const { settings, lines } = await onRun('pull_request', pullRequest)
    expect(settings).toMatchObject({ pullRequest: '42', branch: undefined, commits: [HEAD, MERGE] })
    expect(lines).toEqual([
      'Checking the analysis of aaaaaaa or bbbbbbb on pull request 42, as the pull_request event says.'
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
    const pull = await onRun('workflow_run', run({ pull_requests: [{ number: 7 }] }))
    expect(pull.settings).toMatchObject({ pullRequest: '7', commits: [HEAD] })
    const push = await onRun('workflow_run', run({ event: 'push', pull_requests: [] }))
    expect(push.settings).toMatchObject({ branch: 'feature/x', commits: [HEAD] })
  })

  it("workflow_run of a fork's pull request, which GitHub does not name: refused, naming the input", async () => {
    const error = await onRun('workflow_run', {
      workflow_run: {
        head_sha: HEAD,
        head_branch: 'main',
        event: 'pull_request',
        pull_requests: []
      }
    }).catch((thrown: Error) => thrown)
    expect(error).toBeInstanceOf(SettingsError)
    expect((error as Error).message).toMatch(
      /from a fork.*cannot be checked by project yet: check it in the scanning workflow/
    )
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
