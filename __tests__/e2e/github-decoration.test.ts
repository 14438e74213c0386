/**
 * `--decorate` for a GitHub repository built in another CI: the bundle dist/cli.js against the
 * simulated server, with Jenkins' and CircleCI's own variables naming the repository, the pull
 * request and the commit, GITHUB_TOKEN, and GITHUB_API_URL pointing at a loopback GitHub shaped
 * from its REST description. A failing gate (a failure status, one comment, the issues on the
 * lines the pull request adds as one review), a re-run after the fix (the comment edited, the
 * status success, the threads resolved), and each token kept to its own server.
 */
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import { scenario } from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK } from '../support/decoration-runs.js'
import {
  FakeGitHub,
  HEAD_SHA,
  NUMBER,
  startGitHubForSamples
} from '../../__fixtures__/github/fake-github.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

const GITHUB_TOKEN = 'ghp_fakeToken0123456789abcdefghijklmnopqrs'

const server = decorationServer()

/** Each CI's own variables for pull request #7 of octo/shop at HEAD_SHA. */
const CIS = [
  {
    ci: 'Jenkins',
    env: {
      JENKINS_URL: 'https://jenkins.example.com/',
      EXECUTOR_NUMBER: '1',
      CHANGE_URL: `https://github.com/octo/shop/pull/${NUMBER}`,
      CHANGE_ID: String(NUMBER),
      GIT_COMMIT: HEAD_SHA
    }
  },
  {
    ci: 'CircleCI',
    env: {
      CI: 'true',
      CIRCLECI: 'true',
      CIRCLE_PROJECT_USERNAME: 'octo',
      CIRCLE_PROJECT_REPONAME: 'shop',
      CIRCLE_PULL_REQUEST: `https://github.com/octo/shop/pull/${NUMBER}`,
      CIRCLE_SHA1: HEAD_SHA
    }
  }
]

describe.each(CIS)('--decorate for a GitHub pull request built in $ci', ({ env: ciEnv }) => {
  const { node } = RUNTIMES[0]!

  function decorate(ws: Workspace, fake: FakeGitHub, token = GITHUB_TOKEN) {
    return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate'], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        GITHUB_TOKEN: token,
        GITHUB_API_URL: fake.url,
        ...ciEnv
      },
      killAfterMs: 30_000
    })
  }

  it('a failing gate, then a re-run after the fix: one review, the comment edited, the status flipped, the threads resolved', async () => {
    const fake = await startGitHubForSamples()
    try {
      const failed = await decorate(
        await server.checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake
      )
      expect(failed.exitCode).toBe(1)
      expect(failed.stderr).toContain(
        `4 of the 18 new-code issues read are on the lines pull request #${NUMBER} changes.`
      )
      expect(failed.stderr).toContain(
        `GitHub: the comment for demo-project is created on pull request #${NUMBER}.`
      )
      expect(failed.stderr).toContain(
        'GitHub: 4 comments started in one review, 0 resolved (their issues are gone).'
      )
      expect(fake.statuses).toEqual([
        {
          sha: HEAD_SHA,
          body: expect.objectContaining({ state: 'failure', context: 'sonarqube/demo-project' })
        }
      ])
      expect(renderAsGitHub(fake.comments[0]!.body).of('h3')[0]!.text).toBe(
        '❌ Quality Gate failed · demo-project'
      )
      expect(fake.reviews).toHaveLength(1)
      expect(fake.threads).toHaveLength(4)

      const fixed = await decorate(await server.checkout(await scenario('done')), fake)
      expect(fixed.exitCode).toBe(0)
      expect(fake.comments).toHaveLength(1)
      expect(renderAsGitHub(fake.comments[0]!.body).of('h3')[0]!.text).toBe(
        '✅ Quality Gate passed · demo-project'
      )
      expect(fake.statuses.at(-1)?.body).toMatchObject({
        state: 'success',
        description: 'Quality Gate passed'
      })
      expect(fake.threads.every(({ isResolved }) => isResolved)).toBe(true)
      expect(fake.reviews).toHaveLength(1)

      // Each token to its own server only, and in no log.
      for (const result of [failed, fixed]) {
        expect(result.stderr).not.toContain(GITHUB_TOKEN)
        expect(result.stderr).not.toContain(TOKEN)
      }
      expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
      expect(
        fake.requests.every(({ authorization }) => authorization === `token ${GITHUB_TOKEN}`)
      ).toBe(true)
      expect(JSON.stringify(server.simulator.requests)).not.toContain(GITHUB_TOKEN)
    } finally {
      await fake.stop()
    }
  })

  it("a GitHub App's installation token: a check run per project in place of its status, the issues as its annotations", async () => {
    const fake = await startGitHubForSamples()
    fake.account = undefined
    const appToken = 'ghs_e2eInstallationToken0123456789abcdefAB'
    try {
      const run = await decorate(
        await server.checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake,
        appToken
      )
      expect(run.exitCode).toBe(1)
      expect(fake.statuses).toEqual([])
      expect(fake.checkRuns).toHaveLength(1)
      expect(fake.checkRuns[0]!.create).toMatchObject({
        name: 'sonarqube/demo-project',
        head_sha: HEAD_SHA,
        conclusion: 'failure'
      })
      expect(run.stderr).toMatch(
        /GitHub: the check run for demo-project is on commit [0-9a-f]{12}, with \d+ annotations\./
      )
      expect(fake.comments).toHaveLength(1)
      expect(run.stderr).not.toContain(appToken)
    } finally {
      await fake.stop()
    }
  })

  it('a token that may not write: one warning, and the exit code is the gate’s', async () => {
    const fake = new FakeGitHub()
    fake.refuseWrites = true
    await fake.start()
    try {
      const run = await decorate(
        await server.checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake
      )
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain(
        'GitHub refused the decoration; the verdict and the exit code are unchanged.'
      )
      expect(fake.comments).toEqual([])
    } finally {
      await fake.stop()
    }
  })
})
