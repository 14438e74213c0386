/**
 * How many requests `--decorate` sends each review platform: the built command (dist/cli.js, or
 * `--cli <path>`: another build, to compare with an earlier commit's) against the simulator and
 * each platform's loopback fake (shaped from its REST description), on a first run on the pull
 * or merge request (nothing written yet: the costliest), with 10 and with 1,000 new issues on
 * lines the review adds, and the default --inline-limit (10). Requests are counted by the fake;
 * those that carry the issues (inline comments, a report's annotations) are counted apart. A platform a build cannot
 * decorate is said so.
 *
 * `npm run bench:requests -- --cli ../earlier/dist/cli.js`
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import {
  CLI_ENTRY,
  createWorkspace,
  nodeBinary,
  timeChild,
  type Workspace
} from '../__fixtures__/built-action.js'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  startFakeAzureDevOps
} from '../__fixtures__/azure/fake-azure-devops.js'
import {
  BITBUCKET_TOKEN,
  COMMIT,
  PULL_REQUEST,
  REPOSITORY,
  startFakeBitbucketCloud
} from '../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import { diffAdding, FakeGitea, giteaOptions } from '../__fixtures__/gitea/fake-gitea.js'
import { FakeGitHub, HEAD_SHA, NUMBER } from '../__fixtures__/github/fake-github.js'
import {
  addingLines,
  DIFF_REFS,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  startFakeGitLab
} from '../__fixtures__/gitlab/fake-gitlab.js'
import {
  SAMPLE_FILES,
  sampleIssues,
  Simulator,
  writeSampleFiles
} from '../__fixtures__/simulator/sonar-simulator.js'
import { REPORT_FILE, TOKEN } from './baselines.js'
import { printTable } from './stats.js'

const { values } = parseArgs({
  options: { cli: { type: 'string' }, node: { type: 'string' } }
})
const cli = values.cli ? path.resolve(values.cli) : CLI_ENTRY
const node = nodeBinary(values.node)

const SIZES = [10, 1000] as const

/** What one run sent the platform: every request, and those that start inline comments. */
interface Sent {
  requests: Array<{ method: string; path: string; body?: unknown }>
  inline: (request: { method: string; path: string; body?: unknown }) => boolean
}

/** A platform's fake, started for one run, and how the command is pointed at it. */
interface Platform {
  name: string
  start(): Promise<{
    env: Record<string, string>
    args: string[]
    sent(): Sent
    stop(): Promise<void>
  }>
}

// The sample issues stand on lines 3 to 42 of each sample file: every review adds 2 to 45.
const PLATFORMS: Platform[] = [
  {
    name: 'GitLab',
    async start() {
      const fake = await startFakeGitLab({
        diffs: SAMPLE_FILES.map((file) => ({
          old_path: file,
          new_path: file,
          diff: addingLines(1, 44)
        }))
      })
      return {
        env: {
          GITLAB_TOKEN: 'glpat-fake-token',
          GITLAB_CI: 'true',
          CI_API_V4_URL: fake.url,
          CI_PROJECT_ID: GITLAB_PROJECT,
          CI_COMMIT_SHA: DIFF_REFS.head_sha,
          CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID
        },
        args: [],
        sent: () => ({
          requests: fake.requests,
          inline: ({ method, path }) =>
            method === 'POST' && (path.endsWith('/discussions') || path.endsWith('/draft_notes'))
        }),
        stop: () => fake.stop()
      }
    }
  },
  {
    name: 'Bitbucket Cloud',
    async start() {
      const fake = await startFakeBitbucketCloud()
      return {
        env: {
          BITBUCKET_API_URL: fake.url,
          BITBUCKET_REPO_FULL_NAME: REPOSITORY,
          BITBUCKET_COMMIT: COMMIT,
          BITBUCKET_PR_ID: PULL_REQUEST,
          BITBUCKET_TOKEN
        },
        args: [],
        sent: () => ({
          requests: fake.requests,
          inline: ({ method, path }) => method === 'POST' && path.endsWith('/annotations')
        }),
        stop: () => fake.stop()
      }
    }
  },
  {
    name: 'Azure DevOps',
    async start() {
      const fake = await startFakeAzureDevOps({ changed: [...SAMPLE_FILES] })
      return {
        env: {
          SYSTEM_COLLECTIONURI: fake.collection,
          SYSTEM_TEAMPROJECT: AZURE_PROJECT,
          BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
          SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
          BUILD_SOURCEVERSION: HEAD_SHA,
          SYSTEM_ACCESSTOKEN: AZURE_TOKEN
        },
        args: [],
        sent: () => ({
          requests: fake.requests,
          // The issues' threads: those carrying an issue's property (not the verdict's).
          inline: ({ method, path, body }) =>
            method === 'POST' &&
            path.endsWith('/threads') &&
            JSON.stringify(body).includes('sonarqube.issue')
        }),
        stop: () => fake.stop()
      }
    }
  },
  githubFromJenkins('GitHub (from Jenkins)', 'ghp_fakeToken0123456789abcdefghijklmnopqrs'),
  // An installation token: a check run per project, whose annotations carry the issues too.
  githubFromJenkins("GitHub, an app's token", 'ghs_fakeToken0123456789abcdefghijklmnopqrs'),
  {
    name: 'Gitea (from Jenkins)',
    async start() {
      const fake = new FakeGitea({
        diff: diffAdding(Object.fromEntries(SAMPLE_FILES.map((file) => [file, [1, 44]])))
      })
      await fake.start()
      return {
        env: {
          JENKINS_URL: 'https://jenkins.example.com/',
          EXECUTOR_NUMBER: '1',
          GIT_COMMIT: HEAD_SHA,
          GITEA_TOKEN: 'gitea-token'
        },
        args: giteaOptions(fake),
        sent: () => ({
          requests: fake.requests,
          inline: ({ method, path }) => method === 'POST' && path.endsWith('/reviews')
        }),
        stop: () => fake.stop()
      }
    }
  }
]

/** GitHub from Jenkins, with a personal token (statuses) or an installation token (check runs). */
function githubFromJenkins(name: string, token: string): Platform {
  return {
    name,
    async start() {
      const fake = new FakeGitHub()
      fake.account = { login: 'sonar-bot', id: 4242, type: 'User' }
      fake.files = SAMPLE_FILES.map((filename) => ({
        filename,
        status: 'modified',
        patch: `@@ -1,0 +2,44 @@\n${Array.from({ length: 44 }, () => '+x').join('\n')}`
      }))
      await fake.start()
      return {
        env: {
          JENKINS_URL: 'https://jenkins.example.com/',
          EXECUTOR_NUMBER: '1',
          CHANGE_URL: `https://github.com/octo/shop/pull/${NUMBER}`,
          CHANGE_ID: String(NUMBER),
          GIT_COMMIT: HEAD_SHA,
          GITHUB_API_URL: fake.url,
          GITHUB_TOKEN: token
        },
        args: [],
        sent: () => ({
          requests: fake.requests.map(({ method, url }) => ({ method, path: url })),
          inline: ({ method, path }) =>
            (method === 'POST' && path.endsWith('/reviews')) || path.includes('/check-runs')
        }),
        stop: () => fake.stop()
      }
    }
  }
}

const simulator = await Simulator.start({ token: TOKEN })
const workspaces = new Map<number, Workspace>()
const rows: string[][] = []
try {
  for (const size of SIZES) {
    const workspace = await createWorkspace('sonar-bench-')
    await writeSampleFiles(workspace.cwd)
    const analysis = simulator.addAnalysis({
      finishAfterMs: 0,
      taskStatus: 'SUCCESS',
      projectStatus: { status: 'OK', conditions: [] },
      projectKey: `bench-requests-${size}`,
      issues: sampleIssues(size)
    })
    await simulator.writeReportFile(analysis, workspace.file(REPORT_FILE))
    await writeFile(workspace.file('../event.json'), '{}')
    workspaces.set(size, workspace)
  }
  for (const platform of PLATFORMS) {
    for (const size of SIZES) {
      const fake = await platform.start()
      try {
        const run = await timeChild(
          node,
          [cli, '--initial-delay', '0', '--decorate', ...fake.args],
          {
            cwd: workspaces.get(size)!.cwd,
            env: { HOME: process.env['HOME'], SONAR_TOKEN: TOKEN, ...fake.env },
            killAfterMs: 60_000
          }
        )
        const { requests, inline } = fake.sent()
        const decorated =
          run.exitCode === 0 &&
          requests.length > 0 &&
          !/nothing is decorated|unknown option/i.test(run.stderr)
        rows.push([
          platform.name,
          String(size),
          decorated ? String(requests.length) : 'not decorated',
          decorated ? String(requests.filter(inline).length) : '',
          run.exitCode === 0 ? '' : `exit ${run.exitCode}`
        ])
      } finally {
        await fake.stop()
      }
    }
  }
} finally {
  await simulator.stop()
  for (const workspace of workspaces.values()) await workspace.remove()
}

console.log(`\n${cli} on ${node}\n`)
printTable(
  ['platform', 'new issues', 'requests', 'of which carry the issues (comments, annotations)', ''],
  rows
)
