/**
 * `--decorate` with Bitbucket Data Center from any CI (here, Jenkins and Bamboo): the bundle dist/cli.js
 * against the simulated server and a loopback Bitbucket Data Center shaped from its REST
 * specification: the Code Insights report with its annotations and the build status, replaced on
 * a re-run; the older build-status API on a server without the newer; 1,200 issues kept to
 * 1,000; a refusal that changes nothing else; the token to its own server only.
 */
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  SERVER_PROJECT,
  SERVER_REPOSITORY,
  SERVER_TOKEN,
  startFakeBitbucketServer,
  type FakeBitbucketServer
} from '../../__fixtures__/bitbucket/fake-bitbucket-server.js'
import {
  sampleIssues,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK, stoppedAfterEach } from '../support/decoration-runs.js'

const COMMIT = 'c'.repeat(40)
/** The commit --commit names. */
const GIVEN = 'd'.repeat(40)

const server = decorationServer()
const checkout = (script: AnalysisScript) => server.checkout(script)

const started = stoppedAfterEach(startFakeBitbucketServer)

async function serverWith(options: Parameters<typeof startFakeBitbucketServer>[0] = {}) {
  return started(options)
}

describe.each(RUNTIMES)(
  '--decorate with Bitbucket Data Center from Jenkins, on $runtime',
  ({ node }) => {
    /** The built command with a report file, in Jenkins or Bamboo (none: outside any CI). */
    function decorate(
      ws: Workspace,
      fake: FakeBitbucketServer,
      more: string[] = [],
      ci: 'jenkins' | 'bamboo' | 'none' = 'jenkins'
    ) {
      const variables = {
        jenkins: {
          JENKINS_URL: 'https://jenkins.example.com/',
          EXECUTOR_NUMBER: '1',
          GIT_COMMIT: COMMIT,
          BRANCH_NAME: 'main'
        },
        // As a Bamboo plan's script task sees them (bamboo.<name>, dots as underscores).
        bamboo: {
          bamboo_buildNumber: '41',
          bamboo_planKey: 'SHOP-MAIN',
          bamboo_planRepository_revision: COMMIT,
          bamboo_planRepository_branchName: 'main'
        },
        none: {}
      }
      return timeChild(
        node,
        [
          CLI_ENTRY,
          ...QUICK,
          '--decorate',
          '--bitbucket-server',
          fake.url,
          '--bitbucket-project',
          SERVER_PROJECT,
          '--bitbucket-repo',
          SERVER_REPOSITORY,
          ...more
        ],
        {
          cwd: ws.cwd,
          env: {
            PATH: process.env['PATH'] ?? '/usr/bin:/bin',
            SONAR_TOKEN: TOKEN,
            BITBUCKET_TOKEN: SERVER_TOKEN,
            ...variables[ci]
          },
          killAfterMs: 30_000
        }
      )
    }

    it('--commit with a report file, outside any CI: that commit decorated, the report file’s analysis checked', async () => {
      const fake = await serverWith()
      const script = { ...(await scenario('gate-error')), finishAfterMs: 200, revision: GIVEN }
      const ws = await checkout(script)
      const result = await decorate(ws, fake, ['--commit', GIVEN.toUpperCase()], 'none')

      expect(result.exitCode).toBe(1)
      expect(result.stderr).toContain('Quality Gate Failure for demo-project')
      expect([...fake.reports.keys()].map((key) => key.split('/')[0])).toEqual([GIVEN])
      expect(fake.requests.map((request) => request.path)).toContain(
        `/rest/api/latest/projects/${SERVER_PROJECT}/repos/${SERVER_REPOSITORY}/commits/${GIVEN}/builds`
      )
      expect(fake.builds).toEqual([expect.objectContaining({ state: 'FAILED' })])
      // The server records the same commit for the analysis: nothing to warn of.
      expect(result.stderr).not.toContain('Option --commit names')
    })

    it('in Bamboo, without --commit: the commit the plan built (bamboo_planRepository_revision) decorated', async () => {
      const fake = await serverWith()
      const script = { ...(await scenario('gate-error')), finishAfterMs: 200, revision: COMMIT }
      const result = await decorate(await checkout(script), fake, [], 'bamboo')

      expect(result.exitCode).toBe(1)
      expect(result.stderr).toContain('Quality Gate Failure for demo-project')
      expect([...fake.reports.keys()].map((key) => key.split('/')[0])).toEqual([COMMIT])
      expect(fake.builds).toEqual([expect.objectContaining({ state: 'FAILED' })])
    })

    it('outside any CI, without --commit: nothing decorated, said with what names the commit', async () => {
      const fake = await serverWith()
      const result = await decorate(await checkout(await scenario('gate-error')), fake, [], 'none')

      expect(result.exitCode).toBe(1)
      expect(fake.requests).toEqual([])
      expect(result.stderr).toContain('no commit to decorate on Bitbucket Data Center')
      expect(result.stderr).toContain('Bamboo: bamboo_planRepository_revision')
    })

    it('--commit wins over the CI’s commit; another commit recorded for the analysis is said once', async () => {
      const fake = await serverWith()
      const ws = await checkout({ ...(await scenario('done')), finishAfterMs: 0, revision: COMMIT })
      const result = await decorate(ws, fake, ['--commit', GIVEN])

      expect(result.exitCode).toBe(0)
      expect([...fake.reports.keys()].map((key) => key.split('/')[0])).toEqual([GIVEN])
      expect(fake.requests.some((request) => request.path.includes(COMMIT))).toBe(false)
      const warnings = result.stderr.split('\n').filter((line) => line.includes('Option --commit'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(
        `Option --commit names commit ${GIVEN.slice(0, 7)}, but the server records ${COMMIT.slice(0, 7)} for the analysis checked`
      )
    })

    it('a failing gate, then a re-run after the fix: the report replaced, the build status flipped', async () => {
      const fake = await serverWith()
      const failed = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake
      )
      expect(failed.exitCode).toBe(1)
      const [report] = [...fake.reports.values()]
      expect(report!.body).toMatchObject({ result: 'FAIL', title: 'SonarQube: demo-project' })
      expect(report!.annotations).toHaveLength(18)
      expect(report!.annotations[0]).toMatchObject({
        severity: 'HIGH',
        path: expect.stringMatching(/^src\//) as string
      })
      expect(fake.builds).toEqual([
        expect.objectContaining({
          state: 'FAILED',
          name: 'sonarqube/demo-project',
          via: 'api/latest'
        })
      ])

      const fixed = await decorate(await checkout(await scenario('done')), fake)
      expect(fixed.exitCode).toBe(0)
      expect([...fake.reports.values()][0]!.body['result']).toBe('PASS')
      expect([...fake.reports.values()][0]!.annotations).toEqual([])
      expect(fake.builds.at(-1)).toMatchObject({ state: 'SUCCESSFUL' })
      for (const result of [failed, fixed]) expect(result.stderr).not.toContain(SERVER_TOKEN)
      expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
      expect(JSON.stringify(server.simulator.requests)).not.toContain(SERVER_TOKEN)
    })

    it('1,200 new issues: the 1,000 most severe, one request; a server before the builds API gets the older one', async () => {
      const fake = await serverWith({ legacyBuildStatus: true })
      const issues = sampleIssues(1200)
      const result = await decorate(
        await checkout({ ...(await scenario('done')), finishAfterMs: 0, issues }),
        fake
      )
      expect(result.exitCode).toBe(0)
      expect([...fake.reports.values()][0]!.annotations).toHaveLength(1000)
      expect(fake.builds).toEqual([expect.objectContaining({ via: 'build-status/1.0' })])
    })

    it('403: one warning naming the permission, the exit code the verdict’s', async () => {
      const fake = await serverWith({ refuse: 403 })
      const result = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
        fake
      )
      expect(result.exitCode).toBe(1)
      const warnings = result.stderr
        .split('\n')
        .filter((line) => line.includes('Bitbucket refused'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('(403): it needs the repository write permission')
      expect(fake.requests).toHaveLength(1)
    })
  }
)
