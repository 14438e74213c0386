/**
 * A proxy that turns the tunnel down: it answers CONNECT with 407, 403 or 502, or nothing
 * listens at its address. `tunnel` fails the request with ECONNRESET and a sentence in each case;
 * the failure must name the proxy (never its credentials), what it said and what to do, and a
 * 407 or 403 must not be tried again. Real loopback proxies, real sockets.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCommand } from '../../src/cli/main.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { ServerRequestError } from '../../src/errors.js'
import { TransportFailure } from '../../src/http/transport.js'
import { SonarClient } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { clearProxyVariables } from '../support/proxy-variables.js'

const TASK = 'AYTask1'
const USER = 'puser'
const PASSWORD = 'pr0xy-s3cret'
/** A proxy on loopback that answers every CONNECT with `status`, recording what it was asked. */
interface RefusingProxy {
  port: number
  connects: { target: string; authorization: string | undefined }[]
  close(): Promise<void>
}

async function startRefusingProxy(status: number, reason: string): Promise<RefusingProxy> {
  const connects: RefusingProxy['connects'] = []
  const server: Server = createServer()
  server.on('connect', (request: IncomingMessage, client: Socket) => {
    connects.push({
      target: request.url ?? '',
      authorization: request.headers['proxy-authorization']
    })
    client.end(
      `HTTP/1.1 ${status} ${reason}\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n`
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    connects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** A loopback port where nothing listens: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createTcpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** The task asked through the proxy: the error it fails with, the retry lines, the sleeps. */
async function askTask(serverUrl: string) {
  const clock = new FakeClock()
  const retries: string[] = []
  const client = new SonarClient({
    serverUrl: new URL(serverUrl),
    token: 'squ_token',
    rootCert: undefined,
    userAgent: 'test',
    clock,
    deadline: 60_000,
    requestTimeoutMs: 5000,
    onRetry: (line) => retries.push(line)
  })
  const error = await client
    .getTask(client.taskUrl(TASK), TASK)
    .then(() => undefined)
    .catch((caught: unknown) => caught)
    .finally(() => client.close())
  expect(error).toBeInstanceOf(ServerRequestError)
  const failure = error as ServerRequestError
  return { failure, message: inActionWords(failure), retries, sleeps: clock.sleeps }
}

/** The transport's failure under the error, as the client keeps it. */
function transportFailureOf(error: Error): TransportFailure {
  let cause: unknown = error
  while (cause instanceof Error && !(cause instanceof TransportFailure)) cause = cause.cause
  expect(cause).toBeInstanceOf(TransportFailure)
  return cause as TransportFailure
}

function expectNoCredentials(text: string): void {
  expect(text).not.toContain(USER)
  expect(text).not.toContain(PASSWORD)
  expect(text).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString('base64'))
}

describe('a proxy that turns the tunnel down is named, with its status and the fix', () => {
  let restoreProxyVariables: () => void
  let proxy: RefusingProxy | undefined
  beforeEach(() => {
    restoreProxyVariables = clearProxyVariables()
  })
  afterEach(async () => {
    await proxy?.close()
    proxy = undefined
    restoreProxyVariables()
  })

  it('407 with credentials: fails after one CONNECT, naming the proxy without them', async () => {
    proxy = await startRefusingProxy(407, 'Proxy Authentication Required')
    process.env['HTTP_PROXY'] = `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}`

    const { failure, message, retries, sleeps } = await askTask('http://sonar.example:19002')

    expect(proxy.connects).toHaveLength(1)
    expect(proxy.connects[0]?.target).toBe('sonar.example:19002')
    // The credentials went to the proxy, and nowhere else.
    expect(proxy.connects[0]?.authorization).toBe(
      `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`
    )
    expect(retries).toEqual([])
    expect(sleeps).toEqual([])
    expect(transportFailureOf(failure).reason).toBe('proxy-refused')
    expect(message).toBe(
      `The proxy refused the tunnel to the server for task ${TASK} at http://sonar.example:19002/api/ce/task?id=${TASK}: the proxy http://127.0.0.1:${proxy.port} (HTTP_PROXY) answered HTTP 407 Proxy Authentication Required to the tunnel's CONNECT. It refused the credentials HTTP_PROXY gives: check the user and the password in it (http://user:password@host:port).`
    )
    expect(message).not.toMatch(/connection reset|ECONNRESET|tunneling socket/)
    expectNoCredentials(message)
    expectNoCredentials(String(transportFailureOf(failure).message))
  })

  it('407 without credentials: says to give them in the variable', async () => {
    proxy = await startRefusingProxy(407, 'Proxy Authentication Required')
    process.env['HTTP_PROXY'] = `http://127.0.0.1:${proxy.port}`

    const { message, retries } = await askTask('http://sonar.example:19002')

    expect(proxy.connects).toHaveLength(1)
    expect(retries).toEqual([])
    expect(message).toContain(
      "answered HTTP 407 Proxy Authentication Required to the tunnel's CONNECT. It asks for credentials: give them in HTTP_PROXY, as http://user:password@host:port."
    )
  })

  it('403 to an https:// server through HTTPS_PROXY: the host refused, NO_PROXY named', async () => {
    proxy = await startRefusingProxy(403, 'Forbidden')
    process.env['HTTPS_PROXY'] = `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}`

    const { failure, message, retries, sleeps } = await askTask('https://sonar.internal.test:8443')

    expect(proxy.connects.map(({ target }) => target)).toEqual(['sonar.internal.test:8443'])
    expect(retries).toEqual([])
    expect(sleeps).toEqual([])
    expect(transportFailureOf(failure).reason).toBe('proxy-refused')
    expect(message).toContain(
      `the proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY) answered HTTP 403 Forbidden to the tunnel's CONNECT. It does not let this machine reach sonar.internal.test:8443: have the proxy allow that host, or, if the server needs no proxy, add sonar.internal.test to NO_PROXY.`
    )
    expectNoCredentials(message)
  })

  it('502 may heal: tried again as a server’s 502 is, then fails naming the proxy and the host', async () => {
    proxy = await startRefusingProxy(502, 'Bad Gateway')
    process.env['HTTP_PROXY'] = `http://127.0.0.1:${proxy.port}`

    const { failure, message, retries } = await askTask('http://sonar.example:19002')

    expect(proxy.connects.length).toBeGreaterThan(1)
    expect(retries[0]).toMatch(
      /^proxy HTTP 502 for task AYTask1; trying again in \d+ ms \(try 2\)\.$/
    )
    expect(failure.noReply).toBe(true)
    expect(message).toContain(
      `answered HTTP 502 Bad Gateway to the tunnel's CONNECT. The proxy could not connect to sonar.example:19002, or is failing: check that sonarHostUrl (or the report's serverUrl) is the server's address as the proxy reaches it`
    )
    expect(message).toMatch(/Gave up after \d+ tries/)
  })

  it('nothing listening at the proxy: the proxy, not the server, could not be reached; 3 tries', async () => {
    const port = await closedPort()
    process.env['HTTP_PROXY'] = `http://${USER}:${PASSWORD}@127.0.0.1:${port}`

    const { failure, message, retries } = await askTask('http://sonar.example:19002')

    expect(transportFailureOf(failure).reason).toBe('refused')
    expect(failure.nodeCode).toBe('ECONNREFUSED')
    expect(retries).toHaveLength(2)
    expect(retries[0]).toMatch(
      new RegExp(
        `^connection refused at the proxy http://127\\.0\\.0\\.1:${port} \\(HTTP_PROXY\\) for task AYTask1; trying again`
      )
    )
    expect(message).toBe(
      `Could not reach the proxy on the way to the server for task ${TASK} at http://sonar.example:19002/api/ce/task?id=${TASK}: connection refused at the proxy http://127.0.0.1:${port} (HTTP_PROXY, ECONNREFUSED). Check the proxy's address in HTTP_PROXY, and that the proxy is running; if the server needs no proxy, add sonar.example to NO_PROXY. Gave up after 3 tries.`
    )
    expectNoCredentials(message)
    expectNoCredentials(retries.join('\n'))
  })

  it('the command exits 3 at once on a 407, one line naming the proxy, no credentials', async () => {
    proxy = await startRefusingProxy(407, 'Proxy Authentication Required')
    process.env['HTTP_PROXY'] = `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}`
    let log = ''
    const code = await runCommand({
      // --timeout bounds a run that does retry, so it fails here rather than at the test's time-out.
      argv: [
        '--host',
        'http://sonar.example:19002',
        '--task-id',
        TASK,
        '--initial-delay',
        '0',
        '--timeout',
        '10'
      ],
      env: { SONAR_TOKEN: 'squ_token' },
      cwd: process.cwd(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (log += text) },
      startedAt: Date.now()
    })

    expect(code).toBe(EXIT.noVerdict)
    expect(proxy.connects).toHaveLength(1)
    expect(log).not.toMatch(/trying again|connection reset/)
    expect(log).toContain(
      `the proxy http://127.0.0.1:${proxy.port} (HTTP_PROXY) answered HTTP 407 Proxy Authentication Required`
    )
    expectNoCredentials(log)
  })
})
