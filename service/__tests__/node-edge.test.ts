/**
 * What Node would answer itself, before or instead of the filter: an unknown `Expect` (417),
 * `CONNECT` (the connection dropped unanswered), and the requests it refuses (400, 408, 431),
 * which must each have a log line. Driven over raw sockets, as a client would send them.
 */
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { headerOf, rawRequest, type RawReply } from './support/raw-http.js'
import { ALLOWED_ORIGIN, serviceWithToken, UNAUTHORISED_BODY } from './support/test-service.js'

// At info, the level of the request lines: the log holds only them.
const running = serviceWithToken(
  { LOG_LEVEL: 'info' },
  {
    limits: {
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      keepAliveTimeoutMs: 1_000,
      checkIntervalMs: 100
    }
  }
)

const send = (method: string, target: string, headers: string[]): Promise<RawReply> =>
  rawRequest(
    running.service.origin,
    [`${method} ${target} HTTP/1.1`, 'Host: test', ...headers, '', ''].join('\r\n')
  )

const ROOT_BODY = '{"status":"ok"}'
const NOT_ALLOWED_BODY = '{"httpStatusCode":405,"error":"Method not allowed"}'

describe('an Expect other than 100-continue goes through the filter (no 417)', () => {
  const expecting = ['Expect: foo', 'Connection: close']

  it('GET / gets the root reply, without CORS headers', async () => {
    const reply = await send('GET', '/', expecting)
    expect(reply.status).toBe(200)
    expect(reply.body).toBe(ROOT_BODY)
    expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBeUndefined()
  })

  it('GET /genre without a token gets the 401', async () => {
    const reply = await send('GET', '/genre', expecting)
    expect(reply.status).toBe(401)
    expect(reply.body).toBe(UNAUTHORISED_BODY)
    expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBeUndefined()
  })

  it('OPTIONS /genre gets the preflight with the CORS headers', async () => {
    const reply = await send('OPTIONS', '/genre', expecting)
    expect(reply.status).toBe(204)
    expect(reply.body).toBe('')
    expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBe(ALLOWED_ORIGIN)
  })

  it('GET /genre with a token gets the genres with CORS, and its log line', async () => {
    const before = running.service.logLines.length
    const reply = await send('GET', '/genre', [...expecting, `Authorization: ${running.token}`])
    expect(reply.status).toBe(200)
    expect(reply.body).toContain('"name":"Action"')
    expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBe(ALLOWED_ORIGIN)
    expect(running.service.logLines.slice(before)).toEqual([
      expect.stringContaining('"method":"GET","path":"/genre","status":200')
    ])
  })
})

describe('CONNECT is answered as any method the route does not allow, then closed', () => {
  // rawRequest resolves when the server closes: a CONNECT left open would time the test out.
  const compare = async (target: string, headers: () => string[]) => {
    const connectReply = await send('CONNECT', target, headers())
    const postReply = await send('POST', target, [...headers(), 'Connection: close'])
    expect(headerOf(connectReply, 'Connection')).toBe('close')
    const parts = (reply: RawReply) => ({
      status: reply.status,
      body: reply.body,
      allow: headerOf(reply, 'Allow'),
      origin: headerOf(reply, 'Access-Control-Allow-Origin')
    })
    expect(parts(connectReply)).toEqual(parts(postReply))
    return parts(connectReply)
  }

  it('CONNECT / gets the root 405 with Allow and no CORS headers', async () => {
    expect(await compare('/', () => [])).toEqual({
      status: 405,
      body: NOT_ALLOWED_BODY,
      allow: 'GET, HEAD',
      origin: undefined
    })
  })

  it('CONNECT /genre without a token gets the exact 401', async () => {
    expect(await compare('/genre', () => [])).toEqual({
      status: 401,
      body: UNAUTHORISED_BODY,
      allow: undefined,
      origin: undefined
    })
  })

  it('CONNECT /genre with a token gets 405 with Allow and the CORS headers', async () => {
    expect(await compare('/genre', () => [`Authorization: ${running.token}`])).toEqual({
      status: 405,
      body: NOT_ALLOWED_BODY,
      allow: 'GET, HEAD',
      origin: ALLOWED_ORIGIN
    })
  })

  it('an authority-form target (host:port) is neither root nor route: 401 without a token', async () => {
    const reply = await send('CONNECT', 'test:443', [])
    expect(reply.status).toBe(401)
    expect(reply.body).toBe(UNAUTHORISED_BODY)
    const authorised = await send('CONNECT', 'test:443', [`Authorization: ${running.token}`])
    expect(authorised.status).toBe(404)
    expect(headerOf(authorised, 'Access-Control-Allow-Origin')).toBe(ALLOWED_ORIGIN)
  })

  it('has its log line, and bytes sent after its head are not read as a request', async () => {
    const before = running.service.logLines.length
    const reply = await rawRequest(
      running.service.origin,
      'CONNECT / HTTP/1.1\r\nHost: test\r\n\r\nGET / HTTP/1.1\r\nHost: test\r\n\r\n'
    )
    expect(reply.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 405'])
    expect(running.service.logLines.slice(before)).toEqual([
      expect.stringContaining('"method":"CONNECT","path":"/","status":405')
    ])
  })
})

describe('a CONNECT connection is closed by the service', () => {
  it('even when the client keeps its side open', async () => {
    const { server } = running.service
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count)))
      )
    const { hostname, port } = new URL(running.service.origin)
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true })
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.write('CONNECT / HTTP/1.1\r\nHost: test\r\n\r\n')
    await new Promise((resolve) => socket.once('end', resolve))
    expect(text).toMatch(/^HTTP\/1\.1 405 /)
    let open = await connections()
    for (let i = 0; i < 100 && open > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      open = await connections()
    }
    socket.destroy()
    expect(open).toBe(0)
  })
})

describe('requests Node refuses itself: its reply, unchanged, and one log line', () => {
  const MARKER = 'SECRET-MARKER'

  /** The raw reply and the log lines written meanwhile, parsed. */
  const refused = async (request: string) => {
    const before = running.service.logLines.length
    const reply = await rawRequest(running.service.origin, request)
    const lines = running.service.logLines.slice(before)
    return { text: reply.text, lines, entries: lines.map((line) => JSON.parse(line) as object) }
  }

  it('400 for bytes that are not HTTP, without echoing them', async () => {
    const { text, lines, entries } = await refused(`${MARKER} nonsense\r\n\r\n`)
    expect(text).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^\{"time":"[^"]+","level":"info","msg":"request","id":"[0-9a-f]{8}-\d+","status":400,"reason":"malformed request"\}\n$/
    )
    expect(entries).toEqual([expect.objectContaining({ status: 400 })])
  })

  it('431 for a head over the limit', async () => {
    const { text, lines } = await refused(
      `GET /${MARKER} HTTP/1.1\r\nHost: test\r\nX-Padding: ${MARKER.repeat(2_000)}\r\n\r\n`
    )
    expect(text).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n')
    expect(lines).toEqual([expect.stringContaining('"status":431,"reason":"head too large"}')])
    expect(lines[0]).not.toContain(MARKER)
  })

  it('408 for a head that does not arrive in time', async () => {
    const { text, entries } = await refused(`GET /${MARKER} HTTP/1.1\r\nHost: test\r\n`)
    expect(text).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n')
    expect(entries).toEqual([
      expect.objectContaining({ status: 408, reason: 'head not received in time' })
    ])
  })

  it('408 for a body that does not arrive in time, after the request had its reply', async () => {
    const { text, entries } = await refused(
      'POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nab'
    )
    expect(text).toMatch(
      /^HTTP\/1\.1 405 [^]*\}HTTP\/1\.1 408 Request Timeout\r\nConnection: close\r\n\r\n$/
    )
    expect(entries).toEqual([
      expect.objectContaining({ method: 'POST', status: 405 }),
      expect.objectContaining({ status: 408, reason: 'body not received in time' })
    ])
  })
})

describe('the limits as the README states them, measured', () => {
  it('Node counts the target, header names and values: 16,383 bytes pass, 16,384 get 431', async () => {
    // GET / HTTP/1.1, Host: test, Connection: close and X: padding; counted: 1 + 4 + 4 + 10 + 5 + 1.
    const head = (counted: number) =>
      `GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\nX: ${'a'.repeat(counted - 25)}\r\n\r\n`
    const passing = head(16_383)
    expect(passing.length).toBe(16_383 + 29)
    expect((await rawRequest(running.service.origin, passing)).status).toBe(200)
    expect((await rawRequest(running.service.origin, head(16_384))).status).toBe(431)
  })

  it('an idle keep-alive connection closes one second after keepAliveTimeout', async () => {
    const { hostname, port } = new URL(running.service.origin)
    const idleMs = await new Promise<number>((resolve) => {
      const socket = connect(Number(port), hostname)
      let repliedAt = 0
      socket.on('data', () => (repliedAt ||= performance.now()))
      socket.on('close', () => resolve(performance.now() - repliedAt))
      socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n')
    })
    // keepAliveTimeoutMs is 1 s here: Node closes the connection at 1 + 1 s.
    expect(idleMs).toBeGreaterThanOrEqual(1_950)
    expect(idleMs).toBeLessThan(2_500)
  })
})
