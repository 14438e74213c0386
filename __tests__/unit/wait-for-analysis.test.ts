import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { rejectionInWords } from '../../__fixtures__/sinks.js'
import {
  AnalysisNotFoundError,
  ServerRequestError,
  TaskFailedError,
  TimeoutError
} from '../../src/errors.js'
import type { AnalysisSource } from '../../src/gate/analysis-sightings.js'
import { waitForAnalysis } from '../../src/gate/wait-for-analysis.js'
import type { AnalysisScope } from '../../src/sonar/client.js'
import type { RunStart } from '../../src/settings.js'
import type { ComponentTask, ProjectAnalysis, PullRequestOnServer } from '../../src/sonar/types.js'

const COMMIT = 'abc1234abc1234abc1234abc1234abc1234abc12'
const OLDER = 'def5678def5678def5678def5678def5678def56'

const analysis = (key: string, revision: string | undefined, date = '2026-11-24T10:00:00+0000') =>
  ({ key, date, revision }) satisfies ProjectAnalysis
const task = (status: string, more: Partial<ComponentTask> = {}): ComponentTask => ({
  id: `AYTask-${status}`,
  status,
  branch: 'release/2.4',
  pullRequest: undefined,
  errorMessage: undefined,
  submittedAt: undefined,
  executionTimeMs: undefined,
  analysisId: undefined,
  ...more
})

/**
 * A server whose analyses and tasks change with each poll: `polls[i]` is what the i-th poll
 * sees (the last repeats). Records every request.
 */
function server(
  polls: {
    analyses: ProjectAnalysis[]
    queue?: ComponentTask[]
    current?: ComponentTask
    /** Tasks that ended, as api/ce/task tells them (api/ce/component names one only). */
    ended?: ComponentTask[]
  }[],
  /** The request a poll starts with: the tasks when no commit is asked for. */
  startsWith: 'analyses' | 'tasks' = 'analyses'
) {
  const requests: string[] = []
  let poll = -1
  const now = () => polls[Math.min(poll, polls.length - 1)]!
  const source: AnalysisSource = {
    getProjectAnalyses: async (projectKey: string, on: AnalysisScope) => {
      if (startsWith === 'analyses') poll++
      requests.push(`analyses ${projectKey} ${JSON.stringify(on)}`)
      return { analyses: now().analyses, total: now().analyses.length }
    },
    getComponentTasks: async (projectKey: string) => {
      if (startsWith === 'tasks') poll++
      requests.push(`tasks ${projectKey}`)
      return { queue: now().queue ?? [], current: now().current }
    },
    getBranchNames: async (projectKey: string) => {
      requests.push(`branches ${projectKey}`)
      return ['main', 'develop']
    },
    getPullRequests: () => Promise.reject(new Error('not asked')),
    getTaskById: async (taskId: string) => {
      requests.push(`task ${taskId}`)
      const known = [...(now().queue ?? []), now().current, ...(now().ended ?? [])].find(
        (task) => task?.id === taskId
      )
      if (!known) throw new ServerRequestError(`No activity found for task '${taskId}'`, 404)
      return known
    }
  }
  return { source, requests }
}

/**
 * A server of pull requests whose tasks and pull requests change with each poll: `polls[i]` is
 * what the i-th poll sees (the last repeats); a poll starts with the tasks. Records every request.
 */
function pullRequestServer(
  polls: { pulls: PullRequestOnServer[]; queue?: ComponentTask[]; current?: ComponentTask }[]
) {
  const requests: string[] = []
  let poll = -1
  const now = () => polls[Math.min(poll, polls.length - 1)]!
  const source: AnalysisSource = {
    getProjectAnalyses: () => Promise.reject(new Error('not asked')),
    getComponentTasks: async (projectKey: string) => {
      poll++
      requests.push(`tasks ${projectKey}`)
      return { queue: now().queue ?? [], current: now().current }
    },
    getBranchNames: () => Promise.reject(new Error('not asked')),
    getPullRequests: async (projectKey: string) => {
      requests.push(`pull requests ${projectKey}`)
      return now().pulls
    },
    getTaskById: () => Promise.reject(new Error('not asked'))
  }
  return { source, requests }
}

function wait(
  source: AnalysisSource,
  options: {
    commit?: string
    on?: AnalysisScope
    timeoutMs?: number
    adaptive?: boolean
    since?: RunStart
  } = {}
) {
  const clock = new FakeClock()
  const log = new RecordingLog()
  const run = waitForAnalysis({
    server: source,
    projectKey: 'shop',
    on: options.on ?? { branch: 'release/2.4' },
    commits: options.commit ? [options.commit] : [],
    ...(options.since ? { since: options.since } : {}),
    clock,
    startedAt: 0,
    deadline: options.timeoutMs ?? 60_000,
    intervalMs: 1000,
    adaptive: options.adaptive ?? false,
    log
  })
  return { run, clock, log }
}

describe('the analysis of a commit, by project and branch', () => {
  it('found at once: one request, no wait, not the newest when a later one landed', async () => {
    const { source, requests } = server([
      { analyses: [analysis('A2', OLDER), analysis('A1', COMMIT)] }
    ])
    const { run, clock } = wait(source, { commit: COMMIT })
    await expect(run).resolves.toMatchObject({ key: 'A1', revision: COMMIT, newest: false })
    expect(requests).toEqual(['analyses shop {"branch":"release/2.4"}'])
    expect(clock.sleeps).toEqual([])
  })

  it('waits while it is pending, saying so once, then takes it: two requests a poll, none after', async () => {
    const pending = { analyses: [analysis('A0', OLDER)], queue: [task('IN_PROGRESS')] }
    const { source, requests } = server([
      pending,
      pending,
      { analyses: [analysis('A1', COMMIT), analysis('A0', OLDER)] }
    ])
    const { run, clock, log } = wait(source, { commit: COMMIT })
    await expect(run).resolves.toMatchObject({ key: 'A1', newest: true })
    expect(requests).toEqual([
      'analyses shop {"branch":"release/2.4"}',
      'tasks shop',
      'analyses shop {"branch":"release/2.4"}',
      'tasks shop',
      'analyses shop {"branch":"release/2.4"}'
    ])
    expect(clock.sleeps).toEqual([1000, 1000])
    expect(log.lines.map(({ text }) => text)).toEqual([
      'No analysis of abc1234 of shop on branch release/2.4 yet; 1 pending.'
    ])
  })

  it("a second analysis of the branch that lands mid-wait is not the commit's", async () => {
    const { source } = server([
      { analyses: [analysis('A0', OLDER)], queue: [task('PENDING'), task('PENDING')] },
      { analyses: [analysis('A9', OLDER), analysis('A0', OLDER)], queue: [task('PENDING')] },
      { analyses: [analysis('A1', COMMIT), analysis('A9', OLDER), analysis('A0', OLDER)] }
    ])
    await expect(wait(source, { commit: COMMIT }).run).resolves.toMatchObject({ key: 'A1' })
  })

  it("ends at once when the branch's newest task failed, with the server's message", async () => {
    const { source, requests } = server([
      {
        analyses: [analysis('A0', OLDER)],
        current: task('FAILED', { id: 'AYFailed', errorMessage: 'Java heap space' })
      }
    ])
    const error = await rejectionInWords(wait(source, { commit: COMMIT }).run)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error.message).toBe(
      "The newest background task of shop on branch release/2.4, AYFailed, ended FAILED before the analysis of abc1234 appeared: Java heap space. See the project's Background Tasks page on the server."
    )
    expect(requests).toHaveLength(2)
  })

  it("a failed task of another branch, or one with the branch's task still pending, does not end it", async () => {
    const other = { branch: 'main' }
    const { source } = server([
      { analyses: [], current: task('FAILED', other), queue: [] },
      { analyses: [], current: task('FAILED'), queue: [task('PENDING')] },
      { analyses: [analysis('A1', COMMIT)] }
    ])
    await expect(wait(source, { commit: COMMIT }).run).resolves.toMatchObject({ key: 'A1' })
  })

  it("a task that names no branch is the main branch's (a server of one branch): its failure ends it", async () => {
    const { source } = server([
      {
        analyses: [analysis('A0', OLDER)],
        current: task('FAILED', { branch: undefined, errorMessage: 'No space left' })
      }
    ])
    const error = await rejectionInWords(
      wait(source, { commit: COMMIT, on: { branch: 'main' } }).run
    )
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error.message).toContain(
      'ended FAILED before the analysis of abc1234 appeared: No space left'
    )
  })

  it("a branch's task that failed while another branch's ended after it: read alone at the next poll, and it ends the wait", async () => {
    const running = task('IN_PROGRESS', { id: 'AYMine' })
    const other = task('SUCCESS', { id: 'AYOther', branch: 'main' })
    const mine = task('FAILED', { id: 'AYMine', errorMessage: 'Java heap space' })
    const { source, requests } = server([
      { analyses: [analysis('A0', OLDER)], queue: [running] },
      { analyses: [analysis('A0', OLDER)], current: other, ended: [mine] }
    ])
    const { run, clock } = wait(source, { commit: COMMIT })
    const error = await rejectionInWords(run)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error.message).toBe(
      "The newest background task of shop on branch release/2.4, AYMine, ended FAILED before the analysis of abc1234 appeared: Java heap space. See the project's Background Tasks page on the server."
    )
    // Two requests a poll, the task's poll one.
    expect(requests).toEqual([
      'analyses shop {"branch":"release/2.4"}',
      'tasks shop',
      'analyses shop {"branch":"release/2.4"}',
      'tasks shop',
      'task AYMine'
    ])
    expect(clock.sleeps).toEqual([1000, 1000])
  })

  it('the task read alone but ended well, or not readable (a Browse token): the wait goes on', async () => {
    const running = task('IN_PROGRESS', { id: 'AYMine' })
    const other = task('SUCCESS', { id: 'AYOther', branch: 'main' })
    const { source, requests } = server([
      { analyses: [analysis('A0', OLDER)], queue: [running] },
      { analyses: [analysis('A0', OLDER)], current: other },
      { analyses: [analysis('A1', COMMIT), analysis('A0', OLDER)] }
    ])
    await expect(wait(source, { commit: COMMIT }).run).resolves.toMatchObject({ key: 'A1' })
    // Its task is not known to api/ce/task here (a 404, as a 403 would be): nothing changes.
    expect(requests.filter((request) => request.startsWith('task '))).toEqual(['task AYMine'])
  })

  it('times out naming the commit and the newest revision seen', async () => {
    const { source } = server([{ analyses: [analysis('A0', OLDER, '2026-11-23T09:00:00+0000')] }])
    const { run } = wait(source, { commit: COMMIT, timeoutMs: 5000 })
    const error = await rejectionInWords(run)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      'Timed out after 5.0 s waiting for the analysis of abc1234 of shop on branch release/2.4: the newest is of def5678 (2026-11-23T09:00:00+0000). The scan may not have run for this commit, or its task may still be queued; raise pollingTimeoutSec (now 5.0 s).'
    )
  })

  it('never guesses when the analyses record no commit', async () => {
    const { source } = server([{ analyses: [analysis('A0', undefined)] }])
    const error = await rejectionInWords(wait(source, { commit: COMMIT }).run)
    expect(error).toBeInstanceOf(AnalysisNotFoundError)
    expect(error.message).toContain('record no commit')
    expect(error.message).toContain('leave commit out to check the newest analysis')
  })
})

describe('without a commit: the newest analysis', () => {
  it('of the branch, at once when nothing of it is pending: its tasks, then its analyses', async () => {
    const { source, requests } = server(
      [
        {
          analyses: [analysis('B2', COMMIT), analysis('B1', OLDER)],
          queue: [task('PENDING', { branch: 'develop' })]
        }
      ],
      'tasks'
    )
    const { run } = wait(source, { on: { branch: 'release/2.4' } })
    await expect(run).resolves.toMatchObject({ key: 'B2', newest: true })
    expect(requests).toEqual(['tasks shop', 'analyses shop {"branch":"release/2.4"}'])
  })

  it('none yet but one running: waits for it; none and none coming: says so at once', async () => {
    const running = server(
      [
        { analyses: [], queue: [task('IN_PROGRESS', { branch: undefined })] },
        { analyses: [analysis('M1', COMMIT)] }
      ],
      'tasks'
    )
    await expect(wait(running.source, { on: {} }).run).resolves.toMatchObject({ key: 'M1' })

    const nothing = server([{ analyses: [] }], 'tasks')
    const error = await rejectionInWords(wait(nothing.source, { on: {} }).run)
    expect(error).toBeInstanceOf(AnalysisNotFoundError)
    expect(error.message).toBe(
      'shop has no analysis yet, and no analysis of it is queued or running: run the scan first, or check branch or pullRequest.'
    )
  })
})

describe('without a commit, while a scan of the branch is queued or running: the analysis it makes', () => {
  it('waits, saying what for, then takes the new analysis, not the one before it', async () => {
    const { source, requests } = server(
      [
        { analyses: [analysis('B1', OLDER)], queue: [task('PENDING')] },
        { analyses: [analysis('B1', OLDER)], queue: [task('IN_PROGRESS')] },
        { analyses: [analysis('B2', COMMIT), analysis('B1', OLDER)] }
      ],
      'tasks'
    )
    const { run, clock, log } = wait(source)
    await expect(run).resolves.toMatchObject({ key: 'B2', revision: COMMIT, newest: true })
    expect(log.of('info')).toEqual([
      'A scan of shop on branch release/2.4 is queued or running: waiting for its analysis, the newest, rather than taking the one before it; 1 pending.'
    ])
    // The tasks alone while one is pending; the analyses once none is.
    expect(requests).toEqual([
      'tasks shop',
      'tasks shop',
      'tasks shop',
      'analyses shop {"branch":"release/2.4"}'
    ])
    expect(clock.now()).toBe(2000)
  })

  it('times out naming the task still pending, within the time-out', async () => {
    const { source } = server(
      [{ analyses: [analysis('B1', OLDER)], queue: [task('PENDING')] }],
      'tasks'
    )
    const { run, clock } = wait(source, { timeoutMs: 3000 })
    const error = await rejectionInWords(run)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      'Timed out after 3.0 s waiting for the newest analysis of shop on branch release/2.4: its task AYTask-PENDING is still queued. The server has not processed its scan yet (see the Background Tasks page); raise pollingTimeoutSec (now 3.0 s).'
    )
    expect(clock.now()).toBe(3000)
  })

  it("its task fails: ends at once with the server's message, the older analysis not taken", async () => {
    const { source, requests } = server(
      [
        { analyses: [analysis('B1', OLDER)], queue: [task('IN_PROGRESS')] },
        {
          analyses: [analysis('B1', OLDER)],
          current: task('FAILED', { errorMessage: 'Fail to extract report' })
        }
      ],
      'tasks'
    )
    const error = await rejectionInWords(wait(source).run)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error.message).toBe(
      "The newest background task of shop on branch release/2.4, AYTask-FAILED, ended FAILED before the newest analysis appeared: Fail to extract report. See the project's Background Tasks page on the server."
    )
    expect(requests).not.toContain('analyses shop {"branch":"release/2.4"}')
  })

  it("the main branch, named by no name: a task naming no branch holds the wait, another branch's does not", async () => {
    const others = server(
      [{ analyses: [analysis('M1', OLDER)], queue: [task('PENDING', { branch: 'develop' })] }],
      'tasks'
    )
    await expect(wait(others.source, { on: {} }).run).resolves.toMatchObject({ key: 'M1' })

    const its = server(
      [
        { analyses: [analysis('M1', OLDER)], queue: [task('PENDING', { branch: undefined })] },
        { analyses: [analysis('M2', COMMIT), analysis('M1', OLDER)] }
      ],
      'tasks'
    )
    await expect(wait(its.source, { on: {} }).run).resolves.toMatchObject({ key: 'M2' })
  })
})

describe('a branch the server does not know', () => {
  it('lists the branches it has (the first 20, main first), and says how many more', async () => {
    const names = ['main', ...Array.from({ length: 24 }, (_, index) => `feature/${index}`)]
    const source: AnalysisSource = {
      getProjectAnalyses: () =>
        Promise.reject(
          new ServerRequestError("Component 'shop' on branch 'relase/2.4' not found", 404)
        ),
      // Read first, no commit being asked for: nothing of the branch is pending.
      getComponentTasks: async () => ({ queue: [], current: undefined }),
      getBranchNames: async () => names,
      getPullRequests: () => Promise.reject(new Error('not asked')),
      getTaskById: () => Promise.reject(new Error('not asked'))
    }
    const error = await rejectionInWords(wait(source, { on: { branch: 'relase/2.4' } }).run)
    expect(error).toBeInstanceOf(AnalysisNotFoundError)
    expect(error.message).toBe(
      `The project shop has no branch "relase/2.4" on the server: it has ${names
        .slice(0, 20)
        .map((name) => `"${name}"`)
        .join(
          ', '
        )} and 5 more. Check the branch input; a server that analyses one branch only (Community Edition) has its main branch alone.`
    )
    expect(error.cause).toBeInstanceOf(ServerRequestError)
  })

  it('when the branches cannot be read either, the first failure stands', async () => {
    const notFound = new ServerRequestError('The server knows no project nope', 404)
    const source: AnalysisSource = {
      getProjectAnalyses: () => Promise.reject(notFound),
      getComponentTasks: async () => ({ queue: [], current: undefined }),
      getBranchNames: () => Promise.reject(new ServerRequestError("Project 'nope' not found", 404)),
      getPullRequests: () => Promise.reject(new Error('not asked')),
      getTaskById: () => Promise.reject(new Error('not asked'))
    }
    await expect(wait(source, { on: { branch: 'main' } }).run).rejects.toBe(notFound)
  })
})

describe("a branch's first analysis, awaited for a commit", () => {
  it('is waited for while the server does not know the branch yet, then taken', async () => {
    let polls = 0
    const requests: string[] = []
    const source: AnalysisSource = {
      getProjectAnalyses: async () => {
        requests.push('analyses')
        if (++polls < 3) {
          throw new ServerRequestError("Component 'shop' on branch 'release/2.4' not found", 404)
        }
        return { analyses: [analysis('A1', COMMIT)], total: 1 }
      },
      getComponentTasks: async () => {
        requests.push('tasks')
        return { queue: polls === 2 ? [task('IN_PROGRESS')] : [], current: undefined }
      },
      getBranchNames: () => Promise.reject(new Error('not asked')),
      getPullRequests: () => Promise.reject(new Error('not asked')),
      getTaskById: () => Promise.reject(new Error('not asked'))
    }
    await expect(wait(source, { commit: COMMIT }).run).resolves.toMatchObject({ key: 'A1' })
    expect(requests).toEqual(['analyses', 'tasks', 'analyses', 'tasks', 'analyses'])
  })

  it('times out saying which branches the server has', async () => {
    const source: AnalysisSource = {
      getProjectAnalyses: () =>
        Promise.reject(
          new ServerRequestError("Component 'shop' on branch 'release/2.4' not found", 404)
        ),
      getComponentTasks: async () => ({ queue: [], current: undefined }),
      getBranchNames: async () => ['main', 'develop'],
      getPullRequests: () => Promise.reject(new Error('not asked')),
      getTaskById: () => Promise.reject(new Error('not asked'))
    }
    const error = await rejectionInWords(wait(source, { commit: COMMIT, timeoutMs: 3000 }).run)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      'Timed out after 3.0 s waiting for the analysis of abc1234 of shop on branch release/2.4: The project shop has no branch "release/2.4" on the server: it has "main", "develop". The scan may not have run for this commit, or its task may still be queued; raise pollingTimeoutSec (now 3.0 s).'
    )
  })
})

describe("a pull request's analysis: its newest once settled, made after the run's start", () => {
  const on = { pullRequest: '42' }
  const since: RunStart = {
    at: Date.parse('2026-11-24T10:00:00Z'),
    what: "the pull request's last update"
  }
  const pull = (analysisDate?: string): PullRequestOnServer => ({ key: '42', analysisDate })
  const prTask = (status: string, more: Partial<ComponentTask> = {}) =>
    task(status, { branch: undefined, pullRequest: '42', ...more })

  it('made after the start and settled: taken at once, named by the last task, two requests', async () => {
    const { source, requests } = pullRequestServer([
      {
        pulls: [
          { key: '7', analysisDate: '2026-11-24T11:00:00+0000' },
          pull('2026-11-24T10:02:00+0000')
        ],
        current: prTask('SUCCESS', { analysisId: 'AP42' })
      }
    ])
    const { run, clock } = wait(source, { on, since, commit: COMMIT })
    await expect(run).resolves.toEqual({
      key: 'AP42',
      date: '2026-11-24T10:02:00+0000',
      revision: undefined,
      newest: true,
      basis: "made after the pull request's last update (2026-11-24T10:00:00Z)"
    })
    expect(requests).toEqual(['tasks shop', 'pull requests shop'])
    expect(clock.sleeps).toEqual([])
  })

  it('while one of its tasks is pending: the tasks alone each poll; an older analysis is not taken', async () => {
    const older = pull('2026-11-24T09:58:00+0000')
    const { source, requests } = pullRequestServer([
      { pulls: [older], queue: [prTask('PENDING')] },
      { pulls: [older], queue: [prTask('IN_PROGRESS')] },
      { pulls: [older], current: task('SUCCESS', { branch: 'main', analysisId: 'AMAIN' }) },
      { pulls: [pull('2026-11-24T10:01:30+0000')] }
    ])
    const { run, log } = wait(source, { on, since })
    // The project's last task is another branch's: the analysis is not named.
    await expect(run).resolves.toMatchObject({ key: undefined, date: '2026-11-24T10:01:30+0000' })
    expect(requests).toEqual([
      'tasks shop',
      'tasks shop',
      'tasks shop',
      'pull requests shop',
      'tasks shop',
      'pull requests shop'
    ])
    expect(log.lines.map(({ text }) => text)).toEqual([
      "No analysis of shop on pull request 42 since 2026-11-24T10:00:00Z (the pull request's last update) yet; 1 pending.",
      "No analysis of shop on pull request 42 since 2026-11-24T10:00:00Z (the pull request's last update) yet; 0 pending."
    ])
  })

  it("without the run's start, its newest settled analysis, said to be unconfirmed", async () => {
    const { source } = pullRequestServer([{ pulls: [pull('2026-11-20T08:00:00+0000')] }])
    await expect(wait(source, { on }).run).resolves.toMatchObject({
      date: '2026-11-20T08:00:00+0000',
      basis: expect.stringContaining("not confirmed to be this run's") as unknown
    })
  })

  it('ends at once when its newest task failed, even with an older analysis after the start', async () => {
    const { source, requests } = pullRequestServer([
      {
        pulls: [pull('2026-11-24T10:01:00+0000')],
        current: prTask('FAILED', { id: 'AYFailed', errorMessage: 'Java heap space' })
      }
    ])
    const error = await rejectionInWords(wait(source, { on, since }).run)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error.message).toContain(
      'The newest background task of shop on pull request 42, AYFailed, ended FAILED before an analysis since 2026-11-24T10:00:00Z'
    )
    expect(requests).toEqual(['tasks shop'])
  })

  it('unknown, with nothing of it coming: refused at once with the pull requests the server has', async () => {
    const some = pullRequestServer([{ pulls: [{ key: '7', analysisDate: undefined }] }])
    const error = await rejectionInWords(wait(some.source, { on }).run)
    expect(error).toBeInstanceOf(AnalysisNotFoundError)
    expect(error.message).toBe(
      'The project shop has no pull request 42 on the server: it has "7": check the pullRequest input.'
    )
    const none = pullRequestServer([{ pulls: [] }])
    expect((await rejectionInWords(wait(none.source, { on }).run)).message).toBe(
      'The project shop has no pull request 42 on the server: it has none (a server that analyses one branch only, Community Edition, has none): check the pullRequest input.'
    )
  })

  it("unknown while the run's scan may be coming: waited for, then the time-out names what there is", async () => {
    const { source } = pullRequestServer([{ pulls: [{ key: '7', analysisDate: undefined }] }])
    const error = await rejectionInWords(wait(source, { on, since, timeoutMs: 2000 }).run)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error.message).toBe(
      'Timed out after 2.0 s waiting for an analysis since 2026-11-24T10:00:00Z (the pull request\'s last update) of shop on pull request 42: The project shop has no pull request 42 on the server: it has "7". The scan may not have run for this pull request, or its task may still be queued; raise pollingTimeoutSec (now 2.0 s).'
    )
  })

  it('an analysis older than the start times out naming the newest', async () => {
    const { source } = pullRequestServer([{ pulls: [pull('2026-11-24T09:00:00+0000')] }])
    const error = await rejectionInWords(wait(source, { on, since, timeoutMs: 2000 }).run)
    expect(error.message).toContain(
      'of shop on pull request 42: its newest analysis is of 2026-11-24T09:00:00+0000.'
    )
  })
})

describe('without an interval given, polls gather around the end the running task predicts', () => {
  it("from the branch's running task and the project's last analysis: polls before the fixed second", async () => {
    const previous = task('SUCCESS', { executionTimeMs: 2000 })
    const running = {
      analyses: [analysis('A0', OLDER)],
      current: previous,
      queue: [task('IN_PROGRESS', { executionTimeMs: 1500 })]
    }
    const { source } = server([running, running, running, { analyses: [analysis('A1', COMMIT)] }])
    const fixed = wait(source, { commit: COMMIT })
    await fixed.run
    const adaptive = wait(
      server([running, running, running, { analyses: [analysis('A1', COMMIT)] }]).source,
      {
        commit: COMMIT,
        adaptive: true
      }
    )
    await expect(adaptive.run).resolves.toMatchObject({ key: 'A1' })
    // The fixed cadence polls each second; the prediction (500 ms left) polls sooner.
    expect(fixed.clock.sleeps).toEqual([1000, 1000, 1000])
    expect(adaptive.clock.sleeps[0]).toBeLessThan(1000)
    expect(adaptive.clock.now()).toBeLessThan(fixed.clock.now())
  })

  it('the predicted end counts from halfway through the tasks request, not from the poll before it', async () => {
    const clock = new FakeClock()
    const pollsAt: number[] = []
    let polls = 0
    const source: AnalysisSource = {
      getProjectAnalyses: async () => {
        pollsAt.push(clock.now())
        clock.advance(300)
        return { analyses: ++polls > 2 ? [analysis('A1', COMMIT)] : [], total: 0 }
      },
      getComponentTasks: async () => {
        clock.advance(100)
        return {
          current: task('SUCCESS', { executionTimeMs: 2000 }),
          queue: [task('IN_PROGRESS', { executionTimeMs: 1500 })]
        }
      },
      getBranchNames: () => Promise.reject(new Error('not asked')),
      getPullRequests: () => Promise.reject(new Error('not asked')),
      getTaskById: () => Promise.reject(new Error('not asked'))
    }
    await waitForAnalysis({
      server: source,
      projectKey: 'shop',
      on: { branch: 'release/2.4' },
      commits: [COMMIT],
      clock,
      startedAt: 0,
      deadline: 60_000,
      intervalMs: 1000,
      adaptive: true,
      log: new RecordingLog()
    })
    // The server measured 1500 ms of 2000 at 350 ms (the tasks request ran from 300 to 400):
    // the end is predicted at 850, its window opening a sixth of 2000 ms early, at 517.
    expect(pollsAt.slice(0, 2)).toEqual([0, 517])
  })

  it('no prediction without a running task or a finished previous analysis: the fixed cadence', async () => {
    const queued = { analyses: [], queue: [task('PENDING')] }
    const { source } = server([queued, queued, { analyses: [analysis('A1', COMMIT)] }])
    const { run, clock } = wait(source, { commit: COMMIT, adaptive: true })
    await run
    expect(clock.sleeps).toEqual([1000, 1000])
  })
})
