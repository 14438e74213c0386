import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { headerOf, rawRequest, type RawReply } from './support/raw-http.js'
import { serviceWithToken, UNAUTHORISED_BODY } from './support/test-service.js'

const running = serviceWithToken(
  {},
  { limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 } }
)

const get = (headers: string[]): Promise<RawReply> =>
  rawRequest(
    running.service.origin,
    ['GET /genre HTTP/1.1', 'Host: test', 'Connection: close', ...headers, '', ''].join('\r\n')
  )

describe('rule 4: only the first Authorization value counts', () => {
  it.each([
    ['valid, then junk', () => [`Authorization: ${running.token}`, 'authorization: junk'], 200],
    ['junk, then valid', () => ['Authorization: junk', `AUTHORIZATION: ${running.token}`], 401],
    ['empty, then valid', () => ['Authorization:', `Authorization: ${running.token}`], 401],
    ['empty, with spaces only', () => ['Authorization:    '], 401],
    ['valid, then empty', () => [`authorization: ${running.token}`, 'Authorization:'], 200]
  ] as const)('%s → %i', async (_name, headers, status) => {
    const reply = await get([...headers()])
    expect(reply.status).toBe(status)
    if (status === 401) {
      expect(reply.body).toBe(UNAUTHORISED_BODY)
      expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBeUndefined()
    } else {
      expect(headerOf(reply, 'Access-Control-Allow-Origin')).toBe('https://app.example.com')
    }
  })
})

describe('request heads that are too large get 431 from Node', () => {
  it('answers 431 to a 20 KiB header and never reaches the filter', async () => {
    const reply = await get([`X-Padding: ${'a'.repeat(20 * 1024)}`])
    expect(reply.status).toBe(431)
  })
})

describe('a client that stalls while sending its head is timed out', () => {
  it('answers 408 and closes the connection', async () => {
    const { hostname, port } = new URL(running.service.origin)
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname)
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
      socket.on('close', () => resolve(text))
      socket.write('GET /genre HTTP/1.1\r\nHost: test\r\n')
    })
    expect(reply.startsWith('HTTP/1.1 408')).toBe(true)
  })
})

describe('absolute-form and asterisk targets are not the root', () => {
  it('an absolute-form target needs a token', async () => {
    const reply = await rawRequest(
      running.service.origin,
      'GET http://test/ HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n'
    )
    expect(reply.status).toBe(401)
  })

  it('OPTIONS * is a preflight', async () => {
    const reply = await rawRequest(
      running.service.origin,
      'OPTIONS * HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n'
    )
    expect(reply.status).toBe(204)
    expect(headerOf(reply, 'Access-Control-Allow-Methods')).toBe(
      'GET, POST, PUT, DELETE, PATCH, OPTIONS'
    )
  })
})

describe('pipelined requests on one connection', () => {
  it('get their replies in order, each with its own rules', async () => {
    const request = (target: string, headers: string[]): string =>
      [`GET ${target} HTTP/1.1`, 'Host: test', ...headers, '', ''].join('\r\n')
    const reply = await rawRequest(
      running.service.origin,
      request('/genre', [`Authorization: ${running.token}`]) +
        request('/', []) +
        request('/genre', ['Connection: close'])
    )
    const replies = reply.text
      .split(/(?=HTTP\/1\.1 \d{3} )/)
      .map((text) => ({ statusLine: text.split('\r\n')[0], text }))
    expect(replies.map(({ statusLine }) => statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 401 Unauthorized'
    ])
    const [genres, root, unauthorised] = replies.map(({ text }) => text)
    expect(genres).toContain('Access-Control-Allow-Origin: https://app.example.com')
    expect(genres).toContain('"name":"Action"')
    expect(root).not.toContain('Access-Control-Allow-Origin')
    expect(root).toContain('{"status":"ok"}')
    expect(unauthorised?.endsWith(UNAUTHORISED_BODY)).toBe(true)
  })
})
