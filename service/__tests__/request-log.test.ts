/**
 * The request's log line at the default level: one line per request with an id, and for a
 * 401 the reason (the reply's body stays the spec's), never the token. The id is the
 * request's X-Request-Id when that is short and plain, otherwise one the service makes.
 */
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonReply } from '../src/http/responses.js'
import { createServiceServer } from '../src/http/server.js'
import { shutDown } from '../src/http/shutdown.js'
import { createLogger } from '../src/log/logger.js'
import { createSigningKey, LocalIdentityProvider } from './support/identity-provider.js'
import { rawRequest } from './support/raw-http.js'
import { serviceWithToken, startTestService, UNAUTHORISED_BODY } from './support/test-service.js'

// LOG_LEVEL empty counts as unset: the default level, info.
const running = serviceWithToken({ LOG_LEVEL: '' })

/** Sends the head as given and gives the reply and the request's log lines, parsed. */
async function send(headers: string[]) {
  const before = running.service.logLines.length
  const reply = await rawRequest(
    running.service.origin,
    ['GET /genre?page=2 HTTP/1.1', 'Host: test', 'Connection: close', ...headers, '', ''].join(
      '\r\n'
    )
  )
  const lines = running.service.logLines.slice(before)
  return { reply, lines, entries: lines.map((line) => JSON.parse(line) as LogEntry) }
}

interface LogEntry {
  id: string
  [field: string]: unknown
}

const GENERATED_ID = /^[0-9a-f]{8}-\d+$/

describe('the request line of a 401 gives the reason, the reply does not', () => {
  it('has this shape: time, level, msg, id, method, path, status, duration, reason', async () => {
    const { reply, lines } = await send(['X-Request-Id: req-1'])
    expect(reply.status).toBe(401)
    expect(reply.body).toBe(UNAUTHORISED_BODY)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^\{"time":"\d{4}-\d\d-\d\dT[\d:.]+Z","level":"info","msg":"request","id":"req-1","method":"GET","path":"\/genre","status":401,"durationMs":[\d.]+,"reason":"missing"\}\n$/
    )
  })

  it.each([
    ['rule 3: no Authorization header', [], 'missing'],
    ['rule 4: an empty first value', ['Authorization: '], 'empty'],
    ['rule 4: an empty first value before a valid one', ['Authorization: ', 'X'], 'empty'],
    ['rule 5: the raw token after "Bearer "', ['Authorization: Bearer T'], 'a "Bearer " prefix'],
    ['rule 5: not a JWT', ['Authorization: nonsense'], 'not a JWT']
  ])('%s', async (_name, headers, reason) => {
    const withToken = headers.map((line) =>
      line === 'X' ? `Authorization: ${running.token}` : line.replace('T', running.token)
    )
    const { reply, entries } = await send(withToken)
    expect(reply.status).toBe(401)
    expect(reply.body).toBe(UNAUTHORISED_BODY)
    expect(entries).toEqual([expect.objectContaining({ status: 401, reason })])
    expect(entries[0]?.id).toMatch(GENERATED_ID)
  })

  it('an authenticated request has its subject and no reason', async () => {
    const { reply, entries } = await send([`Authorization: ${running.token}`])
    expect(reply.status).toBe(200)
    expect(entries).toEqual([expect.objectContaining({ status: 200, sub: '1234567890' })])
    expect(entries[0]).not.toHaveProperty('reason')
  })

  it('no part of a token reaches the log, whatever the reason', async () => {
    const [header, payload, signature] = running.token.split('.') as [string, string, string]
    const values = [
      `Bearer ${running.token}`,
      `${header}.${payload}.${signature.slice(0, -4)}`,
      `${header}.${payload}`,
      `${running.token} trailing`
    ]
    const { lines } = await send(values.map((value) => `Authorization: ${value}`))
    const all = [...lines]
    for (const value of values) all.push(...(await send([`Authorization: ${value}`])).lines)
    expect(all).toHaveLength(values.length + 1)
    for (const part of [header, payload, signature, signature.slice(0, -4)]) {
      expect(all.join('')).not.toContain(part)
    }
  })
})

describe('the identity provider down: the reason says so', () => {
  it('a token that needs the key set gets 401 with "key set unavailable"', async () => {
    const down = await LocalIdentityProvider.start([await createSigningKey('d')])
    down.mode = 'down'
    const fresh = await startTestService(down, { LOG_LEVEL: '' })
    try {
      const response = await fetch(`${fresh.url}genre`, {
        headers: { Authorization: running.token, 'X-Request-Id': 'down-1' }
      })
      expect(response.status).toBe(401)
      expect(await response.text()).toBe(UNAUTHORISED_BODY)
      const entries = fresh.logLines.map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(entries).toContainEqual(
        expect.objectContaining({ msg: 'key set fetch failed', level: 'warn' })
      )
      expect(entries).toContainEqual(
        expect.objectContaining({ msg: 'request', id: 'down-1', reason: 'key set unavailable' })
      )
    } finally {
      await fresh.close()
      await down.stop()
    }
  })
})

describe('the request id', () => {
  it('is made by the service when none is sent: one prefix per process, one count per request', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await send([])).entries[0]?.id ?? '')
    for (const id of ids) expect(id).toMatch(GENERATED_ID)
    expect(new Set(ids).size).toBe(3)
    expect(new Set(ids.map((id) => id.split('-')[0])).size).toBe(1)
  })

  it.each([
    ['a UUID', '3f6c1d2e-8a7b-4c5d-9e0f-112233445566'],
    ["nginx's $request_id", '0c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f'],
    ['64 characters', 'a'.repeat(64)],
    ['dots, underscores, colons', 'a.b_c:d']
  ])('%s sent as X-Request-Id is used as sent', async (_name, sent) => {
    const { entries } = await send([`X-Request-Id: ${sent}`])
    expect(entries[0]?.id).toBe(sent)
  })

  it('the first of repeated X-Request-Id headers is the one', async () => {
    const { entries } = await send(['x-request-id: first', 'X-Request-Id: second'])
    expect(entries[0]?.id).toBe('first')
  })

  it.each([
    ['65 characters', 'a'.repeat(65)],
    ['a space', 'two words'],
    ['a tab', 'tab\there'],
    ['a quote and a brace', 'x","level":"error"}'],
    ['markup', '<script>'],
    ['bytes outside ASCII', 'caf\u00e9'],
    ['a flood of 8 KiB', 'z'.repeat(8 * 1024)]
  ])('one with %s is replaced, and not logged', async (_name, sent) => {
    const { reply, lines, entries } = await send([`X-Request-Id: ${sent}`])
    expect(reply.status).toBe(401)
    expect(lines).toHaveLength(1)
    expect(entries[0]?.id).toMatch(GENERATED_ID)
    expect(lines[0]).not.toContain(sent.slice(0, 8))
  })

  it('an empty one is replaced', async () => {
    const { entries } = await send(['X-Request-Id: '])
    expect(entries[0]?.id).toMatch(GENERATED_ID)
  })
})

describe("a handler's failure is logged with the request's id", () => {
  let server: Server
  let origin: string
  const lines: string[] = []

  beforeAll(async () => {
    server = createServiceServer({
      basePath: '',
      allowedOrigin: 'https://app.example.com',
      verify: () => 'subject',
      routes: {
        root: () => jsonReply(200, 'ok'),
        protected: () => {
          throw new TypeError('details that must not be logged')
        }
      },
      logger: createLogger('info', (line) => lines.push(line))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => shutDown(server, 1_000))

  it('the error line and the request line share the id', async () => {
    const response = await fetch(`${origin}/genre`, {
      headers: { Authorization: 'any', 'X-Request-Id': 'boom-1' }
    })
    expect(response.status).toBe(500)
    await response.text()
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries).toEqual([
      expect.objectContaining({ level: 'error', msg: 'handler failed', id: 'boom-1' }),
      expect.objectContaining({ msg: 'request', id: 'boom-1', status: 500 })
    ])
    expect(lines.join('')).not.toContain('details')
  })
})
