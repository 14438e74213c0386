import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SonarClient } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'

/** A loopback server that counts TCP connections; `hang` requests never get an answer. */
async function countingServer(hang: (n: number) => boolean = () => false) {
  let connections = 0
  let requests = 0
  const server: Server = createServer((_, response) => {
    if (hang(++requests)) return
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(taskExample))
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return {
    url,
    server,
    get connections() {
      return connections
    }
  }
}

let running: Server | undefined
afterEach(async () => {
  running?.closeAllConnections()
  await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()))
})

const client = (url: URL, requestTimeoutMs = 5000) =>
  new SonarClient({
    serverUrl: url,
    token: 't',
    rootCert: undefined,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    requestTimeoutMs
  })

describe('polls reuse one kept-alive connection', () => {
  it('three polls, one connection', async () => {
    const target = await countingServer()
    running = target.server
    const sonar = client(target.url)
    for (let i = 0; i < 3; i++) await sonar.getTask(new URL('/api/ce/task?id=1', target.url), '1')
    sonar.close()
    expect(target.connections).toBe(1)
  })

  it('a request cut by its time-out drops the connection; the retry opens a new one', async () => {
    const target = await countingServer((n) => n === 1)
    running = target.server
    // Long enough that the retry's answer comes within it on a loaded machine.
    const sonar = client(target.url, 500)
    const task = await sonar.getTask(new URL('/api/ce/task?id=1', target.url), '1')
    sonar.close()
    expect(task.status).toBe('SUCCESS')
    expect(target.connections).toBe(2)
  })
})
