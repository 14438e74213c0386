/**
 * The HTTP client against real loopback servers that misbehave: cut connections, endless and
 * slow bodies, hostile JSON, odd redirects and Retry-After values, nothing listening at all.
 * Real sockets (msw's transport hides most of these); the client's clock is a fake, so its waits
 * between tries are recorded, not slept. How long each fault takes on the wire is
 * bench/broken-replies.ts's measure.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ServerRequestError, UnsafeRequestError } from '../../src/errors.js'
import { SonarClient, type SonarClientOptions } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'
import { testCertificates } from '../fault-kit/certificates.js'
import { brokenReplies, deepJson, replyJson } from '../fault-kit/faults.js'
import {
  closedPort,
  json,
  startLoopbackServer,
  type LoopbackServer
} from '../fault-kit/http-server.js'
import { startRawServer, type RawHandler, type RawServer } from '../fault-kit/raw-server.js'

const open: (RawServer | LoopbackServer)[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()))
})

async function raw(handle: RawHandler): Promise<RawServer> {
  const server = await startRawServer(handle)
  open.push(server)
  return server
}

/**
 * A client for `serverUrl` on a fake clock, with `budgetMs` of it until its overall deadline:
 * `clock.sleeps` are its waits between tries.
 */
function clientFor(
  serverUrl: string,
  budgetMs = 20_000,
  options: Partial<SonarClientOptions> = {}
) {
  const retries: string[] = []
  const clock = new FakeClock()
  const client = new SonarClient({
    serverUrl: new URL(serverUrl),
    token: 'squ_faultkit',
    rootCert: undefined,
    userAgent: 'fault-kit',
    clock,
    deadline: budgetMs,
    onRetry: (line) => retries.push(line),
    ...options
  })
  const read = async () => {
    try {
      return await client.getTask(new URL('/api/ce/task?id=AYTask1', serverUrl), 'AYTask1')
    } finally {
      client.close()
    }
  }
  return { read, retries, clock }
}

/** How a promise settled; an error's message in the action's words. */
async function settled<T>(promise: Promise<T>) {
  return promise.then(
    (value) => ({ value, error: undefined }),
    (error: Error) => ({
      value: undefined,
      error: Object.assign(error, { message: inActionWords(error) })
    })
  )
}

describe('a reply cut off mid-body is seen at once and tried again', () => {
  it.each([
    [
      'closed',
      brokenReplies.closeMidBody,
      /^the connection closed after 10 bytes of the reply body, before its end for task AYTask1; trying again in \d+ ms \(try 2\)\.$/
    ],
    [
      'reset',
      brokenReplies.resetMidBody,
      /^connection reset for task AYTask1; trying again in \d+ ms \(try 2\)\.$/
    ]
  ])('connection %s after 10 of 1000 bytes, then a whole reply', async (_, fault, retryLine) => {
    const server = await raw((socket, _line, count) =>
      count === 1 ? fault(socket) : replyJson(socket, taskExample)
    )
    const { read, retries, clock } = clientFor(server.url)
    const { value } = await settled(read())
    expect(value?.status).toBe('SUCCESS')
    expect(server.requests).toBe(2)
    // Its own cause, not the 10 s per-request time-out, and one wait before the second try.
    expect(retries).toEqual([expect.stringMatching(retryLine)])
    expect(clock.sleeps).toHaveLength(1)
  })

  it('a body that ends half-way through its JSON when the connection closes is tried again', async () => {
    const server = await raw((socket, _line, count) =>
      count === 1
        ? brokenReplies.halfJsonThenClose(socket, taskExample)
        : replyJson(socket, taskExample)
    )
    const { read, retries } = clientFor(server.url)
    expect((await read()).status).toBe('SUCCESS')
    expect(retries[0]).toMatch(/^truncated body for task AYTask1; trying again/)
  })
})

describe('bodies are read in linear time up to 10 MB, and a larger one is refused at once', () => {
  it('an endless body stops at 10 MB with a clear error, not retried', async () => {
    const server = await raw((socket) => brokenReplies.endlessBody(socket))
    const { read, clock } = clientFor(server.url)
    const { error } = await settled(read())
    expect(error).toBeInstanceOf(ServerRequestError)
    expect(error?.message).toMatch(
      /^The server's reply for task AYTask1 at http:\/\/127\.0\.0\.1:\d+\/api\/ce\/task\?id=AYTask1 was refused: the reply body is larger than 10 MB, the most that is read\./
    )
    expect(server.requests).toBe(1)
    expect(clock.sleeps).toEqual([])
  })

  it('a Content-Length over the limit is refused before reading, not at the time-out', async () => {
    // The server sends the head and then nothing: only the announced length can end the read.
    const server = await raw((socket) => brokenReplies.announcedHuge(socket))
    const { error } = await settled(clientFor(server.url).read())
    expect(error?.message).toMatch(/larger than 10 MB/)
    expect(error?.message).not.toMatch(/no reply within/)
    expect(server.requests).toBe(1)
  })

  // A read that copied the whole buffer at every chunk took 20–30 s: the test's time-out.
  it('a 9 MB reply in small chunks is read whole', { timeout: 10_000 }, async () => {
    const padding = 'x'.repeat(9 * 1024 * 1024)
    const server = await startLoopbackServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const text = JSON.stringify({ ...taskExample, padding })
      for (let i = 0; i < text.length; i += 1024) response.write(text.slice(i, i + 1024))
      response.end()
    })
    open.push(server)
    const { value } = await settled(clientFor(server.url).read())
    expect(value?.status).toBe('SUCCESS')
  })
})

describe('a body that trickles is cut at the per-request time-out and tried again', () => {
  it('one byte every 100 ms, a 500 ms request time-out', async () => {
    const server = await raw((socket, _line, count) =>
      count === 1 ? brokenReplies.tricklingBody(socket, 100) : replyJson(socket, taskExample)
    )
    const { read, retries } = clientFor(server.url, 20_000, { requestTimeoutMs: 500 })
    expect((await read()).status).toBe('SUCCESS')
    expect(retries[0]).toMatch(/^no reply within 0\.5 s for task AYTask1; trying again/)
  })
})

describe('a body that is not JSON gets its own message', () => {
  it.each([
    ['empty', '', /is empty \(0 bytes, Content-Length 0\)/],
    ['white space', '  \n', /is empty \(3 bytes/],
    [
      'nested 100,000 deep',
      deepJson(100_000),
      /nests deeper than 64 levels: it is not a Web API reply/
    ],
    [
      'other text',
      'Service Unavailable',
      /is not JSON \(application\/json\); it starts with "Service Unavailable"/
    ]
  ])('%s', async (_, body, message) => {
    const server = await raw((socket) => brokenReplies.bytes(socket, body))
    const { error } = await settled(clientFor(server.url).read())
    expect(error).toBeInstanceOf(ServerRequestError)
    expect(error?.message).toMatch(message)
    expect(error?.message).not.toMatch(/Maximum call stack|Expected JSON but got/)
    expect(server.requests).toBe(1)
  })

  it.each([true, false])('gzip-compressed (announced: %s)', async (announced) => {
    const server = await raw((socket) => brokenReplies.gzipped(socket, taskExample, { announced }))
    const { error } = await settled(clientFor(server.url).read())
    expect(error?.message).toMatch(
      announced
        ? /is compressed \(Content-Encoding: gzip\) though the action asks for none/
        : /is gzip-compressed data without a Content-Encoding header/
    )
  })

  it('a byte order mark before the JSON is skipped', async () => {
    const server = await raw((socket) =>
      brokenReplies.bytes(
        socket,
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(taskExample))])
      )
    )
    expect((await clientFor(server.url).read()).status).toBe('SUCCESS')
  })
})

describe('Retry-After never makes a hot loop', () => {
  it.each(['0', 'Wed, 21 Oct 2015 07:28:00 GMT', '1.5', '-5', 'garbage', ''])(
    'Retry-After %j: at most a handful of requests in 2 s, each after a wait',
    async (value) => {
      const server = await raw((socket) => brokenReplies.retryAfter(socket, value))
      const { read, clock } = clientFor(server.url, 2000)
      const { error } = await settled(read())
      expect(error?.message).toMatch(/HTTP 429/)
      // Backoff 125–250 ms, doubling: about 4 tries in 2 s; 1,300–2,300 when 0 was taken at its word.
      expect(server.requests).toBeGreaterThanOrEqual(2)
      expect(server.requests).toBeLessThanOrEqual(6)
      expect(clock.sleeps).toHaveLength(server.requests - 1)
      expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(125)
      expect(clock.now()).toBeLessThanOrEqual(2000)
    }
  )

  it('a Retry-After longer than the time-out leaves fails at once and says so', async () => {
    const server = await raw((socket) => brokenReplies.retryAfter(socket, '3600', 503))
    const { read, clock } = clientFor(server.url, 20_000)
    const { error } = await settled(read())
    expect(error?.message).toMatch(
      /HTTP 503 .*The server asked to wait 3600 s before another try \(Retry-After\), more than the overall time-out \(pollingTimeoutSec\) leaves \(\d+ s\)\.$/
    )
    expect(server.requests).toBe(1)
    expect(clock.sleeps).toEqual([])
  })
})

describe('nothing answering at the address fails in about a second, after 3 tries, naming the cause', () => {
  it('connection refused', async () => {
    const port = await closedPort()
    const { read, retries, clock } = clientFor(`http://127.0.0.1:${port}`, 60_000)
    const { error } = await settled(read())
    expect(error?.message).toMatch(
      /^Could not reach the server for task AYTask1 at http:\/\/127\.0\.0\.1:\d+\/api\/ce\/task\?id=AYTask1: connection refused \(ECONNREFUSED\)\. Check the address .* Gave up after 3 tries\.$/
    )
    expect((error as ServerRequestError).nodeCode).toBe('ECONNREFUSED')
    expect(retries).toHaveLength(2)
    expect(retries[0]).toMatch(/^connection refused for task AYTask1; trying again/)
    // Two short waits (125–250 ms, then 250–500 ms), not the minute the time-out leaves.
    expect(clock.sleeps).toHaveLength(2)
    expect(clock.now()).toBeLessThanOrEqual(750)
  })

  it('host not found', async () => {
    const { read, retries, clock } = clientFor('http://sonar.nothing.invalid', 60_000)
    const { error } = await settled(read())
    expect(error?.message).toMatch(
      /: host not found \(DNS, (ENOTFOUND|EAI_AGAIN)\)\. .* Gave up after 3 tries\.$/
    )
    expect(retries[0]).toMatch(/^host not found \(DNS\) for task AYTask1/)
    expect(clock.sleeps).toHaveLength(2)
    expect(clock.now()).toBeLessThanOrEqual(750)
  })

  it('a server that answers 503 keeps the patient retries', async () => {
    const server = await raw((socket, _line, count) =>
      count <= 4 ? brokenReplies.bytes(socket, '{}', 503) : replyJson(socket, taskExample)
    )
    const { read, retries } = clientFor(server.url)
    expect((await read()).status).toBe('SUCCESS')
    expect(retries.map((line) => line.split(' for ')[0])).toEqual([
      'HTTP 503',
      'HTTP 503',
      'HTTP 503',
      'HTTP 503'
    ])
  })
})

describe('redirects: http → https of the same host works; anything but an http(s) address fails at once', () => {
  it('a real http server answering 301 to a real https server on the same host, with sonarRootCert', async () => {
    const secure = await startLoopbackServer((_, response) => json(response, taskExample), {
      tls: true
    })
    const plain = await startLoopbackServer((request, response) => {
      response.writeHead(301, { location: new URL(request.url ?? '/', secure.url).href })
      response.end()
    })
    open.push(secure, plain)
    // Two polls: the second reuses the connections, so the pools of both protocols are exercised.
    const client = new SonarClient({
      serverUrl: new URL(plain.url),
      token: 'squ_faultkit',
      rootCert: testCertificates().caPem,
      userAgent: 'fault-kit',
      clock: new FakeClock(),
      deadline: 20_000
    })
    try {
      for (let poll = 0; poll < 2; poll++) {
        const task = await client.getTask(new URL('/api/ce/task?id=AYTask1', plain.url), 'AYTask1')
        expect(task.status).toBe('SUCCESS')
      }
    } finally {
      client.close()
    }
    expect(plain.received).toHaveLength(2)
    expect(secure.received).toHaveLength(2)
    expect(secure.received[0]?.headers.authorization).toMatch(/^Basic /)
  })

  it.each([
    [
      'javascript:alert(1)',
      /redirected the request for task AYTask1 to "javascript:alert\(1\)": only http:\/\/ and https:\/\/ addresses/
    ],
    [
      'http://[bad',
      /redirected the request for task AYTask1 to "http:\/\/\[bad", which is not an address/
    ],
    ['ftp://127.0.0.1/x', /to "ftp:\/\/127\.0\.0\.1\/x": only http:\/\/ and https:\/\//]
  ])('Location %j', async (location, message) => {
    const server = await raw((socket) => brokenReplies.redirect(socket, location))
    const { error } = await settled(clientFor(server.url).read())
    expect(error).toBeInstanceOf(ServerRequestError)
    expect(error?.message).toMatch(message)
    expect(server.requests).toBe(1)
  })

  it('a Location with credentials is refused without showing them', async () => {
    const server = await raw((socket) =>
      brokenReplies.redirect(socket, 'http://admin:hunter2@127.0.0.1/x')
    )
    const { error } = await settled(clientFor(server.url).read())
    expect(error).toBeInstanceOf(UnsafeRequestError)
    expect(error?.message).not.toMatch(/admin|hunter2/)
  })

  it('a Location with control characters is quoted visibly, on one line', async () => {
    // Node's parser refuses C0 controls in a header; C1 controls (NEL here) pass as latin1.
    const server = await raw((socket) => brokenReplies.redirect(socket, 'javascript:x\u0085y'))
    const { error } = await settled(clientFor(server.url).read())
    expect(error?.message).toContain('\\x85y"')
    expect(error?.message).not.toContain('\u0085')
  })

  it('a reply that is not valid HTTP fails at once', async () => {
    const server = await raw((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nbad header\u0007: x\r\n\r\n')
    )
    const { read, clock } = clientFor(server.url)
    const { error } = await settled(read())
    expect(error?.message).toMatch(/: the reply is not valid HTTP \(HPE_INVALID_HEADER_TOKEN: /)
    expect(server.requests).toBe(1)
    expect(clock.sleeps).toEqual([])
  })
})

describe('IPv6 literal hosts work', () => {
  it('http://[::1]:port', async () => {
    const server = await startLoopbackServer((_, response) => json(response, taskExample), {
      host: '::1'
    })
    open.push(server)
    expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/)
    expect((await clientFor(server.url).read()).status).toBe('SUCCESS')
  })

  it('https://[::1]:port with sonarRootCert', async () => {
    const server = await startLoopbackServer((_, response) => json(response, taskExample), {
      host: '::1',
      tls: true
    })
    open.push(server)
    const { read } = clientFor(server.url, 20_000, { rootCert: testCertificates().caPem })
    expect((await read()).status).toBe('SUCCESS')
  })
})

describe("the server's own words on 400, 403 and 404, from a real server", () => {
  it('403 Insufficient privileges', async () => {
    const server = await raw((socket) =>
      replyJson(socket, { errors: [{ msg: 'Insufficient privileges' }] }, 403)
    )
    const { error } = await settled(clientFor(server.url).read())
    expect(error?.message).toMatch(
      /^The server says: "Insufficient privileges"\. The token may not read task AYTask1/
    )
  })
})
