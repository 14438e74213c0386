import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { Routes } from '../src/app/routes.js'
import { bodyReply, jsonReply, type Reply } from '../src/http/responses.js'
import { createLogger } from '../src/log/logger.js'
import { createServiceServer } from '../src/http/server.js'
import { shutDown } from '../src/http/shutdown.js'
import { until } from './support/probes.js'
import { corsHeadersOf } from './support/test-service.js'

const VALID = 'valid-token'
const verify = async (token: string): Promise<string> => {
  if (token !== VALID) throw new Error('invalid')
  return 'subject'
}

let server: Server | undefined
afterEach(async () => {
  if (server?.listening) await shutDown(server, 1_000)
  server = undefined
})

async function serve(routes: Partial<Routes>): Promise<string> {
  const ok: Routes['root'] = () => jsonReply(200, 'ok')
  server = createServiceServer({
    basePath: '',
    allowedOrigin: 'https://app.example.com',
    verify,
    routes: { root: ok, protected: ok, ...routes },
    logger: createLogger('silent', () => undefined)
  })
  const listening = server
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
}

describe('a failing handler gives 500 JSON without details', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('secret detail at /srv/app.js:12')
      }
    ],
    ['rejects', async () => Promise.reject(new TypeError('secret detail'))]
  ])('a handler that %s', async (_name, handler) => {
    const origin = await serve({ protected: handler })
    const response = await fetch(`${origin}/genre`, { headers: { Authorization: VALID } })
    expect(response.status).toBe(500)
    const body = await response.text()
    expect(JSON.parse(body)).toEqual({ httpStatusCode: 500, error: 'Internal server error' })
    expect(body).not.toContain('secret')
    expect(corsHeadersOf(response)['access-control-allow-origin']).toBe('https://app.example.com')
  })

  it('a reply that cannot be written closes the connection instead of crashing', async () => {
    const origin = await serve({
      protected: () => ({ status: 200, headers: { 'Bad\nName': 'x' }, body: 'x' })
    })
    await expect(fetch(`${origin}/genre`, { headers: { Authorization: VALID } })).rejects.toThrow()
    expect((await fetch(`${origin}/`)).status).toBe(200)
  })

  it('a failing root handler is a 500 too', async () => {
    const origin = await serve({
      root: () => {
        throw new Error('boom')
      }
    })
    expect((await fetch(`${origin}/`)).status).toBe(500)
  })
})

describe('a filter whose decision fails', () => {
  it('gives a 500 and a "filter failed" line, and the service keeps serving', async () => {
    // A rejection the filter cannot look at: reading its prototype throws.
    const unreadable = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('unreadable')
        }
      }
    )
    const lines: string[] = []
    const ok: Routes['root'] = () => jsonReply(200, 'ok')
    server = createServiceServer({
      basePath: '',
      allowedOrigin: 'https://app.example.com',
      verify: () => Promise.reject(unreadable),
      routes: { root: ok, protected: ok },
      logger: createLogger('error', (line) => lines.push(line))
    })
    const listening = server
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
    const response = await fetch(`${origin}/genre`, { headers: { Authorization: 'x' } })
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ httpStatusCode: 500, error: 'Internal server error' })
    expect((await fetch(`${origin}/`)).status).toBe(200)
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ level: 'error', msg: 'filter failed', error: 'Error' })
    ])
  })
})

describe('replies', () => {
  it('a body outside ASCII goes out as UTF-8 with its byte length', async () => {
    const body = JSON.stringify([{ id: 1, name: 'Ciné-roman ✓ 😀' }])
    const origin = await serve({ protected: () => bodyReply(200, body) })
    const response = await fetch(`${origin}/genre`, { headers: { Authorization: VALID } })
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length)
    expect(await response.text()).toBe(body)
  })

  it('every request of a burst on many connections gets its own reply', async () => {
    const origin = await serve({
      protected: ({ path }) => jsonReply(200, { path })
    })
    const paths = Array.from({ length: 64 }, (_, i) => `/item/${i}`)
    const bodies = await Promise.all(
      paths.map(async (path) => {
        const response = await fetch(`${origin}${path}`, { headers: { Authorization: VALID } })
        return (await response.json()) as { path: string }
      })
    )
    expect(bodies.map(({ path }) => path)).toEqual(paths)
  })
})

describe('graceful shutdown: stop accepting, finish requests in flight, then close', () => {
  it('lets a slow request finish and refuses new connections', async () => {
    let release: () => void = () => undefined
    let started: () => void = () => undefined
    const inFlight = new Promise<void>((resolve) => (started = resolve))
    const origin = await serve({
      protected: async () => {
        started()
        await new Promise<void>((resolve) => (release = resolve))
        return jsonReply(200, 'finished')
      }
    })
    const slow = fetch(`${origin}/slow`, { headers: { Authorization: VALID } })
    await inFlight
    const closing = shutDown(server as Server, 5_000)
    await expect(fetch(`${origin}/`)).rejects.toThrow()
    release()
    const response = await slow
    expect(await response.json()).toBe('finished')
    expect(await closing).toBe('drained')
  })

  it('cuts connections that outlast the grace period', async () => {
    let started: () => void = () => undefined
    const inFlight = new Promise<void>((resolve) => (started = resolve))
    const origin = await serve({
      protected: () => {
        started()
        return new Promise<Reply>(() => undefined)
      }
    })
    const hanging = fetch(`${origin}/hang`, { headers: { Authorization: VALID } }).catch(
      (error: unknown) => error
    )
    await inFlight
    expect(await shutDown(server as Server, 100)).toBe('forced')
    expect(await hanging).toBeInstanceOf(Error)
  })
})

describe('the entry point', () => {
  const entry = new URL('../src/index.ts', import.meta.url).pathname
  const run = (env: Record<string, string>) =>
    spawn(process.execPath, ['--import', 'tsx', entry], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })

  it('prints where it listens and exits 0 on SIGTERM', async () => {
    const child = run({
      CLIENT_ID: 'c',
      ALLOWED_ORIGIN: 'https://app.example.com',
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_PATH: '/api'
    })
    let stdout = ''
    const listening = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /listening on (\S+)/.exec(stdout)
        if (match?.[1] !== undefined) resolve(match[1])
      })
    })
    const url = await listening
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/)
    expect((await fetch(url)).status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(stdout).toContain('"msg":"stopped"')
  })

  it('exits 1 with one "stop failed" line, no stack, when stopping fails', async () => {
    // Closing the server throws here, so the service's close() rejects.
    const failingClose = `data:text/javascript,${encodeURIComponent(
      "import http from 'node:http'\n" +
        "http.Server.prototype.closeIdleConnections = () => { throw new TypeError('close') }"
    )}`
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', failingClose, entry], {
      env: {
        PATH: process.env.PATH ?? '',
        CLIENT_ID: 'c',
        ALLOWED_ORIGIN: 'https://app.example.com',
        PORT: '0',
        HOST: '127.0.0.1'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const listening = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /listening on (\S+)/.exec(stdout)
        if (match?.[1] !== undefined) resolve(match[1])
      })
    })
    // An answer means the signal handlers, set just after that line, are there.
    expect((await fetch(await listening)).status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(1)
    const entries = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.at(-1)).toMatchObject({ level: 'error', msg: 'stop failed', error: 'TypeError' })
    expect(stderr).toBe('')
  })

  it('writes its log lines to a file given as stdout, none lost', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'service-log-'))
    const file = path.join(dir, 'service.log')
    const out = openSync(file, 'w')
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      env: {
        PATH: process.env.PATH ?? '',
        CLIENT_ID: 'c',
        ALLOWED_ORIGIN: 'https://app.example.com',
        PORT: '0',
        HOST: '127.0.0.1'
      },
      stdio: ['ignore', out, 'pipe']
    })
    try {
      closeSync(out)
      const listening = () => /listening on (\S+)/.exec(readFileSync(file, 'utf8'))?.[1]
      await until(() => listening() !== undefined)
      const url = listening() as string
      // A burst at once: several lines per turn of the event loop.
      const paths = Array.from({ length: 50 }, (_, i) => `/nowhere-${i}`)
      const statuses = await Promise.all(
        paths.map(async (p) => (await fetch(new URL(`.${p}`, url))).status)
      )
      expect(statuses.every((status) => status === 401)).toBe(true)
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      const entries = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      const logged = entries.filter((e) => e.msg === 'request').map((e) => e.path as string)
      expect(logged.sort()).toEqual([...paths].sort())
      expect(entries.at(-1)).toMatchObject({ msg: 'stopped' })
    } finally {
      child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses to start with a message naming the variable', async () => {
    const child = run({ ALLOWED_ORIGIN: 'https://app.example.com' })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(stderr).toContain('CLIENT_ID: is required')
  })
})
