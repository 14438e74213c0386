import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { ServerRequestError, TimeoutError, UnsafeRequestError } from '../../src/errors.js'
import { SonarClient, type SonarClientOptions } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { projectStatusExample, taskExample } from '../../__fixtures__/sonarqube/index.js'

const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const TOKEN = 'squ_0123456789abcdef'
const TASK_URL = new URL(`${SERVER}/api/ce/task?id=AYTask1`)

/** `promise`, the message of its failure in the action's words. */
const saidByTheAction = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: Error) => {
    throw Object.assign(error, { message: inActionWords(error) })
  })

function client(options: Partial<SonarClientOptions> = {}): {
  client: SonarClient
  clock: FakeClock
} {
  const clock = new FakeClock()
  return {
    clock,
    client: new SonarClient({
      serverUrl: new URL(SERVER),
      token: TOKEN,
      rootCert: undefined,
      userAgent: 'sonar-quality-gate-action/test',
      clock,
      deadline: 60_000,
      random: () => 0.5,
      ...options
    })
  }
}

/** Answers the task endpoint with the given replies in turn, recording each request. */
function taskReplies(...replies: (() => Response | Promise<Response>)[]) {
  const requests: Request[] = []
  server.use(
    http.get(`${SERVER}/api/ce/task`, async ({ request }) => {
      requests.push(request)
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] as () => Response
      return reply()
    })
  )
  return requests
}

const ok = () => HttpResponse.json(taskExample)

describe('requests carry Basic auth with the token as user, and name the action', () => {
  it('sends Authorization: Basic base64(token:), a User-Agent and Accept: application/json', async () => {
    const requests = taskReplies(ok)
    const task = await client().client.getTask(TASK_URL, 'AYTask1')
    expect(task.analysisId).toBe('AYhSC3WDE6ILQDIMAPIp')
    const headers = requests[0]?.headers
    expect(headers?.get('authorization')).toBe(
      `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`
    )
    expect(headers?.get('user-agent')).toBe('sonar-quality-gate-action/test')
    expect(headers?.get('accept')).toBe('application/json')
  })

  it('sends no Authorization at all without a token', async () => {
    const requests = taskReplies(ok)
    await client({ token: undefined }).client.getTask(TASK_URL, 'AYTask1')
    expect(requests[0]?.headers.has('authorization')).toBe(false)
  })
})

describe('the gate is read at <server>/api/qualitygates/project_status, the server address ending in /', () => {
  it.each([
    ['https://sonar.example.com', 'https://sonar.example.com/api/qualitygates/project_status'],
    ['https://sonar.example.com/', 'https://sonar.example.com/api/qualitygates/project_status'],
    [
      'https://sonar.example.com/sonar',
      'https://sonar.example.com/sonar/api/qualitygates/project_status'
    ],
    [
      'https://sonar.example.com/sonar/',
      'https://sonar.example.com/sonar/api/qualitygates/project_status'
    ]
  ])('server %s', async (serverUrl, endpoint) => {
    let asked: URL | undefined
    server.use(
      http.get(endpoint, ({ request }) => {
        asked = new URL(request.url)
        return HttpResponse.json(projectStatusExample)
      })
    )
    const gate = await client({ serverUrl: new URL(serverUrl) }).client.getProjectStatus('AY/1 2')
    expect(gate.status).toBe('ERROR')
    expect(asked?.searchParams.get('analysisId')).toBe('AY/1 2')
  })

  it('builds the task address from the server for taskId and sonarHostUrl', () => {
    const { client: c } = client({ serverUrl: new URL('https://sonar.example.com/sonar') })
    expect(c.taskUrl('AY 1').href).toBe('https://sonar.example.com/sonar/api/ce/task?id=AY%201')
  })
})

describe('429, 500, 502, 503, 504 and network errors are retried with backoff inside the deadline', () => {
  it.each([429, 500, 502, 503, 504])('HTTP %i, then success', async (status) => {
    const requests = taskReplies(
      () => HttpResponse.json({ errors: [{ msg: 'busy' }] }, { status }),
      () => HttpResponse.json({ errors: [{ msg: 'busy' }] }, { status }),
      ok
    )
    const { client: c, clock } = client()
    await c.getTask(TASK_URL, 'AYTask1')
    expect(requests).toHaveLength(3)
    // equal jitter with random 0.5: 3/4 of 250 ms, then of 500 ms
    expect(clock.sleeps).toEqual([188, 375])
  })

  it('a network error, then success', async () => {
    const requests = taskReplies(() => HttpResponse.error(), ok)
    const retries: string[] = []
    await client({ onRetry: (m) => retries.push(m) }).client.getTask(TASK_URL, 'AYTask1')
    expect(requests).toHaveLength(2)
    expect(retries).toEqual(['Network error for task AYTask1; trying again in 188 ms (try 2).'])
  })

  it("honours the server's Retry-After, in seconds or as a date", async () => {
    taskReplies(
      () => new HttpResponse(null, { status: 429, headers: { 'retry-after': '2' } }),
      () =>
        new HttpResponse(null, {
          status: 503,
          headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }
        }),
      ok
    )
    const { client: c, clock } = client()
    await c.getTask(TASK_URL, 'AYTask1')
    expect(clock.sleeps[0]).toBe(2000)
    expect(clock.sleeps[1]).toBeGreaterThan(28_000)
    expect(clock.sleeps[1]).toBeLessThanOrEqual(30_000)
  })

  it('gives up when the next wait would pass the deadline, saying why', async () => {
    const requests = taskReplies(() => new HttpResponse(null, { status: 503 }))
    const { client: c } = client({ deadline: 1000 })
    const reading = saidByTheAction(c.getTask(TASK_URL, 'AYTask1'))
    await expect(reading).rejects.toThrow(ServerRequestError)
    await expect(reading).rejects.toThrow(
      /HTTP 503 .*Gave up after 3 tries: the overall time-out \(pollingTimeoutSec\) leaves no time for another/
    )
    expect(requests.length).toBeGreaterThan(1)
  })

  it('a Retry-After beyond the deadline is not waited for', async () => {
    const requests = taskReplies(
      () => new HttpResponse(null, { status: 429, headers: { 'retry-after': '120' } })
    )
    const { client: c, clock } = client({ deadline: 60_000 })
    await expect(saidByTheAction(c.getTask(TASK_URL, 'AYTask1'))).rejects.toThrow(
      /HTTP 429 .*The server asked to wait 120 s before another try \(Retry-After\), more than the overall time-out \(pollingTimeoutSec\) leaves \(60 s\)\.$/
    )
    expect(requests).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('a request that hangs is cut at the per-request time-out and tried again', async () => {
    const requests = taskReplies(async () => {
      await delay('infinite')
      return ok()
    }, ok)
    const task = await client({ requestTimeoutMs: 50 }).client.getTask(TASK_URL, 'AYTask1')
    expect(task.status).toBe('SUCCESS')
    expect(requests).toHaveLength(2)
  })
})

describe('401, 403 and 404 are not retried, and each gets its own explanation', () => {
  it.each([
    [
      401,
      TOKEN,
      /The server rejected the token \(HTTP 401 at https:\/\/sonar.example.com\/api\/ce\/task\?id=AYTask1\), sent with Basic and Bearer authentication: it is wrong, expired or revoked/
    ],
    [
      401,
      undefined,
      /The server requires a token \(HTTP 401 .*\) and none was given: set the SONAR_TOKEN environment variable or the sonarToken input/
    ],
    [
      403,
      TOKEN,
      /The token may not read task AYTask1 \(HTTP 403 .*\): its user needs the Browse permission on the project, and Execute Analysis/
    ],
    [
      404,
      TOKEN,
      /Task AYTask1 was not found: the report file may come from another server or an earlier run, or the taskId input is wrong/
    ]
  ])('HTTP %i (token %s)', async (status, token, message) => {
    const requests = taskReplies(() => HttpResponse.json({ errors: [{ msg: 'x' }] }, { status }))
    const reading = saidByTheAction(client({ token }).client.getTask(TASK_URL, 'AYTask1'))
    await expect(reading).rejects.toThrow(message)
    await expect(reading).rejects.toMatchObject({ status })
    // A 401 to a token is tried once more with the other scheme; nothing else is tried again.
    expect(requests).toHaveLength(status === 401 && token ? 2 : 1)
  })

  it.each([
    ['sqa_0123456789abcdef', 'a global analysis token (sqa_…)'],
    ['sqp_0123456789abcdef', 'a project analysis token (sqp_…)']
  ])(
    '403 to an analysis token (%s) says it is one, and to use a user token',
    async (token, kind) => {
      // What SonarQube 10.7 answers a global analysis token on api/project_analyses/search,
      // api/ce/component, api/measures/component and api/hotspots/search.
      taskReplies(() =>
        HttpResponse.json({ errors: [{ msg: 'Insufficient privileges' }] }, { status: 403 })
      )
      const reading = saidByTheAction(client({ token }).client.getTask(TASK_URL, 'AYTask1'))
      await expect(reading).rejects.toThrow(
        `The server says: "Insufficient privileges". The token may not read task AYTask1 (HTTP 403 at ${SERVER}/api/ce/task?id=AYTask1): it is ${kind}.`
      )
      await expect(reading).rejects.toThrow(/Use a user token \(squ_…, My Account → Security\)/)
    }
  )

  it('an unknown analysis says which one', async () => {
    server.use(
      http.get(`${SERVER}/api/qualitygates/project_status`, () =>
        HttpResponse.json({ errors: [{ msg: 'not found' }] }, { status: 404 })
      )
    )
    await expect(saidByTheAction(client().client.getProjectStatus('AYnope'))).rejects.toThrow(
      /Analysis AYnope was not found: check the analysisId input/
    )
  })

  it("a 400 quotes the server's own message, then our advice", async () => {
    taskReplies(() =>
      HttpResponse.json({ errors: [{ msg: "The 'id' parameter is missing" }] }, { status: 400 })
    )
    await expect(saidByTheAction(client().client.getTask(TASK_URL, 'AYTask1'))).rejects.toThrow(
      `The server says: "The 'id' parameter is missing". The server refused the request for task AYTask1: check the taskId input or the report file's ceTaskId. (HTTP 400 at https://sonar.example.com/api/ce/task?id=AYTask1)`
    )
  })

  it.each([
    [404, "No activity found for task 'AYTask1'"],
    [403, 'Insufficient privileges']
  ])("a %i quotes the server's own words before the advice", async (status, msg) => {
    taskReplies(() => HttpResponse.json({ errors: [{ msg }] }, { status }))
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      new RegExp(
        `^The server says: "${msg}"\\. (Task AYTask1 was not found|The token may not read)`
      )
    )
  })

  it('skips junk in errors[] and keeps the messages that are there', async () => {
    taskReplies(() =>
      HttpResponse.json(
        { errors: [null, 7, { msg: 42 }, { msg: ['x'] }, 'text', { msg: 'Real message' }] },
        { status: 404 }
      )
    )
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /^The server says: "Real message"\. Task AYTask1 was not found/
    )
  })

  it.each([{ errors: 'nope' }, { errors: {} }, [], 'text', null])(
    'errors of another shape (%j) add nothing and break nothing',
    async (body) => {
      taskReplies(() => HttpResponse.json(body, { status: 404 }))
      await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
        /^Task AYTask1 was not found/
      )
    }
  )
})

describe('a failed request carries what it is about as fields, not only in its words', () => {
  it.each([
    ['a status the server answered', () => HttpResponse.json({}, { status: 403 }), 403, false],
    ['no reply at all', () => HttpResponse.error(), undefined, true]
  ])(
    '%s: its status, whether any reply came, and the server’s origin',
    async (_, reply, status, noReply) => {
      taskReplies(reply)
      const error = await client({ deadline: 0 })
        .client.getTask(TASK_URL, 'AYTask1')
        .catch((thrown: unknown) => thrown)
      expect(error).toBeInstanceOf(ServerRequestError)
      expect(error).toMatchObject({ status, noReply, origin: SERVER })
    }
  )
})

describe('a reply that is not the JSON asked for is a clear error that says so', () => {
  it('an HTML login page', async () => {
    taskReplies(() => HttpResponse.html('<!DOCTYPE html><html><body>Log in</body></html>'))
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /The reply for task AYTask1 from https:\/\/sonar.example.com\/api\/ce\/task\?id=AYTask1 is an HTML page \(text\/html\), not JSON: a login page or a proxy error page/
    )
  })

  it('JSON of another shape', async () => {
    taskReplies(() => HttpResponse.json({ hello: 'world' }))
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /Unexpected reply for task AYTask1 .*expected \{"task": \{"status": \.\.\.\}\}. Is this a SonarQube or SonarCloud server\?/
    )
  })
})

describe('the token goes to the server origin only', () => {
  it('refuses a task address on another origin without sending anything', async () => {
    const elsewhere: Request[] = []
    server.use(
      http.get('https://evil.example.net/*', ({ request }) => {
        elsewhere.push(request)
        return ok()
      })
    )
    const reading = client().client.getTask(
      new URL('https://evil.example.net/api/ce/task?id=AYTask1'),
      'AYTask1'
    )
    await expect(reading).rejects.toThrow(UnsafeRequestError)
    await expect(reading).rejects.toThrow(
      /Refusing to send the token to https:\/\/evil.example.net: the task address is not on the server https:\/\/sonar.example.com/
    )
    expect(elsewhere).toHaveLength(0)
  })

  it.each([
    ['another port', 'https://sonar.example.com:8443/api/ce/task?id=AYTask1'],
    ['plain http', 'http://sonar.example.com/api/ce/task?id=AYTask1'],
    ['a look-alike host', 'https://sonar.example.com.evil.net/api/ce/task?id=AYTask1']
  ])('counts %s as another origin', async (_, address) => {
    await expect(client().client.getTask(new URL(address), 'AYTask1')).rejects.toThrow(
      UnsafeRequestError
    )
  })

  it('follows a redirect on the same origin, with the token', async () => {
    const moved: Request[] = []
    server.use(
      http.get(`${SERVER}/api/ce/task`, () =>
        HttpResponse.redirect(`${SERVER}/sonar/api/ce/task?id=AYTask1`, 301)
      ),
      http.get(`${SERVER}/sonar/api/ce/task`, ({ request }) => {
        moved.push(request)
        return ok()
      })
    )
    await client().client.getTask(TASK_URL, 'AYTask1')
    expect(moved[0]?.headers.get('authorization')).toMatch(/^Basic /)
  })

  it('follows an http → https upgrade of the same host', async () => {
    const upgraded: Request[] = []
    server.use(
      http.get('http://sonar.example.com/api/ce/task', () =>
        HttpResponse.redirect(`${SERVER}/api/ce/task?id=AYTask1`, 308)
      ),
      http.get(`${SERVER}/api/ce/task`, ({ request }) => {
        upgraded.push(request)
        return ok()
      })
    )
    const { client: c } = client({ serverUrl: new URL('http://sonar.example.com') })
    await c.getTask(new URL('http://sonar.example.com/api/ce/task?id=AYTask1'), 'AYTask1')
    expect(upgraded).toHaveLength(1)
  })

  it.each([
    ['another host', 'https://login.example.org/sso?next=/api/ce/task'],
    ['an https → http downgrade', 'http://sonar.example.com/api/ce/task?id=AYTask1']
  ])('refuses a redirect to %s, sending nothing there', async (_, location) => {
    const elsewhere: Request[] = []
    server.use(
      http.get(`${SERVER}/api/ce/task`, () => HttpResponse.redirect(location, 302)),
      http.get(location.split('?')[0] as string, ({ request }) => {
        elsewhere.push(request)
        return ok()
      })
    )
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /Refusing to follow a redirect from https:\/\/sonar.example.com to .* with the token/
    )
    expect(elsewhere).toHaveLength(0)
  })

  it('stops after 5 redirects', async () => {
    server.use(http.get(`${SERVER}/api/ce/task`, () => HttpResponse.redirect(TASK_URL.href, 302)))
    await expect(client().client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /Too many redirects \(5\)/
    )
  })

  it('never puts the token in an error message', async () => {
    for (const status of [400, 401, 403, 404, 500]) {
      taskReplies(() => HttpResponse.json({ errors: [{ msg: 'no' }] }, { status }))
      const error = await client({ deadline: 1 })
        .client.getTask(TASK_URL, 'AYTask1')
        .catch((e: Error) => e)
      expect((error as Error).message).not.toContain(TOKEN)
      expect((error as Error).message).not.toContain(Buffer.from(`${TOKEN}:`).toString('base64'))
    }
  })

  it('a token the server spells in \\u escapes is out of its words before anything quotes them', async () => {
    const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    for (const status of [400, 404, 500]) {
      taskReplies(
        () =>
          new HttpResponse(`{"errors":[{"msg":"echo ${escaped.join('')} end"}]}`, {
            status,
            headers: { 'content-type': 'application/json' }
          })
      )
      const error = await client({ deadline: 1 })
        .client.getTask(TASK_URL, 'AYTask1')
        .catch((e: Error) => e)
      expect((error as Error).message).toContain('"echo *** end"')
    }
  })
})

describe('near the overall deadline, a request is a time-out, and still gets a fair chance', () => {
  it('a request the deadline cuts short is a TimeoutError, not an unreachable server', async () => {
    taskReplies(async () => {
      await delay('infinite')
      return ok()
    })
    const clock = new FakeClock()
    const { client: c } = client({ clock, deadline: 50, requestTimeoutMs: 10_000 })
    const reading = saidByTheAction(c.getTask(TASK_URL, 'AYTask1'))
    await expect(reading).rejects.toThrow(TimeoutError)
    await expect(reading).rejects.toThrow(
      'The overall time-out (pollingTimeoutSec) ran out while waiting for task AYTask1 from https://sonar.example.com/api/ce/task?id=AYTask1.'
    )
  })

  it('a request that starts at the deadline still gets a second to answer', async () => {
    taskReplies(async () => {
      await delay(200)
      return ok()
    })
    const { client: c } = client({ deadline: 0 })
    await expect(c.getTask(TASK_URL, 'AYTask1')).resolves.toMatchObject({ status: 'SUCCESS' })
  })

  it('no request runs past deadline + 1 s: one that starts 600 ms after it gets the 400 ms left', async () => {
    taskReplies(async () => {
      await delay('infinite')
      return ok()
    })
    const clock = new FakeClock()
    clock.advance(600)
    const { client: c } = client({ clock, deadline: 0 })
    // The request's own timer is a global one: fake it, and step to either side of 400 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    let settled = false
    const reading = c.getTask(TASK_URL, 'AYTask1').finally(() => (settled = true))
    reading.catch(() => {})
    await vi.advanceTimersByTimeAsync(399)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await expect(reading).rejects.toThrow(TimeoutError)
  })

  it('at deadline + 1 s no request is started at all', async () => {
    const requests = taskReplies(ok)
    const clock = new FakeClock()
    clock.advance(1000)
    await expect(
      client({ clock, deadline: 0 }).client.getTask(TASK_URL, 'AYTask1')
    ).rejects.toThrow(TimeoutError)
    expect(requests).toHaveLength(0)
  })
})

describe('the token is sent as the server generation documents it; after a 401, once the other way', () => {
  const bearer = `Bearer ${TOKEN}`
  const basic = `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`
  const schemesSent = (requests: Request[]) =>
    requests.map((request) => request.headers.get('authorization'))

  it.each([
    ['SonarQube 9.9 (Basic only before 10.0)', { cloud: false, version: [9, 9] as const }, basic],
    ['SonarQube 10.0', { cloud: false, version: [10, 0] as const }, bearer],
    ['SonarQube 2025.1', { cloud: false, version: [2025, 1] as const }, bearer],
    ['SonarQube Cloud', { cloud: true, version: undefined }, bearer],
    ['an unknown version', { cloud: false, version: undefined }, basic]
  ])('%s: %s first', async (_, kind, header) => {
    const requests = taskReplies(ok)
    await client({ kind }).client.getTask(TASK_URL, 'AYTask1')
    expect(schemesSent(requests)).toEqual([header])
  })

  it('a 401 to Bearer is tried once with Basic, which is kept for the next requests', async () => {
    const requests: Request[] = []
    server.use(
      http.get(`${SERVER}/api/ce/task`, ({ request }) => {
        requests.push(request)
        return request.headers.get('authorization') === basic
          ? ok()
          : HttpResponse.json({ errors: [{ msg: 'Authentication required' }] }, { status: 401 })
      })
    )
    const retries: string[] = []
    const { client: c } = client({
      kind: { cloud: false, version: [10, 4] },
      onRetry: (line) => retries.push(line)
    })
    await c.getTask(TASK_URL, 'AYTask1')
    await c.getTask(TASK_URL, 'AYTask1')
    expect(schemesSent(requests)).toEqual([bearer, basic, basic])
    expect(retries).toEqual([
      'HTTP 401 with Bearer authentication for task AYTask1; trying Basic once.'
    ])
  })

  it('a 401 to Basic is tried once with Bearer', async () => {
    const requests: Request[] = []
    server.use(
      http.get(`${SERVER}/api/ce/task`, ({ request }) => {
        requests.push(request)
        return request.headers.get('authorization') === bearer
          ? ok()
          : new HttpResponse(null, { status: 401 })
      })
    )
    await client({ kind: { cloud: false, version: [9, 9] } }).client.getTask(TASK_URL, 'AYTask1')
    expect(schemesSent(requests)).toEqual([basic, bearer])
  })

  it('once the server has taken the scheme, a 401 (a 9.9 starting again) does not switch it', async () => {
    const requests: Request[] = []
    let starting = false
    server.use(
      http.get(`${SERVER}/api/ce/task`, ({ request }) => {
        requests.push(request)
        return !starting && request.headers.get('authorization') === basic
          ? ok()
          : HttpResponse.json({ errors: [{ msg: 'User is not authenticated' }] }, { status: 401 })
      })
    )
    const { client: c } = client({ kind: { cloud: false, version: [9, 9] } })
    await c.getTask(TASK_URL, 'AYTask1')
    starting = true
    await expect(c.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(/rejected the token/)
    starting = false
    await c.getTask(TASK_URL, 'AYTask1')
    expect(schemesSent(requests)).toEqual([basic, basic, basic])
  })

  it('without a token nothing is tried again', async () => {
    const requests = taskReplies(() => new HttpResponse(null, { status: 401 }))
    await expect(client({ token: undefined }).client.getTask(TASK_URL, 'AYTask1')).rejects.toThrow(
      /requires a token/
    )
    expect(requests).toHaveLength(1)
  })
})

describe("a finished task's warnings are asked for where the server sends them only when asked", () => {
  it.each([
    ['SonarQube Cloud', { cloud: true, version: undefined }, 'warnings'],
    ['SonarQube 9.9', { cloud: false, version: [9, 9] as const }, 'warnings'],
    ['SonarQube 10.0', { cloud: false, version: [10, 0] as const }, 'warnings'],
    ['SonarQube 10.1 (sends them always)', { cloud: false, version: [10, 1] as const }, null],
    ['an unknown version', { cloud: false, version: undefined }, null]
  ])('%s: additionalFields=%s', async (_, kind, asked) => {
    const requests = taskReplies(ok)
    await client({ kind }).client.getTask(TASK_URL, 'AYTask1')
    const url = new URL(requests[0]?.url ?? '')
    expect(url.searchParams.get('additionalFields')).toBe(asked)
    expect(url.searchParams.get('id')).toBe('AYTask1')
  })
})

describe("the token's expiry the server gives is reported once", () => {
  it('from the first reply that carries SonarQube-Authentication-Token-Expiration', async () => {
    taskReplies(() =>
      HttpResponse.json(taskExample, {
        headers: { 'SonarQube-Authentication-Token-Expiration': '2026-11-25T00:00:00+0000' }
      })
    )
    const seen: Date[] = []
    const { client: c } = client({ onTokenExpiration: (at) => seen.push(at) })
    await c.getTask(TASK_URL, 'AYTask1')
    await c.getTask(TASK_URL, 'AYTask1')
    expect(seen.map((at) => at.toISOString())).toEqual(['2026-11-25T00:00:00.000Z'])
  })

  it('a header that is not a date is ignored', async () => {
    taskReplies(() =>
      HttpResponse.json(taskExample, {
        headers: { 'SonarQube-Authentication-Token-Expiration': 'soon' }
      })
    )
    const seen: Date[] = []
    await client({ onTokenExpiration: (at) => seen.push(at) }).client.getTask(TASK_URL, 'AYTask1')
    expect(seen).toEqual([])
  })
})
