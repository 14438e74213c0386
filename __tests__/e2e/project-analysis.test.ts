/**
 * A project's analysis checked by project (projectKey; the command's --project) without a report
 * file: the built action, from each event's defaults, and the built command, against the
 * simulator's project scenarios. Each test asserts the verdict, how the step ended, the log lines
 * that say what was waited for, the outputs, and the requests the simulator saw: at most two a
 * poll (the analyses, then the tasks while the commit's analysis is not among them), none once
 * it is found. And the simulator's replies themselves, against the server's own examples.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { CLI_ENTRY, REPO, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  componentTasksExample,
  projectAnalysesExample
} from '../../__fixtures__/sonarqube/index.js'
import {
  FEATURE_BRANCH,
  PROJECT_COMMITS,
  projectScenario,
  Simulator,
  sonarDate,
  type Analysis,
  type AnalysisScript,
  type RecordedRequest
} from '../../__fixtures__/simulator/sonar-simulator.js'
import type { Generation } from '../../__fixtures__/simulator/sonar-generations.js'
import { annotations, RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

/** Polls four times a second: the waits below last a few seconds. */
const POLL_MS = '250'

const short = (sha: string) => sha.slice(0, 7)
const { login1, login2, main2, pullRequestHead, pullRequestMerge } = PROJECT_COMMITS

/** The date the simulator gives an analysis: when its scan ran. */
const dateOf = (analysis: Analysis) =>
  sonarDate(analysis.addedAt - (analysis.script.scannedAgoMs ?? 0))

/** The log's lines, without the token masks. */
const lines = (stdout: string) =>
  stdout.split(/\r?\n/).filter((line) => !line.startsWith('::add-mask::'))

/**
 * The requests until the gate's read, that one included: what comes after it (the new issues,
 * what changed) reads the analysis found and is no part of the wait.
 */
function untilTheGate(requests: readonly RecordedRequest[]): RecordedRequest[] {
  const gate = requests.findIndex(
    (request) =>
      request.url.startsWith('/api/qualitygates/project_status?') ||
      request.url.includes('metricKeys=alert_status')
  )
  return gate === -1 ? [...requests] : requests.slice(0, gate + 1)
}

/**
 * The requests of a wait, poll by poll: each poll lists the project's analyses, then may read
 * its tasks. Fails unless every poll is at most those two requests, in that order.
 */
function pollsIn(requests: readonly RecordedRequest[]): RecordedRequest[][] {
  const polls: RecordedRequest[][] = []
  for (const request of untilTheGate(requests)) {
    if (request.url.startsWith('/api/project_analyses/search?')) polls.push([request])
    else if (request.url.startsWith('/api/ce/component?')) {
      expect(polls.at(-1), 'a task read before any list of analyses').toBeDefined()
      polls.at(-1)!.push(request)
    }
  }
  for (const poll of polls) {
    expect(poll.map((request) => request.url.split('?')[0])).toEqual(
      poll.length === 1
        ? ['/api/project_analyses/search']
        : ['/api/project_analyses/search', '/api/ce/component']
    )
  }
  return polls
}

/**
 * The requests of a pull request's wait, poll by poll: each reads the project's tasks, then,
 * while none of the pull request's is pending, its pull requests. Fails unless every poll is at
 * most those two, in that order.
 */
function pullRequestPollsIn(requests: readonly RecordedRequest[]): RecordedRequest[][] {
  const polls: RecordedRequest[][] = []
  for (const request of untilTheGate(requests)) {
    if (request.url.startsWith('/api/ce/component?')) polls.push([request])
    else if (request.url.startsWith('/api/project_pull_requests/list?')) {
      expect(polls.at(-1), 'pull requests read before the tasks').toHaveLength(1)
      polls.at(-1)!.push(request)
    }
  }
  expect(requests.some((request) => request.url.startsWith('/api/project_analyses/search'))).toBe(
    false
  )
  return polls
}

/**
 * GitHub's `GET /repos/{owner}/{repo}/pulls` on loopback, answering `pulls` whatever the query,
 * recording each request's address and authorization.
 */
async function fakeGitHub(pulls: unknown[]) {
  const requests: { url: string; authorization: string | undefined }[] = []
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', authorization: request.headers.authorization })
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(pulls))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** An ISO 8601 time `ms` before now, to the second, as platforms write them. */
const isoAgo = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The log's form of a time given in ISO 8601. */
const logTime = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z')

describe.each(RUNTIMES)("checking a project's analysis by project, on $runtime", ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  let projects = 0
  /**
   * A project scenario under a key of its own, so a test sees its requests only; `change` edits
   * its analyses before they are added (all at one instant).
   */
  async function project(name: string, change?: (scripts: AnalysisScript[]) => AnalysisScript[]) {
    const played = await projectScenario(name, `shop-${++projects}`)
    const analyses = simulator.addAnalyses(change ? change(played.analyses) : played.analyses)
    const ids = new Set(analyses.map((analysis) => analysis.analysisId))
    const key = played.ask.projectKey
    return {
      ask: played.ask,
      analyses,
      expected: played.expected === undefined ? undefined : analyses[played.expected],
      /** What the simulator was asked about this project: by its key, or by its analyses' ids. */
      requests: () =>
        simulator.requests.filter((request) => {
          const params = new URL(request.url, simulator.url).searchParams
          return (
            ['project', 'component', 'componentKeys'].some((name) => params.get(name) === key) ||
            ids.has(params.get('analysisId') ?? '')
          )
        })
    }
  }

  /** The built action on `event`, its payload in the event file, for the project `projectKey`. */
  async function runOn(
    event: string,
    payload: unknown,
    options: { projectKey: string; env?: Record<string, string>; inputs?: Record<string, string> }
  ) {
    const ws: Workspace = await workspace()
    const eventPath = path.join(ws.root, 'event.json')
    await writeFile(eventPath, JSON.stringify(payload))
    return runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        sonarHostUrl: simulator.url,
        projectKey: options.projectKey,
        pollingIntervalMs: POLL_MS,
        ...options.inputs
      },
      env: {
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'acme/shop',
        ...options.env
      }
    })
  }

  describe('push: the pushed branch and GITHUB_SHA', () => {
    it("waits while the commit's task is queued and in progress, then reads its analysis", async () => {
      const shop = await project('project-commit')
      const found = shop.expected!

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 }
        }
      )

      expect(run.exitCode).toBe(0)
      expect(annotations(run.stdout, 'error')).toEqual([])
      const log = lines(run.stdout)
      expect(log).toContain(
        `Checking the analysis of ${short(login2)} on branch ${FEATURE_BRANCH}, as the push event says.`
      )
      expect(log).toContain(
        `::group::Waiting for the analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}`
      )
      // Said once, while the task is queued and while it runs: what is waited for did not change.
      expect(log.filter((line) => line.startsWith(`No analysis of ${short(login2)}`))).toEqual([
        `No analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} yet; 1 pending.`
      ])
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(login2)}, ${dateOf(found)}.`)
      expect(log).toContain('Quality Gate status: OK')
      expect(run.outputs).toMatchObject({
        status: 'OK',
        analysisId: found.analysisId,
        taskId: '',
        branch: FEATURE_BRANCH,
        pullRequest: '',
        dashboardUrl: `${simulator.url}/dashboard?id=${shop.ask.projectKey}&branch=feature%2Flogin`
      })

      const requests = shop.requests()
      const polls = pollsIn(requests)
      expect(polls[0]![0]!.url).toBe(
        `/api/project_analyses/search?project=${shop.ask.projectKey}&branch=feature%2Flogin&ps=100`
      )
      // Every poll but the last read the tasks; the last found the analysis, read nothing more
      // of the wait, and came once it had landed.
      expect(polls.length).toBeGreaterThanOrEqual(3)
      expect(polls.slice(0, -1).every((poll) => poll.length === 2)).toBe(true)
      expect(polls.at(-1)).toHaveLength(1)
      expect(polls.at(-2)![0]!.at).toBeLessThan(found.finishesAt)
      expect(polls.at(-1)![0]!.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
      const afterFound = requests.slice(requests.indexOf(polls.at(-1)![0]!) + 1)
      expect(afterFound.map((request) => request.url.split('?')[0])).not.toContain(
        '/api/project_analyses/search'
      )
      expect(afterFound.map((request) => request.url.split('?')[0])).not.toContain(
        '/api/ce/component'
      )
      expect(afterFound[0]?.url).toBe(
        `/api/qualitygates/project_status?analysisId=${found.analysisId}`
      )
    })

    it("a new branch's first push: its analyses listed empty (not a 404) until its first lands", async () => {
      // The server creates a branch when its first scan is submitted.
      const shop = await project('project-commit', (scripts) =>
        scripts.map((script, index) =>
          index === 4 ? { ...script, branch: 'feature/signup' } : script
        )
      )
      const found = shop.expected!

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/feature/signup', GITHUB_SHA: login2 }
        }
      )

      expect(run.exitCode).toBe(0)
      expect(lines(run.stdout)).toContain(
        `No analysis of ${short(login2)} of ${shop.ask.projectKey} on branch feature/signup yet; 1 pending.`
      )
      expect(run.outputs).toMatchObject({ status: 'OK', analysisId: found.analysisId })
      const polls = pollsIn(shop.requests())
      expect(polls.slice(0, -1).every((poll) => poll.length === 2)).toBe(true)
      expect(polls.at(-1)).toHaveLength(1)
    })

    it('a branch the server does not know: waited for (its first scan may be coming), then the branches it has', async () => {
      const shop = await project('project-unknown-branch')

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/no-such-branch', GITHUB_SHA: login2 },
          inputs: { pollingTimeoutSec: '2' }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(lines(run.stdout)).toContain(
        `The server has no branch no-such-branch of ${shop.ask.projectKey} yet: waiting for its first analysis (or check the branch input); 0 pending.`
      )
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toMatch(
        `waiting for the analysis of ${short(login2)} of ${shop.ask.projectKey} on branch no-such-branch: The project ${shop.ask.projectKey} has no branch "no-such-branch" on the server: it has "main", "${FEATURE_BRANCH}".`
      )
      expect(run.outputs['analysisId']).toBeUndefined()
    })

    it('a branch the server does not know, no commit awaited: said at once, with the branches it has', async () => {
      const shop = await project('project-unknown-branch')

      const run = await runOn(
        'workflow_dispatch',
        {},
        {
          projectKey: shop.ask.projectKey,
          inputs: { branch: 'no-such-branch' }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        `The project ${shop.ask.projectKey} has no branch "no-such-branch" on the server: it has "main", "${FEATURE_BRANCH}". Check the branch input; a server that analyses one branch only (Community Edition) has its main branch alone.`
      ])
      expect(shop.requests().map((request) => request.url)).toEqual([
        `/api/ce/component?component=${shop.ask.projectKey}`,
        `/api/project_analyses/search?project=${shop.ask.projectKey}&branch=no-such-branch&ps=100`,
        `/api/project_branches/list?project=${shop.ask.projectKey}`
      ])
    })

    it('analyses that record no commit: said at once, with what to do', async () => {
      const shop = await project('project-no-revision')

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        `The analyses of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} record no commit (scans without SCM data, e.g. no .git folder or sonar.scm.disabled): the analysis of ${short(login2)} cannot be told from the others. Run the scan with the repository's history, or leave commit out to check the newest analysis.`
      ])
      expect(shop.requests()).toHaveLength(1)
    })
  })

  describe('pull_request: the pull request and its head or merge commit', () => {
    /** The event file of pull request 42 at its head; GITHUB_SHA is its merge commit. */
    const pullRequest42 = { pull_request: { number: 42, head: { sha: pullRequestHead } } }

    it("waits for the pull request's analysis made after its last update, not its earlier one", async () => {
      const shop = await project('project-pull-request')
      const found = shop.expected!
      const updatedAt = isoAgo(60_000)

      const run = await runOn(
        'pull_request',
        { pull_request: { ...pullRequest42.pull_request, updated_at: updatedAt } },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/pull/42/merge', GITHUB_SHA: pullRequestMerge }
        }
      )

      // Its gate fails where the pull request's earlier analysis passed: the verdict is the new one's.
      expect(run.exitCode).toBe(1)
      const log = lines(run.stdout)
      expect(log).toContain(
        "Checking the newest analysis on pull request 42 made after the pull request's last update, as the pull_request event says."
      )
      expect(log).toContain(
        `::group::Waiting for the newest analysis of ${shop.ask.projectKey} on pull request 42`
      )
      expect(log).toContain(
        `No analysis of ${shop.ask.projectKey} on pull request 42 since ${logTime(updatedAt)} (the pull request's last update) yet; 1 pending.`
      )
      expect(log).toContain(
        `Taking the newest analysis of ${shop.ask.projectKey} on pull request 42, ${dateOf(found)}: made after the pull request's last update (${logTime(updatedAt)}).`
      )
      expect(run.outputs).toMatchObject({
        status: 'ERROR',
        analysisId: found.analysisId,
        pullRequest: '42'
      })
      expect(annotations(run.stdout, 'error')[0]).toMatch(/^Quality Gate Failure/)
      const requests = shop.requests()
      const polls = pullRequestPollsIn(requests)
      expect(polls.every((poll) => poll.length <= 2)).toBe(true)
      // None once found: the gate of the analysis the last task names, then its issues and what
      // changed (its figures, the target branch's from the pull requests' list, its hotspots).
      const after = requests.slice(requests.indexOf(polls.at(-1)!.at(-1)!) + 1)
      const paths = after.map((request) => request.url.split('?')[0])
      expect(paths[0]).toBe('/api/qualitygates/project_status')
      expect(paths.slice(1).sort()).toEqual([
        '/api/issues/search',
        '/api/measures/component',
        '/api/measures/component',
        '/api/measures/component',
        '/api/project_pull_requests/list'
      ])
      expect(polls.at(-1)![0]!.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
    })

    it("without the event's time: its newest settled analysis, said in the log not to be confirmed", async () => {
      const shop = await project('project-pull-request')
      const found = shop.expected!

      const run = await runOn('pull_request', pullRequest42, {
        projectKey: shop.ask.projectKey,
        env: { GITHUB_REF: 'refs/pull/42/merge', GITHUB_SHA: pullRequestMerge }
      })

      // Its task is queued at once: the wait still ends with the new analysis.
      expect(run.outputs).toMatchObject({ status: 'ERROR', analysisId: found.analysisId })
      expect(lines(run.stdout)).toContain(
        `Taking the newest analysis of ${shop.ask.projectKey} on pull request 42, ${dateOf(found)}: not confirmed to be this run's: the server records no commit for a pull request's analysis, and the run did not say when its scan started.`
      )
      expect(run.summary).toContain(`pull request <code>42</code>`)
      expect(run.summary).toContain(
        `analysis <code>${found.analysisId}</code> (${dateOf(found)}: not confirmed to be this run&#39;s:`
      )
    })

    it("with branch and commit given (the head's and the merge commit): the head branch's analysis of either", async () => {
      const shop = await project('project-commit')
      const found = shop.expected!

      const run = await runOn(
        'pull_request',
        { pull_request: { number: 42, head: { sha: login2 } } },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/pull/42/merge', GITHUB_SHA: pullRequestMerge },
          inputs: { branch: FEATURE_BRANCH, commit: `${login2} ${pullRequestMerge}` }
        }
      )

      expect(run.exitCode).toBe(0)
      const log = lines(run.stdout)
      // The inputs win: no line says what the event would have given.
      expect(log.filter((line) => line.startsWith('Checking '))).toEqual([])
      expect(log).toContain(
        `::group::Waiting for the analysis of ${short(login2)} or ${short(pullRequestMerge)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}`
      )
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(login2)}, ${dateOf(found)}.`)
      expect(run.outputs).toMatchObject({ status: 'OK', analysisId: found.analysisId })
      const polls = pollsIn(shop.requests())
      expect(polls.at(-1)).toHaveLength(1)
      expect(polls.at(-1)![0]!.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
    })
  })

  describe("workflow_run: the triggering run's", () => {
    it('after a push: its branch and head commit, not GITHUB_SHA', async () => {
      const shop = await project('project-commit')
      const found = shop.expected!

      const run = await runOn(
        'workflow_run',
        {
          workflow_run: {
            event: 'push',
            head_sha: login2,
            head_branch: FEATURE_BRANCH,
            pull_requests: []
          }
        },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2 }
        }
      )

      expect(run.exitCode).toBe(0)
      expect(lines(run.stdout)).toContain(
        `Checking the analysis of ${short(login2)} on branch ${FEATURE_BRANCH}, as the workflow_run event says.`
      )
      expect(run.outputs).toMatchObject({ status: 'OK', analysisId: found.analysisId })
      const polls = pollsIn(shop.requests())
      expect(polls[0]![0]!.url).toContain('&branch=feature%2Flogin&')
      expect(polls.at(-1)).toHaveLength(1)
    })

    it('after a pull request GitHub names: its analysis made after the triggering run was created', async () => {
      const shop = await project('project-pull-request')
      const found = shop.expected!

      const run = await runOn(
        'workflow_run',
        {
          workflow_run: {
            event: 'pull_request',
            head_sha: pullRequestHead,
            head_branch: FEATURE_BRANCH,
            created_at: isoAgo(120_000),
            pull_requests: [{ number: 42, head: { sha: pullRequestHead } }]
          }
        },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2 }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(lines(run.stdout)).toContain(
        "Checking the newest analysis on pull request 42 made after the triggering run's creation, as the workflow_run event says."
      )
      expect(run.outputs).toMatchObject({ status: 'ERROR', analysisId: found.analysisId })
      pullRequestPollsIn(shop.requests())
    })

    it("after a fork's pull request, which GitHub does not name: found through GitHub's API by the fork's branch", async () => {
      const shop = await project('project-pull-request')
      const found = shop.expected!
      const github = await fakeGitHub([
        { number: 41, head: { sha: pullRequestMerge } },
        { number: 42, head: { sha: pullRequestHead } }
      ])
      onTestFinished(() => github.stop())

      const run = await runOn(
        'workflow_run',
        {
          workflow_run: {
            event: 'pull_request',
            head_sha: pullRequestHead,
            head_branch: 'main',
            head_repository: { owner: { login: 'octo-fork' } },
            created_at: isoAgo(120_000),
            pull_requests: []
          }
        },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2, GITHUB_API_URL: github.url },
          inputs: { githubToken: 'ghs_forkLookupToken' }
        }
      )

      expect(run.outputs).toMatchObject({ status: 'ERROR', analysisId: found.analysisId })
      expect(lines(run.stdout)).toContain(
        "Checking the newest analysis on pull request 42 made after the triggering run's creation, as the workflow_run event (its pull request found through GitHub's API) says."
      )
      expect(github.requests).toEqual([
        {
          url: '/repos/acme/shop/pulls?head=octo-fork%3Amain&state=open&per_page=100',
          authorization: 'token ghs_forkLookupToken'
        }
      ])
      // The GitHub token never reaches the Sonar server, nor the Sonar token GitHub.
      expect(simulator.requests.some((r) => r.authorization?.includes('ghs_forkLookupToken'))).toBe(
        false
      )
    })

    it("after a fork's pull request, without a GitHub token: refused, naming githubToken and pullRequest", async () => {
      const shop = await project('project-pull-request')

      const run = await runOn(
        'workflow_run',
        {
          workflow_run: {
            event: 'pull_request',
            head_sha: pullRequestHead,
            head_branch: 'main',
            head_repository: { owner: { login: 'octo-fork' } },
            pull_requests: []
          }
        },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2 },
          inputs: { githubToken: '' }
        }
      )

      expect(run.exitCode).toBe(1)
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toBe(
        "The triggering run is of a pull request from a fork, which GitHub does not name in the workflow_run event: set githubToken to let the action find it through GitHub's API, or pass pullRequest to say which pull request to check."
      )
      // Not the main branch's analysis instead: nothing is asked of the server.
      expect(shop.requests()).toEqual([])
    })
  })

  describe('workflow_dispatch: the newest analysis', () => {
    it("the main branch's newest, not a feature branch's newer one: its tasks (none pending), then its analyses", async () => {
      const shop = await project('project-newest')
      const found = shop.expected!

      const run = await runOn(
        'workflow_dispatch',
        { inputs: {} },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2 }
        }
      )

      expect(run.exitCode).toBe(0)
      const log = lines(run.stdout)
      expect(log).toContain(
        'Checking the newest analysis of the main branch, as the workflow_dispatch event says.'
      )
      expect(log).toContain(`::group::Waiting for the newest analysis of ${shop.ask.projectKey}`)
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(main2)}, ${dateOf(found)}.`)
      expect(run.outputs).toMatchObject({
        status: 'OK',
        analysisId: found.analysisId,
        branch: '',
        dashboardUrl: `${simulator.url}/dashboard?id=${shop.ask.projectKey}`
      })
      expect(untilTheGate(shop.requests())).toMatchObject([
        { url: `/api/ce/component?component=${shop.ask.projectKey}` },
        { url: `/api/project_analyses/search?project=${shop.ask.projectKey}&ps=100` },
        { url: `/api/qualitygates/project_status?analysisId=${found.analysisId}` }
      ])
    })

    it("a branch given, no commit, while its scan is queued: waits for that scan's analysis, not the one before it", async () => {
      const shop = await project('project-branch-queued')
      const found = shop.expected!
      const older = shop.analyses[2]!
      const otherPending = shop.analyses[5]!

      const run = await runOn(
        'workflow_dispatch',
        { inputs: {} },
        { projectKey: shop.ask.projectKey, inputs: { branch: FEATURE_BRANCH } }
      )

      // The queued scan's gate fails where the branch's earlier analysis passed.
      expect(run.exitCode).toBe(1)
      const log = lines(run.stdout)
      expect(log).toContain(
        `A scan of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} is queued or running: waiting for its analysis, the newest, rather than taking the one before it; 1 pending.`
      )
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(login2)}, ${dateOf(found)}.`)
      expect(run.outputs).toMatchObject({ status: 'ERROR', analysisId: found.analysisId })
      expect(shop.requests().map((request) => request.url)).not.toContain(
        `/api/qualitygates/project_status?analysisId=${older.analysisId}`
      )
      // Not held by the pull request's scan, queued with it and still pending.
      expect(run.exitedAt).toBeLessThan(otherPending.finishesAt)
      const gate = shop
        .requests()
        .find((request) => request.url.startsWith('/api/qualitygates/project_status?'))!
      expect(gate.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
    })

    it("an unknown project: the server's 404 in its words, at once", async () => {
      const shop = await project('project-unknown')

      const run = await runOn(
        'workflow_dispatch',
        { inputs: {} },
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main2 }
        }
      )

      expect(run.exitCode).toBe(1)
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toMatch(
        new RegExp(
          `^The server says: "Component key '${shop.ask.projectKey}' not found"\\. The server knows no project ${shop.ask.projectKey}: check the projectKey input`
        )
      )
      // No commit: the tasks are read first, and their 404 is the answer.
      expect(shop.requests().map((request) => request.url)).toEqual([
        `/api/ce/component?component=${shop.ask.projectKey}`
      ])
    })
  })

  describe('while the wait goes on', () => {
    it("a second analysis of the branch lands with the commit's: the commit's is read, not the newer one", async () => {
      const shop = await project('project-race')
      const [commits, newer] = [shop.analyses[4]!, shop.analyses[5]!]
      expect(shop.expected).toBe(commits)

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 }
        }
      )

      // The commit's gate passes; the newer analysis's (of another commit) fails.
      expect(run.exitCode).toBe(0)
      const log = lines(run.stdout)
      expect(log).toContain(
        `No analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} yet; 2 pending.`
      )
      expect(log).toContain(
        `Analysis ${commits.analysisId} of ${short(login2)}, ${dateOf(commits)} (a newer analysis of it has landed since).`
      )
      expect(run.outputs).toMatchObject({ status: 'OK', analysisId: commits.analysisId })
      expect(run.summary).toContain(`<code>${short(login2)}</code>`)
      expect(run.summary).toContain('a newer one has landed since')
      const requests = shop.requests()
      expect(requests.map((request) => request.url)).not.toContain(
        `/api/qualitygates/project_status?analysisId=${newer.analysisId}`
      )
      const polls = pollsIn(requests)
      expect(polls.at(-1)).toHaveLength(1)
      expect(polls.at(-1)![0]!.at).toBeGreaterThanOrEqual(commits.finishesAt - 2)
    })

    it("the branch's newest task fails: the step fails at once, with the server's message", async () => {
      const shop = await project('project-task-failed')
      const failed = shop.analyses[4]!

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        `The newest background task of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}, ${failed.taskId}, ended FAILED before the analysis of ${short(login2)} appeared: Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database. See the project's Background Tasks page on the server.`
      ])
      expect(run.outputs['analysisId']).toBeUndefined()
      // The first poll after the task failed was the last: well before the 60 s time-out.
      const polls = pollsIn(shop.requests())
      expect(polls.every((poll) => poll.length === 2)).toBe(true)
      expect(polls.at(-1)![1]!.at).toBeGreaterThanOrEqual(failed.finishesAt - 2)
      expect(polls.at(-2)![1]!.at).toBeLessThan(failed.finishesAt)
      expect(run.exitedAt - failed.finishesAt).toBeLessThan(5000)
    })

    it("the branch's task fails and another branch's ends after it: the failed one is read by its id, and the step fails", async () => {
      const shop = await project('project-task-failed-hidden')
      const failed = shop.analyses[4]!
      const other = shop.analyses[5]!

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        `The newest background task of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}, ${failed.taskId}, ended FAILED before the analysis of ${short(login2)} appeared: Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database. See the project's Background Tasks page on the server.`
      ])
      // Read alone, after the project's last task was seen to be the other branch's.
      const requests = simulator.requests.filter((request) =>
        request.url.startsWith(`/api/ce/task?id=${failed.taskId}`)
      )
      expect(requests).toHaveLength(1)
      expect(requests[0]!.at).toBeGreaterThanOrEqual(other.finishesAt)
      expect(run.exitedAt - other.finishesAt).toBeLessThan(5000)
    })

    // Fails on the product as it is: a task without a branch (the main branch's, scanned without
    // naming it, as always on Community Edition) is not counted as the main branch's when the
    // branch is named ("0 pending"), so its failure is missed and the step waits out its time-out.
    it('a push to the main branch whose task, naming no branch, fails: the step fails at once', async () => {
      const shop = await project('project-main-task-failed')
      const failed = shop.analyses[4]!
      const { main3 } = PROJECT_COMMITS

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main3 },
          inputs: { pollingTimeoutSec: '6' }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(lines(run.stdout)).toContain(
        `No analysis of ${short(main3)} of ${shop.ask.projectKey} on branch main yet; 1 pending.`
      )
      expect(annotations(run.stdout, 'error')).toEqual([
        `The newest background task of ${shop.ask.projectKey} on branch main, ${failed.taskId}, ended FAILED before the analysis of ${short(main3)} appeared: Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database. See the project's Background Tasks page on the server.`
      ])
      expect(run.exitedAt - failed.finishesAt).toBeLessThan(3000)
    })

    it('the time-out names the commit waited for and the newest revision there is', async () => {
      // The commit's task stays queued past the time-out.
      const shop = await project('project-commit', (scripts) =>
        scripts.map((script, index) =>
          index === 4 ? { ...script, finishAfterMs: 120_000 } : script
        )
      )
      const newest = shop.analyses[2]!

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 },
          inputs: { pollingTimeoutSec: '2' }
        }
      )

      expect(run.exitCode).toBe(1)
      const [error, ...more] = annotations(run.stdout, 'error')
      expect(more).toEqual([])
      expect(error).toMatch(/^Timed out after 2(\.\d)? s waiting for /)
      expect(error).toContain(
        ` waiting for the analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}: the newest is of ${short(login1)} (${dateOf(newest)}). `
      )
      expect(error).toMatch(/raise pollingTimeoutSec \(now 2(\.0)? s\)\.$/)
      const polls = pollsIn(shop.requests())
      expect(polls.every((poll) => poll.length === 2)).toBe(true)
      expect(polls.length).toBeGreaterThanOrEqual(4)
      // Nothing asked once the time was up: 2 s from the first poll, at the step's start.
      expect(polls.at(-1)!.at(-1)!.at - polls[0]![0]!.at).toBeLessThan(2200)
    })
  })

  describe('projectKey is one way to name the analysis', () => {
    it.each([
      ['scanMetadataReportFile', '.scannerwork/report-task.txt'],
      ['taskId', 'AYTask0001']
    ])('with %s too: refused, naming both', async (input, value) => {
      const shop = await project('project-commit')

      const run = await runOn(
        'push',
        {},
        {
          projectKey: shop.ask.projectKey,
          env: { GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`, GITHUB_SHA: login2 },
          // No token: the refusal comes before any request (and before the token is masked).
          inputs: { [input]: value, sonarToken: '' }
        }
      )

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        `Inputs projectKey and ${input} are both set: give the projects whose analyses to check, or ${input}, not both.`
      ])
      expect(shop.requests()).toEqual([])
      expect(simulator.requests.some((request) => request.url.includes(value))).toBe(false)
    })
  })

  describe('dist/cli.js', () => {
    it("in a GitLab merge-request pipeline: the merge request's analysis made after the pipeline's creation", async () => {
      const shop = await project('project-pull-request')
      const found = shop.expected!
      const ws = await workspace()
      const createdAt = new Date(Date.now() - 90_000).toISOString().replace(/\.\d{3}Z$/, '+00:00')

      const result = await timeChild(
        node,
        [
          CLI_ENTRY,
          '--host',
          simulator.url,
          '--project',
          shop.ask.projectKey,
          '--interval',
          POLL_MS
        ],
        {
          cwd: ws.cwd,
          env: {
            PATH: process.env['PATH'] ?? '/usr/bin:/bin',
            SONAR_TOKEN: TOKEN,
            GITLAB_CI: 'true',
            CI_MERGE_REQUEST_IID: '42',
            CI_COMMIT_SHA: pullRequestMerge,
            CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: pullRequestHead,
            CI_PIPELINE_CREATED_AT: createdAt
          },
          killAfterMs: 20_000
        }
      )

      expect(result.exitCode).toBe(1)
      const log = result.stderr.split('\n').map((line) => line.trim())
      expect(log).toContain(
        "Checking the newest analysis on merge request 42 made after the pipeline's creation, as GitLab CI says."
      )
      expect(log).toContain(
        `Taking the newest analysis of ${shop.ask.projectKey} on pull request 42, ${dateOf(found)}: made after the pipeline's creation (${logTime(createdAt)}).`
      )
      expect(result.stderr).toContain(`Quality Gate Failure for ${shop.ask.projectKey}`)
      expect(result.stderr).not.toContain(TOKEN)
      pullRequestPollsIn(shop.requests())
    })

    /** The built command with `args`, outside any CI, with the token. */
    async function command(args: string[]) {
      const ws = await workspace()
      return timeChild(node, [CLI_ENTRY, '--host', simulator.url, '--interval', POLL_MS, ...args], {
        cwd: ws.cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SONAR_TOKEN: TOKEN },
        killAfterMs: 20_000
      })
    }

    it("--project and --branch, no commit, while the branch's scan is queued: waits, and the verdict is the new analysis's", async () => {
      const shop = await project('project-branch-queued')
      const found = shop.expected!
      const older = shop.analyses[2]!

      const result = await command(['--project', shop.ask.projectKey, '--branch', FEATURE_BRANCH])

      // The new analysis's gate fails; the one before it passed.
      expect(result.exitCode).toBe(1)
      const log = result.stderr.split('\n').map((line) => line.trim())
      expect(log).toContain(
        `▸ Waiting for the newest analysis of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}`
      )
      expect(log).toContain(
        `A scan of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} is queued or running: waiting for its analysis, the newest, rather than taking the one before it; 1 pending.`
      )
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(login2)}, ${dateOf(found)}.`)
      expect(result.stderr).toContain(`Quality Gate Failure for ${shop.ask.projectKey}`)
      const requests = untilTheGate(shop.requests())
      expect(requests.at(-1)!.url).toBe(
        `/api/qualitygates/project_status?analysisId=${found.analysisId}`
      )
      expect(requests.map((request) => request.url)).not.toContain(
        `/api/qualitygates/project_status?analysisId=${older.analysisId}`
      )
      // The tasks each poll; the analyses once, after the scan's task ended.
      const listed = requests.filter((request) =>
        request.url.startsWith('/api/project_analyses/search?')
      )
      expect(listed).toHaveLength(1)
      expect(listed[0]!.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
      expect(
        requests.filter((request) => request.url.startsWith('/api/ce/component?')).length
      ).toBeGreaterThanOrEqual(3)
    })

    it("--project and --branch while the branch's scan stays queued past --timeout: a clear failure, exit 3", async () => {
      const shop = await project('project-branch-queued', (scripts) =>
        scripts.map((script, index) =>
          index === 4 ? { ...script, finishAfterMs: 120_000 } : script
        )
      )
      const queued = shop.analyses[4]!

      const result = await command([
        '--project',
        shop.ask.projectKey,
        '--branch',
        FEATURE_BRANCH,
        '--timeout',
        '2'
      ])

      expect(result.exitCode).toBe(3)
      expect(result.stderr).toMatch(
        new RegExp(
          `Timed out after 2(\\.\\d)? s waiting for the newest analysis of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH.replace('/', '\\/')}: its task ${queued.taskId} is still queued\\. The server has not processed its scan yet \\(see the Background Tasks page\\); raise --timeout \\(now 2(\\.0)? s\\)\\.`
        )
      )
      expect(result.stderr).not.toContain('Quality Gate status')
      expect(shop.requests().some((request) => request.url.startsWith('/api/qualitygates/'))).toBe(
        false
      )
    })

    it('--project, --branch and --commit given: the commit’s analysis once it lands', async () => {
      const shop = await project('project-commit')
      const found = shop.expected!
      const ws = await workspace()

      const result = await timeChild(
        node,
        [
          CLI_ENTRY,
          '--host',
          simulator.url,
          '--project',
          shop.ask.projectKey,
          '--branch',
          FEATURE_BRANCH,
          '--commit',
          login2,
          '--interval',
          POLL_MS,
          '--json',
          'gate.json'
        ],
        {
          cwd: ws.cwd,
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SONAR_TOKEN: TOKEN },
          killAfterMs: 20_000
        }
      )

      expect(result.exitCode).toBe(0)
      expect(result.stdout).toBe('')
      const log = result.stderr.split('\n').map((line) => line.trim())
      expect(log).toContain(
        `▸ Waiting for the analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH}`
      )
      expect(log).toContain(
        `No analysis of ${short(login2)} of ${shop.ask.projectKey} on branch ${FEATURE_BRANCH} yet; 1 pending.`
      )
      expect(log).toContain(`Analysis ${found.analysisId} of ${short(login2)}, ${dateOf(found)}.`)
      expect(log).toContain('Quality Gate status: OK')
      expect(result.stderr).not.toContain(TOKEN)
      const [json] = JSON.parse(await readFile(path.join(ws.cwd, 'gate.json'), 'utf8')) as {
        analysisId: string
        status: string
      }[]
      expect(json).toMatchObject({ analysisId: found.analysisId, status: 'OK' })
      const polls = pollsIn(shop.requests())
      expect(polls.slice(0, -1).every((poll) => poll.length === 2)).toBe(true)
      expect(polls.at(-1)).toHaveLength(1)
      expect(polls.at(-1)![0]!.at).toBeGreaterThanOrEqual(found.finishesAt - 2)
    })
  })
})

describe.each(RUNTIMES)(
  'a server without api/qualitygates/project_status (404 or 410), on $runtime',
  ({ node }) => {
    let simulator: Simulator
    beforeAll(async () => {
      simulator = await Simulator.start({ token: TOKEN, projectStatusGone: 410 })
    })
    afterAll(() => simulator.stop())

    async function run(name: string, payload: unknown, env: Record<string, string>) {
      const played = await projectScenario(name, `gone-${name}`)
      const analyses = simulator.addAnalyses(played.analyses)
      const ws = await workspace()
      const eventPath = path.join(ws.root, 'event.json')
      await writeFile(eventPath, JSON.stringify(payload))
      const result = await runAction(ws, {
        node,
        inputs: {
          sonarToken: TOKEN,
          sonarHostUrl: simulator.url,
          projectKey: played.ask.projectKey,
          pollingIntervalMs: POLL_MS
        },
        env: { GITHUB_EVENT_PATH: eventPath, GITHUB_REPOSITORY: 'acme/shop', ...env }
      })
      return { result, found: analyses[played.expected!]!, projectKey: played.ask.projectKey }
    }

    it("a pull request's newest analysis: its gate read from its measures, and said so", async () => {
      const { result, found, projectKey } = await run(
        'project-pull-request',
        {
          pull_request: { number: 42, head: { sha: pullRequestHead }, updated_at: isoAgo(60_000) }
        },
        { GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: pullRequestMerge }
      )

      expect(result.exitCode).toBe(1)
      expect(result.outputs).toMatchObject({ status: 'ERROR', analysisId: found.analysisId })
      expect(lines(result.stdout)).toContain(
        `api/qualitygates/project_status answered 410: the gate is read from the measures of ${projectKey} on pull request 42, whose latest analysis is this one.`
      )
      expect(result.summary).toContain(
        "gate read from the pull request's measures (the server has no project_status)"
      )
      expect(JSON.parse(result.outputs['conditions'] ?? '[]')).not.toEqual([])
    })

    it("a branch's commit whose analysis is no longer the newest: the server's refusal stands", async () => {
      const { result } = await run(
        'project-race',
        {},
        {
          GITHUB_EVENT_NAME: 'push',
          GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`,
          GITHUB_SHA: login2
        }
      )

      expect(result.exitCode).toBe(1)
      expect(result.outputs['status']).toBeUndefined()
      expect(annotations(result.stdout, 'error')[0]).toContain('410')
      expect(result.stdout).not.toContain('the gate is read from the measures')
    })
  }
)

/** A reply's body, as loosely as the checks below read it. */
interface ReplyBody {
  paging: Record<string, number>
  analyses: ({ key: string } & Record<string, unknown>)[]
  queue: Record<string, unknown>[]
  branches: { name: string }[]
  errors: { msg: string }[]
}

describe('the simulator answers for a project as the server does', () => {
  let simulator: Simulator
  beforeAll(async () => {
    // No token asked: each generation's auth schemes are the e2e tests' of server generations.
    simulator = await Simulator.start()
  })
  afterAll(() => simulator.stop())

  let projects = 0
  async function get(pathAndQuery: string): Promise<{ status: number; body: ReplyBody }> {
    const reply = await fetch(`${simulator.url}${pathAndQuery}`)
    return { status: reply.status, body: (await reply.json()) as ReplyBody }
  }
  async function added(name: string, generation?: Generation) {
    const played = await projectScenario(name, `shapes-${++projects}`)
    const scripts = played.analyses.map((script) => ({ ...script, generation }))
    return { key: played.ask.projectKey, analyses: simulator.addAnalyses(scripts) }
  }

  it("api/project_analyses/search: the example's fields and date form, newest first, a commit each", async () => {
    const { key, analyses } = await added('project-newest')
    const { status, body } = await get(
      `/api/project_analyses/search?project=${key}&branch=${encodeURIComponent(FEATURE_BRANCH)}`
    )
    expect(status).toBe(200)
    expect(Object.keys(body.paging)).toEqual(['pageIndex', 'pageSize', 'total'])
    const exampleFields = new Set(projectAnalysesExample.analyses.flatMap(Object.keys))
    const [example] = projectAnalysesExample.analyses
    for (const analysis of body.analyses as Record<string, unknown>[]) {
      for (const field of Object.keys(analysis)) expect(exampleFields).toContain(field)
      expect(analysis['date']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/)
      expect(String(analysis['date']).length).toBe(example!.date.length)
    }
    expect(body.analyses.map((analysis: { key: string }) => analysis.key)).toEqual([
      analyses[2]!.analysisId
    ])
    const main = await get(`/api/project_analyses/search?project=${key}&ps=1&p=2`)
    expect(main.body.paging).toEqual({ pageIndex: 2, pageSize: 1, total: 2 })
    expect(main.body.analyses).toMatchObject([
      { key: analyses[0]!.analysisId, revision: PROJECT_COMMITS.main1 }
    ])
  })

  it('a task still queued has no analysis listed; api/ce/component names its branch', async () => {
    const { key, analyses } = await added('project-commit')
    const listed = await get(
      `/api/project_analyses/search?project=${key}&branch=${encodeURIComponent(FEATURE_BRANCH)}`
    )
    expect(listed.body.analyses.map((analysis: { key: string }) => analysis.key)).toEqual([
      analyses[2]!.analysisId
    ])
    const tasks = await get(`/api/ce/component?component=${key}`)
    expect(tasks.body.queue).toMatchObject([
      {
        id: analyses[4]!.taskId,
        status: 'PENDING',
        componentKey: key,
        branch: FEATURE_BRANCH,
        branchType: 'BRANCH'
      }
    ])
    expect(tasks.body.queue[0]).not.toHaveProperty('analysisId')
  })

  it("api/ce/component takes the project alone and lists every branch's and pull request's tasks, each naming its own", async () => {
    const { key, analyses } = await added('project-branch-queued')
    const tasks = await get(`/api/ce/component?component=${key}`)
    expect(tasks.status).toBe(200)
    expect(tasks.body.queue).toMatchObject([
      { id: analyses[4]!.taskId, status: 'PENDING', branch: FEATURE_BRANCH, branchType: 'BRANCH' },
      { id: analyses[5]!.taskId, status: 'PENDING', pullRequest: '42' }
    ])
    expect(tasks.body.queue[1]).not.toHaveProperty('branch')
    // The example's fields, those a real server sent for a queued task (recorded from 10.7), and
    // those ComponentAction's formatter adds for a branch, a pull request and a running task.
    const recorded = JSON.parse(
      await readFile(
        path.join(REPO, '__fixtures__/sonarqube/real/10.7/ce-component-queued.json'),
        'utf8'
      )
    ) as { body: { queue: Record<string, unknown>[] } }
    const fields = new Set([
      ...Object.keys(componentTasksExample.queue[0]!),
      ...recorded.body.queue.flatMap((task) => Object.keys(task)),
      'branch',
      'branchType',
      'pullRequest',
      'startedAt',
      'executionTimeMs'
    ])
    for (const task of tasks.body.queue) {
      for (const field of Object.keys(task)) expect(fields).toContain(field)
    }
    // A branch asked for filters nothing: the server takes `component` only.
    const filtered = await get(
      `/api/ce/component?component=${key}&branch=${encodeURIComponent(FEATURE_BRANCH)}`
    )
    expect(filtered.body.queue).toEqual(tasks.body.queue)
  })

  it.each([
    ['8.9', false],
    ['9.9', false],
    ['10.x', false],
    ['2025.x', false],
    ['cloud', true]
  ] as const)(
    '%s: pullRequest read: %s (no SonarQube Server defines it; the cloud unverified)',
    async (generation, read) => {
      const { key, analyses } = await added('project-newest', generation)
      const { status, body } = await get(
        `/api/project_analyses/search?project=${key}&pullRequest=42`
      )
      expect(status).toBe(200)
      expect(body.analyses.map((analysis: { key: string }) => analysis.key)).toEqual(
        read ? [analyses[3]!.analysisId] : [analyses[1]!.analysisId, analyses[0]!.analysisId]
      )
      expect('detectedCI' in body.analyses[0]!).toBe(generation !== '8.9')
      const unknown = await get(`/api/project_analyses/search?project=${key}&pullRequest=7`)
      expect(unknown.status).toBe(read ? 404 : 200)
      if (read) {
        expect(unknown.body).toEqual({
          errors: [{ msg: `Component '${key}' of pull request '7' not found` }]
        })
      }
    }
  )

  it("404s in the server's words: the project, the branch, and the project asked for with a branch", async () => {
    const { key } = await added('project-newest')
    expect(await get('/api/project_analyses/search?project=nowhere')).toEqual({
      status: 404,
      body: { errors: [{ msg: "Component key 'nowhere' not found" }] }
    })
    expect(await get(`/api/project_analyses/search?project=${key}&branch=nope`)).toEqual({
      status: 404,
      body: { errors: [{ msg: `Component '${key}' on branch 'nope' not found` }] }
    })
    expect(await get('/api/project_analyses/search?project=nowhere&branch=main')).toEqual({
      status: 404,
      body: { errors: [{ msg: "Component 'nowhere' on branch 'main' not found" }] }
    })
    expect(await get('/api/ce/component?component=nowhere')).toEqual({
      status: 404,
      body: { errors: [{ msg: "Component key 'nowhere' not found" }] }
    })
    expect(await get('/api/project_branches/list?project=nowhere')).toEqual({
      status: 404,
      body: { errors: [{ msg: "Project 'nowhere' not found" }] }
    })
    expect((await get(`/api/project_analyses/search?project=${key}&ps=501`)).status).toBe(400)
  })

  it('a new branch exists from its first scan on, its list empty until the analysis lands', async () => {
    const key = `shapes-${++projects}`
    const [first] = simulator.addAnalyses([
      {
        finishAfterMs: 60_000,
        taskStatus: 'SUCCESS',
        projectStatus: { status: 'OK', conditions: [] },
        projectKey: key,
        branch: 'brand-new',
        revision: login2
      }
    ])
    expect(first).toBeDefined()
    expect(await get(`/api/project_analyses/search?project=${key}&branch=brand-new`)).toEqual({
      status: 200,
      body: { paging: { pageIndex: 1, pageSize: 100, total: 0 }, analyses: [] }
    })
    const branches = await get(`/api/project_branches/list?project=${key}`)
    expect(branches.body.branches.map((branch: { name: string }) => branch.name)).toEqual([
      'brand-new',
      'main'
    ])
  })
})

describe('the simulator as a program plays a project scenario', () => {
  const SIMULATOR = path.join(REPO, '__fixtures__/simulator/sonar-simulator.ts')

  it('prints the command to check it, which the built command then passes', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        SIMULATOR,
        '--port',
        '0',
        '--scenario',
        'project-commit',
        '--token',
        TOKEN
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SIMULATOR_TOKEN: '' } }
    )
    const exited = new Promise((resolve) => child.on('close', resolve))
    onTestFinished(async () => {
      child.kill('SIGTERM')
      await exited
    })
    const printed = await new Promise<string>((resolve, reject) => {
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk
        if (stdout.includes('\n')) resolve(stdout)
      })
      void exited.then(() => reject(new Error(`the simulator stopped: ${stdout}`)))
    })
    const command = /check it with SONAR_TOKEN set to the token: node dist\/cli\.js (.+)$/m.exec(
      printed
    )?.[1]
    expect(printed).toMatch(
      /^Simulator listening on http:\/\/127\.0\.0\.1:\d+; project demo-project \(5 analyses\)/
    )
    expect(command).toContain(
      `--project demo-project --branch ${FEATURE_BRANCH} --commit ${login2}`
    )

    const ws = await workspace()
    const result = await timeChild(
      process.execPath,
      [CLI_ENTRY, ...command!.split(' '), '--interval', POLL_MS],
      {
        cwd: ws.cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SONAR_TOKEN: TOKEN },
        killAfterMs: 20_000
      }
    )
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain(`Analysis AYAnalysis0005 of ${short(login2)}, `)
    expect(result.stderr).toContain('Quality Gate status: OK')
  })

  it('--report with a project scenario: one line, exit code 2', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', SIMULATOR, '--scenario', 'project-race', '--report', 'report-task.txt'],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(code).toBe(2)
    expect(stderr.trimEnd().split('\n')).toEqual([
      'sonar-simulator: --report: scenario project-race is checked by project, without a report file; leave --report out. Run it with --help for the options.'
    ])
  })
})
