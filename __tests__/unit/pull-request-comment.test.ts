import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { actionHtmlSink, inActionWords } from '../../__fixtures__/sinks.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { commentOnPullRequest } from '../../src/action/pull-request-comment.js'
import { GITHUB_LIMITS } from '../../src/platforms/github/github.js'
import { ReportFileError } from '../../src/errors.js'
import { EVENT_FILE_BYTES } from '../../src/github-event.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { COMMENT_LIMITS, type CommentWhen } from '../../src/report/comment-settings.js'
import { commentMarker } from '../../src/report/pull-request-comment-body.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { tokenForms } from '../../src/secrets.js'
import { actionSinks } from '../../src/action/sinks.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import { condition, gateResult } from './summary-gate-result.js'

const API = 'https://api.github.test'
const COMMENTS = `${API}/repos/octo/app/issues/7/comments`
const HEAD_SHA = 'abcdef0123456789abcdef0123456789abcdef01'
const GITHUB_TOKEN = 'ghs_jobtoken123'
const SONAR_TOKEN = 'squ_sonarsecret456'

const server = useMockServer()

/** GitHub's issue comments as a fake keeps them, and every request it received. */
interface StoredComment {
  id: number
  body: string
  user: { login: string; id?: number; type: string }
}
let comments: StoredComment[]
let requests: { method: string; url: URL; authorization: string | null; body: unknown }[]
let nextId: number
let pending: Promise<void>[]

/** The account the job's token comments as. */
const BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' }

/**
 * GitHub's comments endpoints: listed 100 a page with a Link header, created, updated; and who
 * the job's token is: `GET /user` is refused to an installation token, GraphQL's `viewer` names
 * its bot account.
 */
function fakeGitHub(overrides: { create?: () => Response } = {}) {
  server.use(
    http.get(`${API}/user`, () =>
      HttpResponse.json(
        {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
          status: '403'
        },
        { status: 403 }
      )
    ),
    http.post(`${API}/graphql`, () =>
      HttpResponse.json({ data: { viewer: { databaseId: BOT.id } } })
    ),
    http.get(COMMENTS, ({ request }) => {
      const url = new URL(request.url)
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const shown = comments.slice((page - 1) * perPage, page * perPage)
      const last = Math.max(1, Math.ceil(comments.length / perPage))
      const link =
        page < last
          ? `<${COMMENTS}?per_page=${perPage}&page=${page + 1}>; rel="next", <${COMMENTS}?per_page=${perPage}&page=${last}>; rel="last"`
          : ''
      return HttpResponse.json(shown, { headers: link ? { link } : {} })
    }),
    http.post(COMMENTS, async ({ request }) => {
      if (overrides.create) return overrides.create()
      const { body } = (await request.json()) as { body: string }
      const comment = { id: nextId++, body, user: BOT }
      comments.push(comment)
      return HttpResponse.json(comment, { status: 201 })
    }),
    http.patch(`${API}/repos/octo/app/issues/comments/:id`, async ({ request, params }) => {
      const comment = comments.find(({ id }) => id === Number(params['id']))
      if (!comment) return HttpResponse.json({ message: 'Not Found' }, { status: 404 })
      comment.body = ((await request.json()) as { body: string }).body
      return HttpResponse.json(comment)
    })
  )
}

beforeEach(() => {
  comments = []
  requests = []
  nextId = 1000
  pending = []
  server.events.removeAllListeners()
  server.events.on('request:start', ({ request }) => {
    // Recorded at once, in order; the body is read beside it and awaited by `comment`.
    const record = {
      method: request.method,
      url: new URL(request.url),
      authorization: request.headers.get('authorization'),
      body: undefined as unknown
    }
    requests.push(record)
    if (request.method !== 'GET') {
      pending.push(
        request
          .clone()
          .text()
          .then((text) => {
            record.body = text ? JSON.parse(text) : undefined
          })
      )
    }
  })
})

const eventFile = (payload: unknown): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'event-')), 'event.json')
  writeFileSync(file, typeof payload === 'string' ? payload : JSON.stringify(payload))
  return file
}

const pullRequestEvent = () =>
  eventFile({
    action: 'synchronize',
    number: 7,
    pull_request: { number: 7, head: { sha: HEAD_SHA } }
  })

const envFor = (fields: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: pullRequestEvent(),
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_API_URL: API,
  ...fields
})

const read = (fields: Parameters<typeof gateResult>[0] = {}): AnalysisOutcome => ({
  read: true,
  source: 'build/sonar/report-task.txt',
  result: gateResult(fields)
})

/** The comment step as main.ts runs it, msw seeing its requests. */
async function comment(
  outcomes: readonly AnalysisOutcome[],
  fields: { env?: NodeJS.ProcessEnv; token?: string | undefined; when?: CommentWhen } = {}
): Promise<RecordingLog> {
  const log = new RecordingLog()
  await commentOnPullRequest(outcomes, {
    ...(fields.when ? { when: fields.when } : {}),
    token: 'token' in fields ? fields.token : GITHUB_TOKEN,
    env: fields.env ?? envFor(),
    log,
    sinks: {
      html: actionHtmlSink({
        token: SONAR_TOKEN,
        limit: COMMENT_LIMITS.githubChars,
        unit: 'characters'
      }),
      markdown: actionSinks(tokenForms(SONAR_TOKEN)).markdownComment
    },
    policy: FAIL_ON_ERROR,
    decorateBy: Date.now() + 30_000
  })
  await Promise.all(pending)
  return log
}

/** Who the token is: asked apart from the comments, once a comment carries a marker. */
const IDENTITY_READS = new Set(['/user', '/graphql'])
/** The requests of `method` to the comments API. */
const sent = (method: string) =>
  requests.filter(
    ({ method: sentAs, url }) => sentAs === method && !IDENTITY_READS.has(url.pathname)
  )
const bodyOf = (request: { body: unknown }) => (request.body as { body: string }).body

describe('pullRequestComment failed and changed: fewer comments, never a stale one', () => {
  const failing = () => read({ projectKey: 'web' })
  const passing = () => read({ projectKey: 'web', status: 'OK', conditions: [] })

  it('failed: no comment while the gate passes; once there is one, it is kept up to date', async () => {
    fakeGitHub()
    const quiet = await comment([passing()], { when: 'failed' })
    expect(sent('POST')).toEqual([])
    expect(quiet.of('info').map(inActionWords)).toEqual([
      'GitHub: the comment for web is left as it is (pullRequestComment failed).'
    ])
    await comment([failing()], { when: 'failed' })
    await comment([passing()], { when: 'failed' })
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('✅ Quality Gate passed')
  })

  it('changed: the comment is written again only when its verdict changed', async () => {
    fakeGitHub()
    await comment([failing()], { when: 'changed' })
    expect(comments[0]!.body.split('\n')[1]).toBe('<!-- verdict: failed -->')
    requests = []
    await comment([failing()], { when: 'changed' })
    expect(sent('PATCH')).toEqual([])
    await comment([passing()], { when: 'changed' })
    expect(sent('PATCH')).toHaveLength(1)
    expect(comments[0]!.body.split('\n')[1]).toBe('<!-- verdict: passed -->')
  })
})

describe('one comment per project, found again by its marker and updated in place', () => {
  it('creates a comment when none carries the marker, with the job’s token', async () => {
    fakeGitHub()
    const log = await comment([read({ projectKey: 'web' })])

    expect(sent('GET').map(({ url }) => url.pathname + url.search)).toEqual([
      '/repos/octo/app/issues/7/comments?per_page=100&page=1'
    ])
    const [created] = sent('POST')
    expect(sent('POST')).toHaveLength(1)
    expect(created!.url.href).toBe(COMMENTS)
    expect(created!.authorization).toBe(`token ${GITHUB_TOKEN}`)
    expect(Object.keys(created!.body as object)).toEqual(['body'])
    expect(bodyOf(created!).split('\n')[0]).toBe(commentMarker('web'))
    expect(bodyOf(created!)).toContain('❌ Quality Gate failed')
    expect(bodyOf(created!)).toContain('<code>abcdef0</code>')
    expect(log.of('warning')).toEqual([])
    expect(log.of('info')).toEqual(['GitHub: the comment for web is created on pull request #7.'])
  })

  it('updates that comment in place on the next run: no new comment', async () => {
    fakeGitHub()
    await comment([read({ projectKey: 'web' })])
    requests = []

    const log = await comment([read({ projectKey: 'web', status: 'OK', conditions: [] })])

    expect(sent('POST')).toEqual([])
    expect(sent('PATCH').map(({ url }) => url.pathname)).toEqual([
      '/repos/octo/app/issues/comments/1000'
    ])
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('✅ Quality Gate passed')
    expect(log.of('info')).toEqual(['GitHub: the comment for web is updated on pull request #7.'])
  })

  it('finds the comment on the second page of comments, following the Link header', async () => {
    fakeGitHub()
    const others = Array.from({ length: 150 }, (_, index) => ({
      id: index + 1,
      body: `Comment ${index}`,
      user: { login: 'someone', type: 'User' }
    }))
    comments = [
      ...others.slice(0, 120),
      { id: 500, body: `${commentMarker('web')}\nold`, user: BOT },
      ...others.slice(120)
    ]

    await comment([read({ projectKey: 'web' })])

    expect(sent('GET').map(({ url }) => url.searchParams.get('page'))).toEqual(['1', '2'])
    expect(sent('POST')).toEqual([])
    expect(sent('PATCH').map(({ url }) => url.pathname)).toEqual([
      '/repos/octo/app/issues/comments/500'
    ])
    expect(comments.find(({ id }) => id === 500)!.body).toContain('❌ Quality Gate failed')
  })

  it('one comment per project, created in the outcomes’ order, each updated on the next run', async () => {
    fakeGitHub()
    const outcomes = [read({ projectKey: 'api' }), read({ projectKey: 'web' })]
    await comment(outcomes)

    expect(sent('POST').map((request) => bodyOf(request).split('\n')[0])).toEqual([
      commentMarker('api'),
      commentMarker('web')
    ])
    requests = []
    await comment(outcomes)
    expect(sent('POST')).toEqual([])
    expect(sent('PATCH').map(({ url }) => url.pathname.split('/').at(-1))).toEqual(['1000', '1001'])
    expect(comments).toHaveLength(2)
  })

  it('creates the comment again when it was deleted since it was found (a 404 on the update)', async () => {
    fakeGitHub()
    server.use(
      http.get(COMMENTS, () =>
        HttpResponse.json([{ id: 999, body: commentMarker('web'), user: BOT }])
      )
    )
    const log = await comment([read({ projectKey: 'web' })])
    expect(requests.map(({ method, url }) => `${method} ${url.pathname}`)).toEqual([
      'GET /repos/octo/app/issues/7/comments',
      'GET /user',
      'POST /graphql',
      'PATCH /repos/octo/app/issues/comments/999',
      'POST /repos/octo/app/issues/7/comments'
    ])
    expect(log.of('warning')).toEqual([])
  })

  it('an analysis that could not be read gets its comment too, named by its report file', async () => {
    fakeGitHub()
    const message = 'Task X was not found.'
    await comment([
      {
        read: false,
        source: 'gone/report-task.txt',
        projectKey: undefined,
        message,
        error: new ReportFileError(message)
      }
    ])
    const body = bodyOf(sent('POST')[0]!)
    expect(body.split('\n')[0]).toBe(commentMarker('gone/report-task.txt'))
    expect(body).toContain('Task X was not found.')
  })

  it('takes the token’s own comment, not a person’s that carries the marker', async () => {
    fakeGitHub()
    comments = [
      {
        id: 1,
        body: `${commentMarker('web')}\nmine now`,
        user: { login: 'mallory', type: 'User' }
      },
      { id: 2, body: `${commentMarker('web')}\nold`, user: BOT }
    ]
    await comment([read({ projectKey: 'web' })])
    expect(sent('PATCH').map(({ url }) => url.pathname.split('/').at(-1))).toEqual(['2'])
    expect(comments[0]!.body).toBe(`${commentMarker('web')}\nmine now`)
  })

  it('does not take a reply quoting the comment for it', async () => {
    fakeGitHub()
    comments = [{ id: 1, body: `> ${commentMarker('web')}\n> old`, user: BOT }]
    await comment([read({ projectKey: 'web' })])
    expect(sent('PATCH')).toEqual([])
    expect(sent('POST')).toHaveLength(1)
  })
})

describe('a token that may not comment is a warning that says how to grant it, never a failure', () => {
  it('a 403 on create (a fork’s read-only token) warns once, naming pull-requests: write', async () => {
    fakeGitHub({
      create: () =>
        HttpResponse.json(
          {
            message: 'Resource not accessible by integration',
            documentation_url:
              'https://docs.github.com/rest/issues/comments#create-an-issue-comment'
          },
          { status: 403 }
        )
    })
    const log = await comment([read({ projectKey: 'api' }), read({ projectKey: 'web' })])

    expect(sent('POST')).toHaveLength(1)
    const warnings = log.of('warning')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('The GitHub token may not comment on pull request #7')
    expect(warnings[0]).toContain('Resource not accessible by integration')
    expect(warnings[0]).toContain('`permissions: pull-requests: write`')
    expect(warnings[0]).toMatch(/forks get a read-only token/)
    expect(warnings[0]).toContain('pull_request_target')
    expect(log.of('failed')).toEqual([])
  })

  it('a 403 on reading the comments warns the same way and creates nothing', async () => {
    server.use(
      http.get(COMMENTS, () => HttpResponse.json({ message: 'Forbidden' }, { status: 403 }))
    )
    const log = await comment([read()])
    expect(requests.map(({ method }) => method)).toEqual(['GET'])
    expect(log.of('warning')[0]).toContain('pull-requests: write')
  })

  it('a rate limit is a warning of its own, not one about permissions', async () => {
    fakeGitHub({
      create: () =>
        HttpResponse.json(
          { message: 'API rate limit exceeded' },
          { status: 403, headers: { 'x-ratelimit-remaining': '0' } }
        )
    })
    const log = await comment([read()])
    expect(log.of('warning')[0]).toContain("GitHub's API rate limit was reached")
    expect(log.of('warning')[0]).not.toContain('pull-requests: write')
  })

  it('an API that cannot be reached is a warning', async () => {
    server.use(http.get(COMMENTS, () => HttpResponse.error()))
    const log = await comment([read()])
    expect(log.of('warning')).toHaveLength(1)
    expect(log.of('warning')[0]).toMatch(
      /^GitHub: the comments of pull request #7 failed, and nothing more is decorated; the verdict and the exit code are unchanged\. .+\. Check that GITHUB_API_URL is GitHub's REST API and that GitHub is up; the next run decorates again\.$/
    )
  })

  it('no token: a warning, and no request', async () => {
    const log = await comment([read()], { token: undefined })
    expect(requests).toEqual([])
    expect(log.of('warning')[0]).toContain('no GitHub token')
    expect(log.of('warning')[0]).toContain('githubToken')
  })
})

describe('on other events the input does nothing, with a line in the log', () => {
  it.each(['push', 'workflow_dispatch', 'pull_request_review', ''])(
    'on %j: one info line and no request at all',
    async (event) => {
      const log = await comment([read()], { env: envFor({ GITHUB_EVENT_NAME: event }) })
      expect(requests).toEqual([])
      expect(log.of('warning')).toEqual([])
      expect(log.of('info')).toHaveLength(1)
      expect(log.of('info')[0]).toMatch(
        /^The pullRequestComment input does nothing on .*: it comments on pull_request and pull_request_target events only\.$/
      )
    }
  )

  it('on pull_request_target it comments', async () => {
    fakeGitHub()
    await comment([read()], { env: envFor({ GITHUB_EVENT_NAME: 'pull_request_target' }) })
    expect(sent('POST')).toHaveLength(1)
  })
})

describe('the event file and the API are not trusted', () => {
  it.each([
    ['a missing file', '/nonexistent/event.json', /the event file could not be read/],
    ['a file that is not JSON', eventFile('{"pull_request": '), /the event file could not be read/],
    [
      'no pull request in it',
      eventFile({ ref: 'refs/heads/main' }),
      /names no pull request number/
    ],
    [
      'a number that is not one',
      eventFile({ pull_request: { number: '7/../../x', head: { sha: HEAD_SHA } } }),
      /names no pull request number/
    ],
    [
      'a head that is not a commit id',
      eventFile({ pull_request: { number: 7, head: { sha: '<img src=x>' } } }),
      /names no head commit/
    ]
  ])('%s: a warning, and no request', async (_, file, words) => {
    const log = await comment([read()], { env: envFor({ GITHUB_EVENT_PATH: file }) })
    expect(requests).toEqual([])
    expect(log.of('warning')).toHaveLength(1)
    expect(log.of('warning')[0]).toMatch(words)
  })

  it('an event file larger than the limit is not read', async () => {
    const file = eventFile('')
    writeFileSync(file, ' '.repeat(EVENT_FILE_BYTES + 1))
    const log = await comment([read()], { env: envFor({ GITHUB_EVENT_PATH: file }) })
    expect(requests).toEqual([])
    expect(log.of('warning')[0]).toMatch(/larger than/)
  })

  it('a repository that is not owner/name: a warning, and no request', async () => {
    const log = await comment([read()], { env: envFor({ GITHUB_REPOSITORY: '../../x' }) })
    expect(requests).toEqual([])
    expect(log.of('warning')[0]).toContain('GITHUB_REPOSITORY is not owner/name')
  })

  it('reads at most 30 pages of an API that always says there is a next one', async () => {
    server.use(
      http.get(COMMENTS, () =>
        HttpResponse.json(
          Array.from({ length: 100 }, (_, index) => ({ id: index + 1, body: 'x', user: BOT })),
          { headers: { link: `<https://evil.example/steal>; rel="next"` } }
        )
      ),
      http.post(COMMENTS, () => HttpResponse.json({ id: 1 }, { status: 201 }))
    )
    await comment([read()])
    expect(sent('GET')).toHaveLength(GITHUB_LIMITS.commentPages)
    // The next page is asked of the API by its number, never at the address the reply names.
    expect(requests.every(({ url }) => url.origin === API)).toBe(true)
    expect(sent('POST')).toHaveLength(1)
  })

  it('comments of any shape in the listing are skipped, not a crash', async () => {
    server.use(
      http.get(COMMENTS, () =>
        HttpResponse.json([null, 1, 'x', { id: 'a', body: commentMarker('my-project') }, { id: 3 }])
      ),
      http.post(COMMENTS, () => HttpResponse.json({ id: 4 }, { status: 201 }))
    )
    const log = await comment([read()])
    expect(sent('POST')).toHaveLength(1)
    expect(log.of('warning')).toEqual([])
  })
})

describe('no token is ever sent in a comment or written to the log', () => {
  it('the Sonar token echoed by the server, and the GitHub token, appear in no body sent', async () => {
    fakeGitHub()
    const echoed = (value: string) => `${value} <${value}> ${encodeURIComponent(value)}`
    const outcomes: AnalysisOutcome[] = [
      read({
        projectKey: `p-${SONAR_TOKEN}`,
        analysisId: echoed(SONAR_TOKEN),
        status: echoed(GITHUB_TOKEN),
        conditions: evaluateConditions([
          condition({ metricKey: echoed(SONAR_TOKEN), actualValue: echoed(GITHUB_TOKEN) })
        ])
      }),
      {
        read: false,
        source: 'x/report-task.txt',
        projectKey: 'q',
        message: `Server said: ${echoed(SONAR_TOKEN)}`,
        error: new Error('x')
      }
    ]
    await comment(outcomes)
    await comment(outcomes)

    expect(sent('POST')).toHaveLength(2)
    expect(sent('PATCH')).toHaveLength(2)
    const forms = summaryForms([...tokenForms(SONAR_TOKEN), GITHUB_TOKEN])
    for (const request of [...sent('POST'), ...sent('PATCH')]) {
      const text = JSON.stringify(request.body)
      for (const form of forms) expect(text).not.toContain(form)
      expect(text).not.toMatch(/squ_sonarsecret|ghs_jobtoken/)
    }
  })

  it('a warning quoting the API never shows the GitHub token', async () => {
    fakeGitHub({
      create: () =>
        HttpResponse.json({ message: `Bad credentials for ${GITHUB_TOKEN}` }, { status: 401 })
    })
    const log = await comment([read()])
    expect(log.of('warning')[0]).toContain('The GitHub token was refused')
    expect(log.lines.map(({ text }) => text).join('\n')).not.toContain(GITHUB_TOKEN)
  })
})

describe('only our own comment: the marker and the token’s own account', () => {
  const ANOTHER_APP = { login: 'other-app[bot]', id: 555, type: 'Bot' }
  const PERSON = { login: 'mallory', id: 66, type: 'User' }
  const identityReads = () =>
    requests.filter(({ url }) => IDENTITY_READS.has(url.pathname)).map(({ url }) => url.pathname)

  it.each(['always', 'failed', 'changed'] as const)(
    'when %s: another app’s and a person’s exact copies, posted first, are never edited; ours is written, then found and edited',
    async (when) => {
      fakeGitHub()
      const failing = () => read({ projectKey: 'web', status: 'ERROR' })
      await comment([failing()], { when })
      const body = comments[0]!.body
      comments = [
        { id: 1, body, user: ANOTHER_APP },
        { id: 2, body, user: PERSON }
      ]
      requests = []
      const first = await comment([failing()], { when })
      expect(first.of('warning')).toEqual([])
      expect(sent('PATCH')).toEqual([])
      expect(sent('POST')).toHaveLength(1)
      // The job's token: GET /user refused, GraphQL's viewer names github-actions[bot].
      expect(identityReads()).toEqual(['/user', '/graphql'])

      requests = []
      await comment([read({ projectKey: 'web', status: 'OK', conditions: [] })], { when })
      expect(sent('PATCH').map(({ url }) => url.pathname.split('/').at(-1))).toEqual(['1001'])
      expect(comments.slice(0, 2).map((one) => one.body)).toEqual([body, body])
      expect(comments[2]!.body.split('\n')[1]).toBe('<!-- verdict: passed -->')
    }
  )

  it('a user’s token: its account from GET /user, no GraphQL', async () => {
    fakeGitHub()
    server.use(http.get(`${API}/user`, () => HttpResponse.json({ login: 'sonar-bot', id: 77 })))
    comments = [
      { id: 1, body: `${commentMarker('web')}\nold`, user: BOT },
      {
        id: 2,
        body: `${commentMarker('web')}\nold`,
        user: { login: 'sonar-bot', id: 77, type: 'User' }
      }
    ]
    await comment([read({ projectKey: 'web' })], { token: 'github_pat_0123456789' })
    expect(identityReads()).toEqual(['/user'])
    expect(sent('PATCH').map(({ url }) => url.pathname.split('/').at(-1))).toEqual(['2'])
  })

  it('no comment carries the marker: who the token is is not asked', async () => {
    fakeGitHub()
    await comment([read({ projectKey: 'web' })])
    expect(identityReads()).toEqual([])
    expect(sent('POST')).toHaveLength(1)
  })

  it.each([
    [
      'GraphQL answers an error',
      () => HttpResponse.json({ errors: [{ message: 'Something went wrong' }] })
    ],
    ['GraphQL names no account', () => HttpResponse.json({ data: { viewer: {} } })]
  ])(
    'the account unknown (%s): one warning, a new comment, ours never edited',
    async (_, graphql) => {
      fakeGitHub()
      server.use(http.post(`${API}/graphql`, graphql))
      comments = [{ id: 1, body: `${commentMarker('web')}\nold`, user: BOT }]
      const log = await comment([read({ projectKey: 'web' })])
      const warnings = log.of('warning')
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("GitHub: the token's own identity could not be read")
      expect(warnings[0]).toContain('nothing is edited, resolved or closed')
      expect(sent('PATCH')).toEqual([])
      expect(sent('POST')).toHaveLength(1)
      expect(comments[0]!.body).toBe(`${commentMarker('web')}\nold`)
    }
  )
})
