import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { get } from 'node:https'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SonarClient } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'

describe("sonarRootCert is trusted for the action's requests only, with no global side effect", () => {
  let server: Server
  let url: URL
  let caPem: string

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'private-ca-'))
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '1',
      '-subj',
      '/CN=Test Private CA'
    )
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1'
    )
    execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1\\n" > san.ext'], { cwd: dir })
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '1',
      '-extfile',
      'san.ext'
    )
    caPem = readFileSync(path.join(dir, 'ca.pem'), 'utf8')
    server = createServer(
      {
        key: readFileSync(path.join(dir, 'server.key')),
        cert: readFileSync(path.join(dir, 'server.pem'))
      },
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(taskExample))
      }
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`)
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const sonarClient = (rootCert: string | undefined, clock = new FakeClock()) =>
    new SonarClient({
      serverUrl: url,
      token: 't',
      rootCert,
      userAgent: 'test',
      clock,
      deadline: 60_000,
      requestTimeoutMs: 5000
    })

  it('without it, a server signed by a private CA is refused at once (no retry) with advice to set it', async () => {
    const clock = new FakeClock()
    await expect(
      sonarClient(undefined, clock).getTask(new URL('/api/ce/task?id=1', url), '1')
    ).rejects.toThrow(
      /TLS certificate not trusted \(.*\); for a private CA set sonarRootCert or SONAR_ROOT_CERT/
    )
    expect(clock.sleeps).toEqual([])
  })

  it('with it, the request succeeds', async () => {
    const task = await sonarClient(caPem).getTask(new URL('/api/ce/task?id=1', url), '1')
    expect(task.status).toBe('SUCCESS')
  })

  it('other requests of the process still do not trust that CA', async () => {
    await sonarClient(caPem).getTask(new URL('/api/ce/task?id=1', url), '1')
    const error = await new Promise<Error>((resolve) => {
      get(new URL('/api/ce/task?id=1', url), () => resolve(new Error('trusted'))).on(
        'error',
        resolve
      )
    })
    expect((error as NodeJS.ErrnoException).code).toMatch(/CERT|SIGNED|VERIFY/)
  })
})
