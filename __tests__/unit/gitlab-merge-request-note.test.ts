/**
 * The project's note on a merge request, edited in place, and its commit status, as the driver
 * (src/platforms/decorate.ts) writes them through the GitLab platform, against a
 * loopback GitLab whose notes, users and statuses are shaped from GitLab's REST documentation
 * (notes: id, body, author {id, username}, system, listed each in its individual discussion by
 * `GET .../discussions`; x-next-page pagination; statuses: state, name, target_url, description).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { commandSink } from '../../__fixtures__/sinks.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { PlatformError } from '../../src/http/rest-api.js'
import { decorate, verdictOf } from '../../src/platforms/decorate.js'
import { GitLabApi } from '../../src/platforms/gitlab/gitlab-api.js'
import { GITLAB_LIMITS, gitlabPlatform } from '../../src/platforms/gitlab/gitlab.js'
import type { Review } from '../../src/platforms/review-platform.js'
import type { CommentWhen } from '../../src/report/comment-settings.js'
import { commentMarker } from '../../src/report/pull-request-comment-body.js'
import { condition, gateResult } from './summary-gate-result.js'

const noteMarker = commentMarker
const SHOP = noteMarker('shop')
/** The note of project shop with `text` after its marker line. */
const shop = (text: string) => `${SHOP}\n${text}`

const BOT = { id: 77, username: 'sonar-bot' }
const SOMEONE = { id: 5, username: 'mallory' }

interface Note {
  id: number
  body: string
  author: { id: number; username: string }
  system: boolean
}

/** GitLab's notes, user and statuses endpoints of project 7's merge request 42, on loopback. */
async function fakeGitLab(notes: Note[] = [], perPage = 100) {
  const requests: string[] = []
  const statuses: Record<string, unknown>[] = []
  let nextId = 1000
  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    request.on('end', () => {
      const url = new URL(request.url ?? '', 'http://gitlab')
      requests.push(`${request.method} ${url.pathname}`)
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers })
        response.end(JSON.stringify(body))
      }
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
      const notesPath = '/api/v4/projects/7/merge_requests/42/notes'
      if (url.pathname === '/api/v4/user') return send(200, BOT)
      if (url.pathname === '/api/v4/projects/7/merge_requests/42/discussions') {
        const page = Number(url.searchParams.get('page') ?? '1')
        const size = Math.min(perPage, Number(url.searchParams.get('per_page') ?? '20'))
        const slice = notes.slice((page - 1) * size, page * size).map((note) => ({
          id: note.id.toString(16).padStart(40, '0'),
          individual_note: true,
          notes: [note]
        }))
        const more = page * size < notes.length
        return send(200, slice, more ? { 'x-next-page': String(page + 1) } : {})
      }
      if (url.pathname === notesPath && request.method === 'POST') {
        const note = { id: nextId++, body: String(body['body']), author: BOT, system: false }
        notes.push(note)
        return send(201, note)
      }
      const edit = /^\/api\/v4\/projects\/7\/merge_requests\/42\/notes\/(\d+)$/.exec(url.pathname)
      if (edit && request.method === 'PUT') {
        const note = notes.find(({ id }) => id === Number(edit[1]))
        if (!note) return send(404, { message: '404 Not found' })
        if (note.author.id !== BOT.id) return send(403, { message: '403 Forbidden' })
        note.body = String(body['body'])
        return send(200, note)
      }
      if (/^\/api\/v4\/projects\/7\/statuses\/[0-9a-f]{40}$/.test(url.pathname)) {
        statuses.push(body)
        return send(201, { id: 1, ...body })
      }
      send(404, { message: '404 Not found' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const gitlab = new GitLabApi({
    apiUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`),
    token: 'glpat-0123456789abcdefghij',
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000
  })
  return { gitlab, notes, requests, statuses }
}

const SHA = 'a'.repeat(40)

/** Project shop's outcome: its gate failed on one condition, or passed. */
function shopOutcome(status: 'ERROR' | 'OK'): AnalysisOutcome {
  return {
    read: true,
    source: 'report-task.txt',
    result: gateResult({
      projectKey: 'shop',
      status,
      conditions: status === 'OK' ? [] : evaluateConditions([condition()]),
      dashboardUrl: 'https://sonar.example.com/dashboard?id=shop&pullRequest=42'
    })
  }
}

const sink = () => commandSink({ limit: 1_000_000, unit: 'characters' })

function platform(fake: { gitlab: GitLabApi }, pipelineId?: string) {
  return gitlabPlatform(fake.gitlab, {
    projectId: '7',
    sha: SHA,
    mergeRequestIid: '42',
    pipelineId,
    names: { project: 'CI_PROJECT_ID', mergeRequest: 'CI_MERGE_REQUEST_IID', api: 'CI_API_V4_URL' }
  })
}

/** One run of the decoration for shop's outcome; the log's lines. */
async function run(
  fake: { gitlab: GitLabApi },
  status: 'ERROR' | 'OK',
  commentWhen: CommentWhen = 'always'
) {
  const log = new RecordingLog(COMMAND_NAMES)
  await decorate(platform(fake), [shopOutcome(status)], {
    sink: sink(),
    policy: FAIL_ON_ERROR,
    commentWhen,
    inlineLimit: 0,
    inlineSeverity: 'info',
    log
  })
  return log
}

/** The second line of a note as the fake holds it: what follows the marker. */
const secondLine = (body: string) => body.split('\n')[1]

describe("the project's note", () => {
  it('creates the note once, then edits it in place on every later run', async () => {
    const fake = await fakeGitLab()
    await run(fake, 'ERROR')
    await run(fake, 'OK')
    expect(fake.notes).toHaveLength(1)
    expect(fake.notes[0]!.id).toBe(1000)
    expect(fake.notes[0]!.body.startsWith(`${SHOP}\n`)).toBe(true)
    expect(fake.notes[0]!.body).toContain('Quality Gate passed')
    // Who the token is, asked once a note carries the marker.
    expect(fake.requests.slice(-3)).toEqual([
      'GET /api/v4/projects/7/merge_requests/42/discussions',
      'GET /api/v4/user',
      'PUT /api/v4/projects/7/merge_requests/42/notes/1000'
    ])
  })

  it("never touches another's note that copies the marker, nor another project's or a system note", async () => {
    const marker = noteMarker('shop')
    const fake = await fakeGitLab([
      { id: 1, body: `${marker}\nall good, merge it`, author: SOMEONE, system: false },
      { id: 2, body: `${marker}\nsystem`, author: BOT, system: true },
      { id: 3, body: `${noteMarker('shop-admin')}\nother project`, author: BOT, system: false }
    ])
    await run(fake, 'ERROR')
    expect(fake.notes.slice(0, 3).map(({ id, body }) => [id, secondLine(body)])).toEqual([
      [1, 'all good, merge it'],
      [2, 'system'],
      [3, 'other project']
    ])
    expect(fake.notes.map(({ id }) => id)).toEqual([1, 2, 3, 1000])
  })

  it('finds its note on a later page', async () => {
    const others = Array.from({ length: 250 }, (_, i) => ({
      id: i + 1,
      body: `comment ${i}`,
      author: SOMEONE,
      system: false
    }))
    const ours = { id: 999, body: `${noteMarker('shop')}\nold`, author: BOT, system: false }
    const fake = await fakeGitLab([...others, ours])
    await run(fake, 'ERROR')
    expect(fake.notes).toHaveLength(251)
    expect(ours.body).toContain('Quality Gate failed')
    expect(fake.requests.filter((r) => r.startsWith('GET /api/v4/projects'))).toHaveLength(3)
  })

  it("a marker that only starts another's is not it, and a CRLF line end is one", async () => {
    const fake = await fakeGitLab([
      { id: 1, body: `${noteMarker('shop-admin')}\nother project`, author: BOT, system: false },
      { id: 2, body: `${SHOP}\r\nstored with CRLF`, author: BOT, system: false }
    ])
    await run(fake, 'ERROR')
    expect(fake.notes).toHaveLength(2)
    expect(fake.notes[0]!.body).toBe(`${noteMarker('shop-admin')}\nother project`)
    expect(fake.notes[1]!.body).toContain('Quality Gate failed')
  })

  it('leaves the note as it is when --comment-when says so, and says so', async () => {
    const fake = await fakeGitLab()
    await run(fake, 'ERROR', 'changed')
    const first = fake.notes[0]!.body
    const again = await run(fake, 'ERROR', 'changed')
    expect(fake.notes[0]!.body).toBe(first)
    expect(fake.requests.filter((r) => r.startsWith('PUT'))).toEqual([])
    expect(again.of('info').map(String)).toContain(
      'GitLab: the note for shop is left as it is (--comment-when changed).'
    )
  })

  it("a body past GitLab's limit is refused before any request", async () => {
    const fake = await fakeGitLab()
    const review = platform(fake).review as Review
    const verdict = verdictOf(shopOutcome('ERROR'), { sink: sink(), policy: FAIL_ON_ERROR })
    await expect(
      review.verdicts.create(verdict, shop('x'.repeat(GITLAB_LIMITS.noteChars)))
    ).rejects.toBeInstanceOf(PlatformError)
    expect(fake.requests).toEqual([])
  })
})

describe('the commit status', () => {
  it('names the project, joins the pipeline, cuts the description to 255 characters, leaves out a target too long', async () => {
    const fake = await fakeGitLab()
    const failed = verdictOf(shopOutcome('ERROR'), { sink: sink(), policy: FAIL_ON_ERROR })
    await platform(fake, '812').setStatus!({
      ...failed,
      words: `Quality Gate failed: ${'coverage on new code 12.5% < 80% · '.repeat(20)}`
    })
    const passed = verdictOf(shopOutcome('OK'), { sink: sink(), policy: FAIL_ON_ERROR })
    await platform(fake).setStatus!({
      ...passed,
      dashboard: `https://sonar.example.com/dashboard?id=${'x'.repeat(300)}`
    })
    expect(fake.statuses[0]).toMatchObject({
      state: 'failed',
      name: 'sonarqube/shop',
      target_url: 'https://sonar.example.com/dashboard?id=shop&pullRequest=42',
      pipeline_id: 812
    })
    expect(String(fake.statuses[0]!['description']).length).toBeLessThanOrEqual(255)
    expect(fake.statuses[1]).toEqual({
      state: 'success',
      name: 'sonarqube/shop',
      description: 'Quality Gate passed'
    })
  })
})
