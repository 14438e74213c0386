/**
 * A request that fails keeps what names its failure: Node's code (ECONNREFUSED, ECONNRESET,
 * CERT_HAS_EXPIRED…) in the message and on the error, the transport's failure as its cause, and
 * the error's code and Node's in the command's JSON results. Real loopback servers and raw
 * sockets; the client's clock is a fake, so its waits between tries are recorded, not slept.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { actionSink, inActionWords } from '../../__fixtures__/sinks.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { runCommand } from '../../src/cli/main.js'
import { saidOf, ServerRequestError } from '../../src/errors.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { resultsOutput } from '../../src/report/outputs.js'
import { SonarClient, type SonarClientOptions } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { brokenReplies } from '../fault-kit/faults.js'
import { closedPort, json, startLoopbackServer } from '../fault-kit/http-server.js'
import { startRawServer, type RawHandler } from '../fault-kit/raw-server.js'
import { startTlsFaultServer } from '../fault-kit/tls-faults.js'

const TASK = 'AYTask1'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()))
})

async function raw(handle: RawHandler) {
  const server = await startRawServer(handle)
  open.push(server)
  return server
}

/**
 * The client's failure reading the task from `serverUrl`, with `budgetMs` of a fake clock (0:
 * one try).
 */
async function failureReading(
  serverUrl: string,
  budgetMs = 2_000,
  options: Partial<SonarClientOptions> = {}
) {
  const retries: string[] = []
  const client = new SonarClient({
    serverUrl: new URL(serverUrl),
    token: 'squ_faultkit',
    rootCert: undefined,
    userAgent: 'fault-kit',
    clock: new FakeClock(),
    deadline: budgetMs,
    onRetry: (line) => retries.push(line),
    ...options
  })
  const error: unknown = await client
    .getTask(client.taskUrl(TASK), TASK)
    .then(() => undefined)
    .catch((caught: unknown) => caught)
    .finally(() => client.close())
  expect(error).toBeInstanceOf(ServerRequestError)
  return { error: error as ServerRequestError, retries }
}

/** The error and the causes under it, outermost first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let at = error; at !== undefined; at = (at as { cause?: unknown }).cause) chain.push(at)
  return chain
}

describe('a connection that fails keeps Node’s code in the message, on the error and as its cause', () => {
  it('connection refused: "(ECONNREFUSED)", after the tries it is given', async () => {
    const { error, retries } = await failureReading(`http://127.0.0.1:${await closedPort()}`)
    expect(error.message).toMatch(
      /: connection refused \(ECONNREFUSED\)\. Check the address .* Gave up after 3 tries\.$/
    )
    expect(error.nodeCode).toBe('ECONNREFUSED')
    expect(error.status).toBeUndefined()
    // The retry lines keep their few words.
    expect(retries[0]).toMatch(/^connection refused for task AYTask1; trying again/)
    // The last try's error, then the transport's failure, then Node's own error.
    const chain = causeChain(error)
    expect(chain[1]).toBeInstanceOf(ServerRequestError)
    expect(chain.at(-1)).toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('a connection reset before any reply: "(ECONNRESET)", tried until the time-out leaves no time', async () => {
    const server = await raw((socket) => socket.resetAndDestroy())
    const { error, retries } = await failureReading(server.url)
    expect(error.message).toMatch(
      /^Could not read the server's reply for task AYTask1 at .*: connection reset \(ECONNRESET\)\. Check the network/
    )
    expect(error.message).toMatch(/Gave up after \d+ tries: the overall time-out/)
    expect(error.nodeCode).toBe('ECONNRESET')
    expect(retries[0]).toMatch(/^connection reset for task AYTask1; trying again/)
    expect(causeChain(error).at(-1)).toMatchObject({ code: 'ECONNRESET' })
  })

  it('a body cut off by a close: where it was cut, and Node’s code for it (ECONNRESET)', async () => {
    const server = await raw((socket) => brokenReplies.closeMidBody(socket))
    const { error } = await failureReading(server.url, 0)
    expect(error.message).toMatch(
      /: the connection closed after 10 bytes of the reply body, before its end \(ECONNRESET\)\. Check the network/
    )
    expect(error.nodeCode).toBe('ECONNRESET')
  })

  it('a try that times out, where Node gives no code: none is made up', async () => {
    const server = await raw(() => {})
    const { error } = await failureReading(server.url, 0, { requestTimeoutMs: 200 })
    expect(error.message).toMatch(/: no reply within 0\.2 s\. Check the network/)
    expect(error.nodeCode).toBeUndefined()
  })
})

describe('the JSON results give an unread analysis its error code, and Node’s when known', () => {
  it('from the client’s failure: errorCode and nodeCode beside the message', async () => {
    const { error } = await failureReading(`http://127.0.0.1:${await closedPort()}`)
    const unread: AnalysisOutcome = {
      read: false,
      source: 'build/sonar/report-task.txt',
      projectKey: 'shop',
      // As the check builds it (check-analyses.ts): the message said, its settings named.
      message: saidOf(error),
      error
    }
    expect(JSON.parse(resultsOutput([unread], { sink: actionSink() }))).toEqual([
      {
        projectKey: 'shop',
        source: 'build/sonar/report-task.txt',
        error: inActionWords(error),
        errorCode: 'ERR_SERVER_REQUEST',
        nodeCode: 'ECONNREFUSED'
      }
    ])
  })

  /** The command's run against `host` for the task, its JSON results on standard output. */
  async function commandResults(host: string, extra: string[] = []) {
    let stdout = ''
    const exitCode = await runCommand({
      argv: ['--host', host, '--task-id', TASK, '--initial-delay', '0', '--json', '-', ...extra],
      env: { SONAR_TOKEN: 'squ_token' },
      cwd: process.cwd(),
      stdout: { write: (text: string) => Boolean((stdout += text)) },
      stderr: { write: () => true },
      startedAt: Date.now()
    })
    return { exitCode, results: JSON.parse(stdout) as Record<string, unknown>[] }
  }

  it('the command, for an expired certificate: ERR_SERVER_REQUEST and CERT_HAS_EXPIRED', async () => {
    const server = await startTlsFaultServer('expired')
    open.push(server)
    const { exitCode, results } = await commandResults(server.url, [
      '--root-cert-file',
      server.rootCertFile!
    ])
    expect(exitCode).toBe(EXIT.noVerdict)
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({
      errorCode: 'ERR_SERVER_REQUEST',
      nodeCode: 'CERT_HAS_EXPIRED',
      error: expect.stringContaining('(CERT_HAS_EXPIRED)')
    })
  })

  it('the command, for a reply that is not HTTP: Node’s parser code', async () => {
    const server = await startTlsFaultServer('not-http')
    open.push(server)
    const { exitCode, results } = await commandResults(server.url)
    expect(exitCode).toBe(EXIT.noVerdict)
    expect(results[0]).toMatchObject({
      errorCode: 'ERR_SERVER_REQUEST',
      nodeCode: expect.stringMatching(/^HPE_/)
    })
  })

  it('the command, for a task the server does not know: the error code, and no Node code', async () => {
    const server = await startLoopbackServer((_, response) =>
      json(response, { errors: [{ msg: `No activity found for id '${TASK}'` }] }, 404)
    )
    open.push(server)
    const { exitCode, results } = await commandResults(server.url)
    expect(exitCode).toBe(EXIT.noVerdict)
    expect(results[0]).toMatchObject({ errorCode: 'ERR_SERVER_REQUEST' })
    expect(results[0]).not.toHaveProperty('nodeCode')
  })
})
