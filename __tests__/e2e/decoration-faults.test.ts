/**
 * A decoration never changes the verdict or the exit code, on every platform, whatever its API
 * does: the bundle dist/cli.js with `--decorate` against the simulated server, each platform's
 * loopback fake behind a front that plays a fault (refused connections, 503 on every try, 429
 * asking for a day, a page that is not JSON, JSON without the fields read, a hang, a connection
 * reset mid-body, 401, 403, 404) on every request of its API, and one fault on each endpoint the
 * decoration uses, one at a time. Every run ends with the gate's exit code (0 passing, 1 failing),
 * its verdict line, one warning naming the platform, no token shown, within the time-out plus
 * the decoration's allowance. The runs are concurrent: most end in a second or two; those that
 * wait (503, a hang) wait the allowance once, side by side.
 */
import { describe, expect, it } from 'vitest'
import {
  CLI_ENTRY,
  createWorkspace,
  timeChild,
  type Exit
} from '../../__fixtures__/built-action.js'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  startFakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import {
  BITBUCKET_TOKEN,
  COMMIT,
  PULL_REQUEST,
  REPOSITORY,
  startFakeBitbucketCloud
} from '../../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import {
  SERVER_PROJECT,
  SERVER_REPOSITORY,
  SERVER_TOKEN,
  startFakeBitbucketServer
} from '../../__fixtures__/bitbucket/fake-bitbucket-server.js'
import {
  addingLines,
  DIFF_REFS,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  startFakeGitLab
} from '../../__fixtures__/gitlab/fake-gitlab.js'
import { scenario, type AnalysisScript } from '../../__fixtures__/simulator/sonar-simulator.js'
import {
  FRONT_FAULTS,
  startFaultyFront,
  type FaultyFront,
  type FrontFault
} from '../fault-kit/faulty-front.js'
import { closedPort } from '../fault-kit/http-server.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK } from '../support/decoration-runs.js'

/** The overall time-out of every run, in seconds: the check takes seconds, more on a busy machine. */
const TIMEOUT_S = 30
/** The decoration's allowance past the time-out, as docs/command.md states it. */
const ALLOWANCE_S = 30
/** Starting Node and loading the bundle, which the command's clock does not see. */
const START_UP_MS = 5_000

const server = decorationServer()
// The system's Node only: the bundle is the same on each, and the matrix is large.
const { node } = RUNTIMES[0]!

/** A platform's fake and how the command is pointed at it. */
interface Platform {
  /** The name its warnings start with. */
  name: string
  token: string
  /** Starts the fake; `address` is the API's address the command is given. */
  start(): Promise<{ address: string; stop(): Promise<void> }>
  /** The options and variables that point the command at `address`. */
  pointedAt(address: string): { args: string[]; env: Record<string, string> }
  /**
   * Each endpoint the decoration uses, by method and path. `again`: it is used on a second run
   * only, once the first has written what it edits, resolves or closes.
   */
  endpoints: { method: string; path: RegExp; again?: boolean }[]
}

const gitlabMergeRequest = `/api/v4/projects/${GITLAB_PROJECT}/merge_requests/${MERGE_REQUEST_IID}`
const bitbucketRepository = `/2.0/repositories/${REPOSITORY}`
const serverReports = `/rest/insights/1.0/projects/${SERVER_PROJECT}/repos/${SERVER_REPOSITORY}/commits/[0-9a-f]{40}/reports/[^/?]+`
const azurePullRequest = `/org/${AZURE_PROJECT}/_apis/git/repositories/${AZURE_REPOSITORY}/pullRequests/${AZURE_PULL_REQUEST}`

const PLATFORMS: Platform[] = [
  {
    name: 'GitLab',
    token: 'glpat-fake-token',
    async start() {
      const fake = await startFakeGitLab({
        diffs: [{ old_path: 'src/app.ts', new_path: 'src/app.ts', diff: addingLines(3, 6) }]
      })
      return { address: fake.url, stop: () => fake.stop() }
    },
    pointedAt: (address) => ({
      args: [],
      env: {
        GITLAB_TOKEN: 'glpat-fake-token',
        CI_API_V4_URL: address,
        CI_PROJECT_ID: GITLAB_PROJECT,
        CI_PROJECT_URL: 'http://gitlab.example/acme/shop',
        CI_COMMIT_SHA: DIFF_REFS.head_sha,
        CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID,
        CI_PIPELINE_ID: '812'
      }
    }),
    endpoints: [
      { method: 'POST', path: new RegExp(`^/api/v4/projects/${GITLAB_PROJECT}/statuses/`) },
      { method: 'GET', path: /^\/api\/v4\/user(\?|$)/, again: true },
      { method: 'GET', path: new RegExp(`^${gitlabMergeRequest}(\\?|$)`) },
      { method: 'GET', path: new RegExp(`^${gitlabMergeRequest}/diffs`) },
      { method: 'POST', path: new RegExp(`^${gitlabMergeRequest}/notes`) },
      { method: 'PUT', path: new RegExp(`^${gitlabMergeRequest}/notes/`), again: true },
      { method: 'GET', path: new RegExp(`^${gitlabMergeRequest}/discussions`) },
      { method: 'GET', path: new RegExp(`^${gitlabMergeRequest}/draft_notes(\\?|$)`) },
      { method: 'POST', path: new RegExp(`^${gitlabMergeRequest}/draft_notes$`) },
      { method: 'POST', path: new RegExp(`^${gitlabMergeRequest}/draft_notes/bulk_publish`) },
      { method: 'PUT', path: new RegExp(`^${gitlabMergeRequest}/discussions/`), again: true }
    ]
  },
  {
    name: 'Bitbucket',
    token: BITBUCKET_TOKEN,
    async start() {
      const fake = await startFakeBitbucketCloud()
      return { address: fake.url, stop: () => fake.stop() }
    },
    pointedAt: (address) => ({
      args: [],
      env: {
        BITBUCKET_TOKEN,
        BITBUCKET_API_URL: address,
        BITBUCKET_REPO_FULL_NAME: REPOSITORY,
        BITBUCKET_COMMIT: COMMIT,
        BITBUCKET_PR_ID: PULL_REQUEST,
        BITBUCKET_BRANCH: 'feature/login'
      }
    }),
    endpoints: [
      { method: 'POST', path: new RegExp(`^${bitbucketRepository}/commit/[0-9a-f]+/statuses/`) },
      { method: 'DELETE', path: new RegExp(`^${bitbucketRepository}/commit/[0-9a-f]+/reports/`) },
      { method: 'PUT', path: new RegExp(`^${bitbucketRepository}/commit/[0-9a-f]+/reports/`) },
      { method: 'POST', path: /\/annotations(\?|$)/ },
      { method: 'GET', path: /\/pullrequests\/\d+\/comments/ },
      { method: 'POST', path: /\/pullrequests\/\d+\/comments/ },
      // An access token (the fake's default) is shown no account: its comment is written anew
      // and its earlier one deleted, never edited (the ownership rule).
      { method: 'DELETE', path: /\/pullrequests\/\d+\/comments\/\d+/, again: true }
    ]
  },
  {
    name: 'Bitbucket',
    token: SERVER_TOKEN,
    async start() {
      const fake = await startFakeBitbucketServer()
      return { address: fake.url, stop: () => fake.stop() }
    },
    pointedAt: (address) => ({
      args: [
        '--bitbucket-server',
        address,
        '--bitbucket-project',
        SERVER_PROJECT,
        '--bitbucket-repo',
        SERVER_REPOSITORY
      ],
      env: {
        BITBUCKET_TOKEN: SERVER_TOKEN,
        JENKINS_URL: 'https://jenkins.example.com/',
        EXECUTOR_NUMBER: '1',
        GIT_COMMIT: 'c'.repeat(40),
        BRANCH_NAME: 'main'
      }
    }),
    endpoints: [
      { method: 'DELETE', path: new RegExp(`^${serverReports}$`), again: true },
      { method: 'PUT', path: new RegExp(`^${serverReports}$`) },
      { method: 'POST', path: new RegExp(`^${serverReports}/annotations$`) },
      { method: 'POST', path: /^\/rest\/api\/latest\/.*\/builds$/ }
    ]
  },
  {
    name: 'Azure DevOps',
    token: AZURE_TOKEN,
    async start() {
      const fake = await startFakeAzureDevOps({ changed: ['src/app.ts', 'src/db/query.ts'] })
      return { address: fake.collection, stop: () => fake.stop() }
    },
    pointedAt: (address) => ({
      args: [],
      env: {
        SYSTEM_ACCESSTOKEN: AZURE_TOKEN,
        TF_BUILD: 'True',
        SYSTEM_COLLECTIONURI: address,
        SYSTEM_TEAMPROJECT: AZURE_PROJECT,
        BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
        SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
        BUILD_SOURCEVERSION: 'a'.repeat(40)
      }
    }),
    endpoints: [
      { method: 'POST', path: new RegExp(`^${azurePullRequest}/statuses\\?`) },
      { method: 'GET', path: new RegExp(`^${azurePullRequest}/iterations\\?`) },
      { method: 'GET', path: new RegExp(`^${azurePullRequest}/iterations/\\d+/changes\\?`) },
      { method: 'GET', path: new RegExp(`^${azurePullRequest}/threads\\?`) },
      { method: 'POST', path: new RegExp(`^${azurePullRequest}/threads\\?`) },
      {
        method: 'PATCH',
        path: new RegExp(`^${azurePullRequest}/threads/\\d+/comments/\\d+\\?`),
        again: true
      },
      { method: 'PATCH', path: new RegExp(`^${azurePullRequest}/threads/\\d+\\?`), again: true }
    ]
  }
]

/** Which platform a case is about, for its title: Bitbucket Cloud and Data Center apart. */
const titleOf = (platform: Platform) =>
  platform.token === SERVER_TOKEN
    ? 'Bitbucket Data Center'
    : platform.token === BITBUCKET_TOKEN
      ? 'Bitbucket Cloud'
      : platform.name

const GATES = [
  { gate: 'passing', exitCode: 0, verdict: /Quality Gate status: OK/ },
  { gate: 'failing', exitCode: 1, verdict: /Quality Gate Failure/ }
] as const

let cases = 0

/**
 * The analysis of a gate for a project of the case's own: the simulator answers a project's
 * issues and measures from its newest analysis, and the cases run side by side.
 */
async function analysisOf(
  gate: 'passing' | 'failing',
  projectKey: string
): Promise<AnalysisScript> {
  return gate === 'passing'
    ? { ...(await scenario('done')), projectKey }
    : { ...(await scenario('gate-error')), finishAfterMs: 0, projectKey }
}

/** The API's address with another origin: the front's, or a port nothing listens on. */
function through(address: string, origin: string): string {
  const url = new URL(address)
  return `${origin}${url.pathname}${url.search}`
}

/**
 * The command with --decorate on `platform` at `address`, on a fresh checkout of `gate` for
 * `projectKey`.
 */
async function decorate(
  platform: Platform,
  address: string,
  gate: 'passing' | 'failing',
  projectKey: string
): Promise<Exit> {
  const ws = await server.checkoutIn(
    await createWorkspace('gate-e2e-'),
    await analysisOf(gate, projectKey)
  )
  const { args, env } = platform.pointedAt(address)
  try {
    return await timeChild(
      node,
      [CLI_ENTRY, ...QUICK, '--timeout', String(TIMEOUT_S), '--decorate', ...args],
      {
        cwd: ws.cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SONAR_TOKEN: TOKEN, ...env },
        killAfterMs: (TIMEOUT_S + ALLOWANCE_S) * 1000 + 20_000
      }
    )
  } finally {
    await ws.remove()
  }
}

/** What every run holds to, whatever the platform did. */
function expectTheGatesVerdict(
  result: Exit,
  platform: Platform,
  gate: (typeof GATES)[number],
  warnings = 1
): void {
  const said = `${result.stderr}\n${result.stdout}`
  const context = `exit ${result.exitCode} after ${Math.round(result.ms)} ms:\n${said}`
  expect(result.exitCode, context).toBe(gate.exitCode)
  expect(result.stderr, context).toMatch(gate.verdict)
  const lines = result.stderr.split('\n')
  expect(
    lines.filter((line) => line.startsWith('error:') && !gate.exitCode),
    context
  ).toEqual([])
  const aboutThePlatform = lines.filter(
    (line) => line.startsWith('warning:') && line.includes(platform.name)
  )
  expect(aboutThePlatform, context).toHaveLength(warnings)
  expect(result.ms, context).toBeLessThan((TIMEOUT_S + ALLOWANCE_S) * 1000 + START_UP_MS)
  expect(said).not.toContain(TOKEN)
  expect(said).not.toContain(platform.token)
}

/**
 * Whether the fault can be seen at all: Bitbucket Data Center's decoration reads no field of any
 * reply (it writes a report, its annotations and a build status), so `{}` is as good an answer
 * as the real one.
 */
const seen = (platform: Platform, fault: FrontFault | 'refused') =>
  !(platform.token === SERVER_TOKEN && fault === 'no-fields')

describe.concurrent('a decoration never changes the verdict or the exit code', () => {
  for (const platform of PLATFORMS) {
    describe.concurrent(titleOf(platform), () => {
      for (const fault of ['refused', ...FRONT_FAULTS] as const) {
        for (const gate of GATES) {
          it(
            `${String(fault)} on every request, a ${gate.gate} gate: exit ${gate.exitCode}, the verdict, one warning`,
            { timeout: (TIMEOUT_S + ALLOWANCE_S) * 1000 + 40_000 },
            async () => {
              const fake = await platform.start()
              let front: FaultyFront | undefined
              try {
                let origin: string
                if (fault === 'refused') {
                  origin = `http://127.0.0.1:${await closedPort()}`
                } else {
                  front = await startFaultyFront(new URL(fake.address).origin, fault)
                  origin = front.url
                }
                const result = await decorate(
                  platform,
                  through(fake.address, origin),
                  gate.gate,
                  `shop-${++cases}`
                )
                expectTheGatesVerdict(result, platform, gate, seen(platform, fault) ? 1 : 0)
                if (front) expect(front.faulted).toBeGreaterThan(0)
              } finally {
                await front?.close()
                await fake.stop()
              }
            }
          )
        }
      }

      for (const endpoint of platform.endpoints) {
        const name = `${endpoint.method} ${endpoint.path.source}`
        it(
          `a page that is not JSON from ${name} alone${endpoint.again ? ' (on the run after a first)' : ''}: the verdict, one warning`,
          { timeout: 60_000 },
          async () => {
            const fake = await platform.start()
            let armed = !endpoint.again
            const front = await startFaultyFront(
              new URL(fake.address).origin,
              'not-json',
              (method, path) => armed && method === endpoint.method && endpoint.path.test(path)
            )
            const projectKey = `shop-${++cases}`
            try {
              const address = through(fake.address, front.url)
              if (endpoint.again) {
                // A failing gate first, so the run after it edits, resolves or closes.
                const first = await decorate(platform, address, 'failing', projectKey)
                expectTheGatesVerdict(first, platform, GATES[1], 0)
                armed = true
              }
              const gate = endpoint.again ? GATES[0] : GATES[1]
              const result = await decorate(platform, address, gate.gate, projectKey)
              expect(front.faulted, result.stderr).toBeGreaterThan(0)
              expectTheGatesVerdict(result, platform, gate)
            } finally {
              await front.close()
              await fake.stop()
            }
          }
        )
      }
    })
  }
})
