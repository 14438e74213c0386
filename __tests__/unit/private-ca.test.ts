import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SonarClient } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { startHttpsProxy, type HttpsProxy } from '../fault-kit/https-proxy.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'

/** `promise`, the message of its failure in the action's words. */
const saidByTheAction = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: Error) => {
    throw Object.assign(error, { message: inActionWords(error) })
  })

/** A name only the proxy knows: it sends every CONNECT to the loopback server. */
const PROXIED_HOST = 'sonar.internal.test'

describe("sonarRootCert is trusted for the action's requests only, with no global side effect", () => {
  let server: Server
  let url: URL
  let caPem: string
  let otherCaPem: string

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'private-ca-'))
    // Arguments separated by single spaces; none of them contains one.
    const openssl = (args: string) =>
      execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' })
    const selfSignedCa = (name: string): string => {
      openssl(
        `req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=${name} -keyout ${name}.key -out ${name}.pem`
      )
      return readFileSync(path.join(dir, `${name}.pem`), 'utf8')
    }
    caPem = selfSignedCa('Test-Private-CA')
    otherCaPem = selfSignedCa('Another-CA')
    openssl('req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr')
    writeFileSync(path.join(dir, 'san.ext'), `subjectAltName=IP:127.0.0.1,DNS:${PROXIED_HOST}\n`)
    openssl(
      'x509 -req -in server.csr -CA Test-Private-CA.pem -CAkey Test-Private-CA.key -CAcreateserial -days 1 -extfile san.ext -out server.pem'
    )
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

  const sonarClient = (rootCert: string | undefined, clock = new FakeClock(), serverUrl = url) =>
    new SonarClient({
      serverUrl,
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
      saidByTheAction(sonarClient(undefined, clock).getTask(new URL('/api/ce/task?id=1', url), '1'))
    ).rejects.toThrow(
      /TLS certificate not trusted \(.*\)\. For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate \(PEM\)\.$/
    )
    expect(clock.sleeps).toEqual([])
  })

  it('with it, the request succeeds', async () => {
    const task = await sonarClient(caPem).getTask(new URL('/api/ce/task?id=1', url), '1')
    expect(task.status).toBe('SUCCESS')
  })

  it('with the wrong CA, the error says that sonarRootCert is set but did not match', async () => {
    const clock = new FakeClock()
    await expect(
      saidByTheAction(
        sonarClient(otherCaPem, clock).getTask(new URL('/api/ce/task?id=1', url), '1')
      )
    ).rejects.toThrow(
      /TLS certificate not trusted \(.*\) even with sonarRootCert: it must hold, as PEM, the CA certificate that issued the server's certificate/
    )
    expect(clock.sleeps).toEqual([])
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

  describe('through an HTTPS_PROXY tunnel (CONNECT)', () => {
    let proxy: HttpsProxy

    beforeAll(async () => {
      proxy = await startHttpsProxy((server.address() as AddressInfo).port)
    })
    afterAll(() => proxy.close())

    const proxied = new URL(`https://${PROXIED_HOST}:8443`)

    it('trusts the private CA for the server behind the tunnel', async () => {
      proxy.connects.length = 0
      const client = sonarClient(caPem, new FakeClock(), proxied)
      try {
        const task = await client.getTask(new URL('/api/ce/task?id=1', proxied), '1')
        expect(task.status).toBe('SUCCESS')
      } finally {
        client.close()
      }
      expect(proxy.connects).toEqual([`${PROXIED_HOST}:8443`])
    })

    it('without it, still refuses the server at once with advice to set it', async () => {
      const clock = new FakeClock()
      const client = sonarClient(undefined, clock, proxied)
      try {
        await expect(
          saidByTheAction(client.getTask(new URL('/api/ce/task?id=1', proxied), '1'))
        ).rejects.toThrow(/TLS certificate not trusted .*sonarRootCert/)
      } finally {
        client.close()
      }
      expect(clock.sleeps).toEqual([])
    })
  })
})
