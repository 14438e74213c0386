/**
 * TLS and protocol failures against real loopback servers: waiting does not fix any of them, so
 * each fails after one connection, on one line that keeps Node's code and names the fix, in the
 * client and in the command.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../../src/cli/main.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { ServerRequestError } from '../../src/errors.js'
import { SonarClient } from '../../src/sonar/client.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import {
  OTHER_NAMES,
  startTlsFaultServer,
  TLS_FAULTS,
  type TlsFault,
  type TlsFaultServer
} from '../fault-kit/tls-faults.js'
import { startHttpsProxy, type HttpsProxy } from '../fault-kit/https-proxy.js'

const TASK = 'AYTask1'

/**
 * What each failure must say: the fix, in the client's words (as the action says them) and in
 * the command's.
 */
const FIXES: Record<TlsFault, { client: RegExp; command: RegExp }> = {
  'plain-http': {
    client:
      /it does not speak TLS there \(EPROTO: wrong version number\): a plain-HTTP server or port answers at this https:\/\/ address\. Use http:\/\/ instead of https:\/\/ in sonarHostUrl/,
    command: /\(EPROTO: wrong version number\).* Use http:\/\/ instead of https:\/\/ in --host/
  },
  'self-signed': {
    client:
      /TLS certificate not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): the server's certificate is self-signed\. Set sonarRootCert or SONAR_ROOT_CERT to that certificate \(PEM\)/,
    command:
      /\(DEPTH_ZERO_SELF_SIGNED_CERT\).* Set SONAR_ROOT_CERT or --root-cert-file to that certificate/
  },
  'unknown-ca': {
    client:
      /TLS certificate not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate/,
    command:
      /\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. .*set SONAR_ROOT_CERT or --root-cert-file to that CA's certificate/
  },
  'ca-in-chain': {
    client:
      /TLS certificate not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)\. For a server behind a private CA, set sonarRootCert or SONAR_ROOT_CERT to that CA's certificate/,
    command:
      /\(SELF_SIGNED_CERT_IN_CHAIN\)\. .*set SONAR_ROOT_CERT or --root-cert-file to that CA's certificate/
  },
  expired: {
    client:
      /the server's TLS certificate has expired \(CERT_HAS_EXPIRED\)\. Renew it on the server; if it was renewed, check that this machine's clock is right\./,
    command: /has expired \(CERT_HAS_EXPIRED\)\. Renew it on the server/
  },
  'not-yet-valid': {
    client:
      /the server's TLS certificate is not valid yet \(CERT_NOT_YET_VALID\)\. Check that this machine's clock is right, and the certificate's start date on the server\./,
    command: /is not valid yet \(CERT_NOT_YET_VALID\)\. Check that this machine's clock is right/
  },
  'client-certificate': {
    client:
      /TLS failed \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: tlsv13 alert certificate required\)\. Check that sonarHostUrl \(or the report's serverUrl\) is the server's HTTPS address, and what the server \(or what stands in front of it\) requires: the action speaks TLS 1\.2 and 1\.3 and sends no client certificate\./,
    command:
      /TLS failed \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: .*\)\. Check that --host .*sends no client certificate/
  },
  'other-name': {
    client: new RegExp(
      `the server's TLS certificate does not name 127\\.0\\.0\\.1 \\(ERR_TLS_CERT_ALTNAME_INVALID\\): it names "${OTHER_NAMES.replace(/[.*]/g, '\\$&')}"\\. Use a host name the certificate holds in sonarHostUrl`
    ),
    command:
      /\(ERR_TLS_CERT_ALTNAME_INVALID\): it names "DNS:sonar\.other\.test, .*"\. Use a host name the certificate holds in --host/
  },
  'not-http': {
    client:
      /the reply is not HTTP \(HPE_INVALID_CONSTANT: Expected HTTP\/, RTSP\/ or ICE\/\): something other than a web server answers on that port\. Check the port in sonarHostUrl/,
    command: /the reply is not HTTP \(HPE_INVALID_CONSTANT: .*\): .* Check the port in --host/
  }
}

const FAULTS = Object.keys(TLS_FAULTS) as TlsFault[]

/** One line of plain words: no line break, none of OpenSSL's internals. */
function expectOneCleanLine(message: string): void {
  expect(message).not.toMatch(/[\r\n]/)
  expect(message).not.toMatch(/deps\/openssl|:error:[0-9A-F]+:|SSL routines/)
}

describe('a TLS or protocol failure is not tried again: one connection, one line with the code and the fix', () => {
  let server: TlsFaultServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  describe.each(FAULTS)('%s', (fault) => {
    it('the client fails after one connection, without waiting, with the code and the fix', async () => {
      server = await startTlsFaultServer(fault)
      const clock = new FakeClock()
      const retries: string[] = []
      const client = new SonarClient({
        serverUrl: new URL(server.url),
        token: 'squ_token',
        rootCert: server.rootCert,
        userAgent: 'test',
        clock,
        deadline: 60_000,
        requestTimeoutMs: 5000,
        onRetry: (line) => retries.push(line)
      })
      const error = await client
        .getTask(client.taskUrl(TASK), TASK)
        .catch((caught: unknown) => caught)
        .finally(() => client.close())

      expect(error).toBeInstanceOf(ServerRequestError)
      const failure = error as ServerRequestError
      const message = inActionWords(failure)
      expect(failure.nodeCode).toBe(TLS_FAULTS[fault])
      expect(message).toContain(`${TLS_FAULTS[fault]}`)
      expect(message).toMatch(FIXES[fault].client)
      expect(message).toContain(`for task ${TASK} at ${server.url}/api/ce/task?id=${TASK}`)
      expectOneCleanLine(message)
      expect(server.connections).toBe(1)
      expect(clock.sleeps).toEqual([])
      expect(retries).toEqual([])
    })

    it('the command exits 3 after one connection, that line in its own words in its log', async () => {
      server = await startTlsFaultServer(fault)
      let log = ''
      const code = await runCommand({
        argv: [
          '--host',
          server.url,
          '--task-id',
          TASK,
          '--initial-delay',
          '0',
          // Bounds a run that does retry, so it fails here rather than at the test's time-out.
          '--timeout',
          '10',
          ...(server.rootCertFile ? ['--root-cert-file', server.rootCertFile] : [])
        ],
        env: { SONAR_TOKEN: 'squ_token' },
        cwd: process.cwd(),
        stdout: { write: () => true },
        stderr: { write: (text: string) => (log += text) },
        startedAt: Date.now()
      })

      expect(code).toBe(EXIT.noVerdict)
      expect(server.connections).toBe(1)
      expect(log).not.toMatch(/trying again/)
      expect(log).not.toMatch(/deps\/openssl|:error:[0-9A-F]+:|SSL routines/)
      const lines = log.split('\n').filter((line) => line.includes(TLS_FAULTS[fault]))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(FIXES[fault].command)
      expect(lines[0]).not.toMatch(/sonarHostUrl|sonarRootCert/)
    })
  })
})

describe('through an HTTPS_PROXY tunnel', () => {
  let proxy: HttpsProxy
  let server: TlsFaultServer

  beforeAll(async () => {
    server = await startTlsFaultServer('plain-http')
    proxy = await startHttpsProxy(Number(new URL(server.url).port))
  })

  afterAll(async () => {
    await proxy.close()
    await server.close()
  })

  it('a plain-HTTP server behind the tunnel fails at once, with the same fix', async () => {
    // A name only the proxy knows, so the request cannot go direct.
    const serverUrl = new URL('https://sonar.internal.test:8443')
    const clock = new FakeClock()
    const client = new SonarClient({
      serverUrl,
      token: 'squ_token',
      rootCert: undefined,
      userAgent: 'test',
      clock,
      deadline: 60_000,
      requestTimeoutMs: 5000
    })
    const error = await client
      .getTask(client.taskUrl(TASK), TASK)
      .catch((caught: unknown) => caught)
      .finally(() => client.close())

    expect(proxy.connects).toEqual(['sonar.internal.test:8443'])
    expect(server.connections).toBe(1)
    expect(clock.sleeps).toEqual([])
    // Node says EPROTO when the handshake fails under a pending write (a request's), and
    // ERR_SSL_WRONG_VERSION_NUMBER when it fails on a read: either is the same fault.
    const { message, nodeCode } = error as ServerRequestError
    expect(nodeCode).toMatch(/^(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER)$/)
    expect(message).toMatch(
      /it does not speak TLS there \((EPROTO|ERR_SSL_WRONG_VERSION_NUMBER): wrong version number\): a plain-HTTP server or port answers at this https:\/\/ address\. Use http:\/\/ instead of https:\/\//
    )
    expectOneCleanLine(message)
  })
})
