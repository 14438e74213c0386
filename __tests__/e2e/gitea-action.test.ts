/**
 * The built action (dist/index.js) as Gitea Actions and Forgejo Actions run it: their runners
 * set GitHub's variables too, GITHUB_API_URL being their own `/api/v1`. The pull-request comment
 * goes to their API in Markdown, one per project, edited in place on the next run; nothing is
 * sent anywhere else, and issuesCheckRun, which they have no API for, writes nothing.
 */
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  FakeGitea,
  GITEA_PULL_REQUEST,
  GITEA_REPOSITORY
} from '../../__fixtures__/gitea/fake-gitea.js'
import { scenario } from '../../__fixtures__/simulator/sonar-simulator.js'
import type { Workspace } from '../../__fixtures__/built-action.js'
import { RUNTIMES, runAction, simulatedServer, TOKEN, workspace } from '../support/action-runs.js'

const GITEA_TOKEN = 'gitea-job-token-0123456789abcdef01234567'
const HEAD = 'e'.repeat(40)

const FORGES: Array<{ forge: string; env: Record<string, string> }> = [
  { forge: 'Gitea', env: { GITEA_ACTIONS: 'true' } },
  { forge: 'Forgejo', env: { GITEA_ACTIONS: 'true', FORGEJO_ACTIONS: 'true' } }
]

describe.each(FORGES)('the action in $forge Actions', ({ forge, env }) => {
  const { node } = RUNTIMES[0]!
  const server = simulatedServer(node)

  async function run(ws: Workspace, fake: FakeGitea) {
    const event = ws.file('../event.json')
    await writeFile(
      event,
      JSON.stringify({ pull_request: { number: GITEA_PULL_REQUEST, head: { sha: HEAD } } })
    )
    return runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        pullRequestComment: 'true',
        issuesCheckRun: 'true',
        githubToken: GITEA_TOKEN
      },
      env: {
        GITHUB_ACTIONS: 'true',
        ...env,
        GITHUB_SERVER_URL: fake.url,
        GITHUB_API_URL: `${fake.url}/api/v1`,
        GITHUB_REPOSITORY: GITEA_REPOSITORY,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: event,
        GITHUB_SHA: 'f'.repeat(40)
      }
    })
  }

  it('the comment on its own API, in Markdown, edited in place on the next run', async () => {
    const fake = new FakeGitea()
    await fake.start()
    try {
      const ws = await workspace()
      const analysis = server.simulator.addAnalysis({
        ...(await scenario('gate-error')),
        finishAfterMs: 0
      })
      await server.simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
      const first = await run(ws, fake)
      const second = await run(ws, fake)
      expect(first.exitCode).toBe(1)
      expect(second.exitCode).toBe(1)
      expect(fake.comments).toHaveLength(1)
      expect(fake.comments[0]!.body).toMatch(/^\[\/\/\]: # "sonar-quality-gate: demo-project"/)
      expect(fake.comments[0]!.body).toContain('Quality Gate failed')
      expect(second.stdout).toContain(
        `${forge}: the comment for demo-project is updated on pull request #${GITEA_PULL_REQUEST}.`
      )
      expect(first.stdout).toContain(`${forge} Actions has no check runs`)
      // Gitea's API alone, with the job's token alone.
      expect(fake.requests.every(({ path }) => path.startsWith('/api/v1/'))).toBe(true)
      expect(
        fake.requests.every(({ authorization }) => authorization === `token ${GITEA_TOKEN}`)
      ).toBe(true)
      expect(fake.statuses).toEqual([])
    } finally {
      await fake.stop()
    }
  })
})
