import { readFileSync } from 'node:fs'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { rejectionInWords } from '../../__fixtures__/sinks.js'
import { ServerRequestError } from '../../src/errors.js'
import { findTargets } from '../../src/gate/targets.js'
import { readSettings } from '../../src/settings.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { SonarClient } from '../../src/sonar/client.js'
import {
  branchesExample,
  componentTasksExample,
  projectAnalysesExample
} from '../../__fixtures__/sonarqube/index.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const SHA = '0123456789abcdef0123456789abcdef01234567'

const client = () =>
  new SonarClient({
    serverUrl: new URL(SERVER),
    token: 'squ_0123456789abcdef',
    rootCert: undefined,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    random: () => 0.5
  })

/** Answers `path` with `reply`, keeping each request's query. */
function answer(path: string, reply: () => Response) {
  const queries: Record<string, string>[] = []
  server.use(
    http.get(`${SERVER}${path}`, ({ request }) => {
      queries.push(Object.fromEntries(new URL(request.url).searchParams))
      return reply()
    })
  )
  return queries
}

describe('api/project_analyses/search: the newest analyses of a branch or pull request', () => {
  it('asks for the project and the branch, 100 a page, and keeps key, date and revision', async () => {
    const queries = answer('/api/project_analyses/search', () =>
      HttpResponse.json({
        paging: { pageIndex: 1, pageSize: 100, total: 3 },
        analyses: [
          {
            key: 'AU-Tpxb--iU5OvuD2FLy',
            date: '2016-12-11T17:12:45+0100',
            revision: SHA.toUpperCase(),
            events: []
          },
          { key: 'AU-TpxcA-iU5OvuD2FLz', date: '2016-12-10T17:12:45+0100', events: [] },
          { key: 'AU-TpxcB-iU5OvuD2FL0', date: '2016-12-09T17:12:45+0100', revision: 'not a sha' },
          { date: 'no key: left out' }
        ]
      })
    )
    const page = await client().getProjectAnalyses('my-project', { branch: 'release/2.4' })
    expect(queries).toEqual([{ project: 'my-project', branch: 'release/2.4', ps: '100' }])
    expect(page).toEqual({
      total: 3,
      analyses: [
        { key: 'AU-Tpxb--iU5OvuD2FLy', date: '2016-12-11T17:12:45+0100', revision: SHA },
        { key: 'AU-TpxcA-iU5OvuD2FLz', date: '2016-12-10T17:12:45+0100', revision: undefined },
        { key: 'AU-TpxcB-iU5OvuD2FL0', date: '2016-12-09T17:12:45+0100', revision: undefined }
      ]
    })
  })

  it("decodes the server's own example", async () => {
    answer('/api/project_analyses/search', () => HttpResponse.json(projectAnalysesExample))
    const page = await client().getProjectAnalyses('my-project', {})
    expect(page.analyses.map(({ key }) => key)).toEqual(
      projectAnalysesExample.analyses.map(({ key }) => key)
    )
    expect(page.analyses[0]?.revision).toBe(projectAnalysesExample.analyses[0]?.revision)
  })

  it('a pull request is asked for by its key, never with a branch', async () => {
    const queries = answer('/api/project_analyses/search', () =>
      HttpResponse.json({ paging: { total: 0 }, analyses: [] })
    )
    await client().getProjectAnalyses('my-project', { pullRequest: '42' })
    expect(queries).toEqual([{ project: 'my-project', pullRequest: '42', ps: '100' }])
  })

  it("an unknown project: the server's words, the key and what to check", async () => {
    answer('/api/project_analyses/search', () =>
      HttpResponse.json({ errors: [{ msg: "Project 'nope' not found" }] }, { status: 404 })
    )
    const error = await rejectionInWords(client().getProjectAnalyses('nope', { branch: 'main' }))
    expect(error).toBeInstanceOf(ServerRequestError)
    expect(error.message).toContain("Project 'nope' not found")
    expect(error.message).toContain(
      'The server knows no project nope on branch main: check the projectKey input and the branch input, and that the token may browse the project.'
    )
  })

  it("a reply that is not the API's is refused", async () => {
    answer('/api/project_analyses/search', () => HttpResponse.json({ analyses: 'many' }))
    const error = await rejectionInWords(client().getProjectAnalyses('p', {}))
    expect(error.message).toMatch(/Unexpected reply .*expected \{"analyses": \[\.\.\.\]\}/)
  })
})

describe('api/ce/component: what is queued or running, and the last task done', () => {
  it('keeps each task with its branch or pull request', async () => {
    const queries = answer('/api/ce/component', () =>
      HttpResponse.json({
        queue: [
          { id: 'AY1', status: 'PENDING', branch: 'release/2.4', branchType: 'BRANCH' },
          { id: 'AY2', status: 'IN_PROGRESS', pullRequest: '42' }
        ],
        current: { id: 'AY0', status: 'FAILED', branch: 'main', errorMessage: 'Java heap space' }
      })
    )
    const tasks = await client().getComponentTasks('my-project')
    expect(queries).toEqual([{ component: 'my-project' }])
    expect(tasks).toMatchObject({
      queue: [
        { id: 'AY1', status: 'PENDING', branch: 'release/2.4', pullRequest: undefined },
        { id: 'AY2', status: 'IN_PROGRESS', branch: undefined, pullRequest: '42' }
      ],
      current: { id: 'AY0', status: 'FAILED', branch: 'main', errorMessage: 'Java heap space' }
    })
  })

  it("decodes the server's own example", async () => {
    answer('/api/ce/component', () => HttpResponse.json(componentTasksExample))
    const tasks = await client().getComponentTasks('my-project')
    expect(tasks.queue.map(({ id, status }) => `${id} ${status}`)).toEqual(
      componentTasksExample.queue.map(({ id, status }) => `${id} ${status}`)
    )
    expect(tasks.current).toMatchObject({ status: 'FAILED', errorMessage: 'the error message' })
  })

  it("a status that is not a word means the reply is not a server's", async () => {
    answer('/api/ce/component', () =>
      HttpResponse.json({ queue: [{ id: 'AY1', status: 'PENDING\n::error::x' }] })
    )
    const error = await rejectionInWords(client().getComponentTasks('p'))
    expect(error.message).toContain('queue[0].status')
  })
})

describe("a pull request's analysis by project", () => {
  it('is a target of its own, with the time its analysis must be made after', async () => {
    const settings = {
      ...readSettings({ project: 'shop', host: SERVER, pullRequest: '42' }),
      since: { at: 1, what: "the pipeline's creation" }
    }
    const [found] = await findTargets(settings, {
      cwd: '.',
      log: new RecordingLog(),
      findFiles: async () => []
    })
    expect(found && 'target' in found ? found.target : found).toMatchObject({
      wait: 'commit',
      projectKey: 'shop',
      on: { pullRequest: '42' },
      since: { at: 1 }
    })
  })
})

describe('api/project_pull_requests/list: the pull requests and their newest analyses', () => {
  it("reads the server's own example's shape: key, date, base and target branches; what is not a key is ignored", async () => {
    const queries = answer('/api/project_pull_requests/list', () =>
      HttpResponse.json({
        pullRequests: [
          {
            key: '123',
            title: 'Add feature X',
            branch: 'feature/bar',
            base: 'feature/foo',
            status: { qualityGateStatus: 'OK', bugs: 0, vulnerabilities: 0, codeSmells: 0 },
            analysisDate: '2017-04-01T02:15:42+0200',
            url: 'https://github.com/SonarSource/sonar-core-plugins/pull/32',
            target: 'feature/foo'
          },
          { key: '124', branch: 'feature/new', isOrphan: true },
          { key: '125', base: 'line\nbreak', target: 'x'.repeat(256) },
          { title: 'no key' },
          'not an object'
        ]
      })
    )
    await expect(client().getPullRequests('my-project')).resolves.toEqual([
      {
        key: '123',
        analysisDate: '2017-04-01T02:15:42+0200',
        base: 'feature/foo',
        target: 'feature/foo'
      },
      { key: '124', analysisDate: undefined },
      // A branch name no server stores (a control character, past 255 characters) is dropped.
      { key: '125', analysisDate: undefined }
    ])
    expect(queries).toEqual([{ project: 'my-project' }])
  })

  it('on Community Edition, which has no such address (recorded from 10.7), the message says it analyses one branch', async () => {
    const recorded = JSON.parse(
      readFileSync(
        new URL(
          '../../__fixtures__/sonarqube/real/10.7/project-pull-requests.json',
          import.meta.url
        ),
        'utf8'
      )
    ) as { status: number; body: Record<string, unknown> }
    answer('/api/project_pull_requests/list', () =>
      HttpResponse.json(recorded.body, { status: recorded.status })
    )
    const error = await rejectionInWords(client().getPullRequests('my-project'))
    expect(error.message).toContain('"Unknown url : /api/project_pull_requests/list"')
    expect(error.message).toContain(
      'The server has no pull requests at all: Community Edition analyses the main branch only.'
    )
  })

  it('a reply that is not the list is refused', async () => {
    answer('/api/project_pull_requests/list', () => HttpResponse.json({ branches: [] }))
    const error = await rejectionInWords(client().getPullRequests('p'))
    expect(error.message).toContain('pullRequests')
  })
})

describe("api/qualitygates/project_status by project: a pull request's newest analysis's gate", () => {
  it('asks by projectKey and pullRequest', async () => {
    const queries = answer('/api/qualitygates/project_status', () =>
      HttpResponse.json({ projectStatus: { status: 'ERROR', conditions: [] } })
    )
    await expect(client().getScopeStatus('shop', { pullRequest: '42' })).resolves.toMatchObject({
      status: 'ERROR'
    })
    expect(queries).toEqual([{ projectKey: 'shop', pullRequest: '42' }])
  })
})

describe('api/project_branches/list: the branches, to say which there are', () => {
  it("lists the server's own example main first", async () => {
    const queries = answer('/api/project_branches/list', () => HttpResponse.json(branchesExample))
    await expect(client().getBranchNames('my-project')).resolves.toEqual(['main', 'feature/foo'])
    expect(queries).toEqual([{ project: 'my-project' }])
  })
})
