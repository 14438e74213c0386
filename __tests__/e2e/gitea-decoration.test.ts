/**
 * `--decorate` on Gitea and Forgejo: the bundle dist/cli.js against the simulated server, run as
 * Gitea Actions and Forgejo Actions run it (their `GITHUB_*` variables, GITEA_ACTIONS or
 * FORGEJO_ACTIONS, the event file) and from Jenkins with --gitea-url, --gitea-repository and
 * --pull-request, against a loopback Gitea shaped from its API description: the status, the
 * comment and the issues on the added lines as one review, written to Gitea's API and never to
 * GitHub's, with the exit code the gate's.
 */
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  diffAdding,
  FakeGitea,
  giteaOptions,
  GITEA_PULL_REQUEST,
  GITEA_REPOSITORY
} from '../../__fixtures__/gitea/fake-gitea.js'
import { scenario } from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK } from '../support/decoration-runs.js'

const GITEA_TOKEN = 'gitea-token-0123456789abcdef0123456789abcdef'
const HEAD = 'e'.repeat(40)

const server = decorationServer()

/** How each CI runs the command: its variables, and the options it needs. */
const RUNS = [
  {
    ci: 'Gitea Actions',
    env: (fake: FakeGitea, event: string) => ({
      GITHUB_ACTIONS: 'true',
      GITEA_ACTIONS: 'true',
      GITHUB_SERVER_URL: fake.url,
      GITHUB_API_URL: `${fake.url}/api/v1`,
      GITHUB_REPOSITORY: GITEA_REPOSITORY,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_SHA: 'f'.repeat(40),
      GITEA_TOKEN
    }),
    args: () => [],
    name: 'Gitea'
  },
  {
    ci: 'Forgejo Actions',
    env: (fake: FakeGitea, event: string) => ({
      GITHUB_ACTIONS: 'true',
      GITEA_ACTIONS: 'true',
      FORGEJO_ACTIONS: 'true',
      GITHUB_SERVER_URL: fake.url,
      GITHUB_API_URL: `${fake.url}/api/v1`,
      GITHUB_REPOSITORY: GITEA_REPOSITORY,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_SHA: 'f'.repeat(40),
      // The job's token, as a step maps it: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}.
      GITHUB_TOKEN: GITEA_TOKEN
    }),
    args: () => [],
    name: 'Forgejo'
  },
  {
    ci: 'Jenkins',
    env: () => ({
      JENKINS_URL: 'https://jenkins.example.com/',
      EXECUTOR_NUMBER: '1',
      GIT_COMMIT: HEAD,
      GITEA_TOKEN
    }),
    args: giteaOptions,
    name: 'Gitea'
  }
]

describe.each(RUNS)('--decorate on $ci', ({ env, args, name }) => {
  const { node } = RUNTIMES[0]!

  async function decorate(ws: Workspace, fake: FakeGitea) {
    const event = ws.file('../gitea-event.json')
    await writeFile(
      event,
      JSON.stringify({ pull_request: { number: GITEA_PULL_REQUEST, head: { sha: HEAD } } })
    )
    return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate', ...args(fake)], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        ...env(fake, event)
      },
      killAfterMs: 30_000
    })
  }

  it('the status, one comment, the issues on the added lines in one review; the exit code the gate’s', async () => {
    const fake = new FakeGitea({
      diff: diffAdding({ 'src/app.ts': [3, 6], 'src/db/query.ts': [3, 5] })
    })
    await fake.start()
    try {
      const run = await decorate(
        await server.checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake
      )
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain(
        `${name}: the comment for demo-project is created on pull request #${GITEA_PULL_REQUEST}.`
      )
      expect(run.stderr).toContain(
        `${name}: 4 comments started in one review, 0 resolved (their issues are gone).`
      )
      expect(fake.statuses).toEqual([
        {
          sha: HEAD,
          body: expect.objectContaining({ state: 'failure', context: 'sonarqube/demo-project' })
        }
      ])
      expect(fake.comments).toHaveLength(1)
      expect(fake.reviews).toHaveLength(1)
      expect(fake.reviewComments).toHaveLength(4)
      // Gitea's API alone, with its token alone; nothing in any log.
      expect(fake.requests.every(({ path }) => path.startsWith('/api/v1/'))).toBe(true)
      expect(
        fake.requests.every(({ authorization }) => authorization === `token ${GITEA_TOKEN}`)
      ).toBe(true)
      expect(run.stderr).not.toContain(GITEA_TOKEN)
      expect(JSON.stringify(server.simulator.requests)).not.toContain(GITEA_TOKEN)
    } finally {
      await fake.stop()
    }
  })
})
