/**
 * Servers that fail the TLS or HTTP exchange before any reply, as misconfigured servers do: a
 * plain-HTTP server behind an https:// address, certificates that are self-signed, of an unknown
 * CA, expired or for another host, and a port where something other than HTTP answers. Each
 * counts the connections it accepts. Their certificates are made once per process with openssl.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { TlsOptions } from 'node:tls'
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server,
  type Socket
} from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'

/** Each fault, with the code Node gives for it on Node 20 and 24 (on a direct connection). */
export const TLS_FAULTS = {
  /** An http server at an https:// address. */
  'plain-http': 'EPROTO',
  /** A certificate that signed itself, for 127.0.0.1. */
  'self-signed': 'DEPTH_ZERO_SELF_SIGNED_CERT',
  /** A certificate of a private CA that is not given. */
  'unknown-ca': 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  /** The same, with the private CA's own certificate sent in the chain. */
  'ca-in-chain': 'SELF_SIGNED_CERT_IN_CHAIN',
  /** A certificate of the given CA that expired on 1 Jan 2020. */
  expired: 'CERT_HAS_EXPIRED',
  /** A certificate of the given CA valid from 1 Jan 2099. */
  'not-yet-valid': 'CERT_NOT_YET_VALID',
  /** A certificate of the given CA for sonar.other.test and *.other.test, reached at 127.0.0.1. */
  'other-name': 'ERR_TLS_CERT_ALTNAME_INVALID',
  /** A server of the given CA that demands a client certificate (TLS 1.3: after the handshake). */
  'client-certificate': 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  /** An SSH banner on an http:// address. */
  'not-http': 'HPE_INVALID_CONSTANT'
} as const

export type TlsFault = keyof typeof TLS_FAULTS

/** The names the other-name certificate holds, as Node shows them. */
export const OTHER_NAMES = 'DNS:sonar.other.test, DNS:*.other.test'

export interface TlsFaultServer {
  /** `https://127.0.0.1:<port>`, or `http://…` for not-http. */
  url: string
  /** The CA to trust for this server (PEM), when the fault is not about trust; else undefined. */
  rootCert: string | undefined
  /** The same CA as a file, for --root-cert-file; else undefined. */
  rootCertFile: string | undefined
  /** TCP connections accepted so far. */
  readonly connections: number
  close(): Promise<void>
}

/**
 * Starts a loopback server that plays `fault`. A request that gets through anyway (a TLS check
 * gone missing) is answered with the server's task example, so it would not fail on its own.
 */
export async function startTlsFaultServer(fault: TlsFault): Promise<TlsFaultServer> {
  const made = faultCertificates()
  const answer = (_: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(taskExample))
  }
  const tls = (key: string, cert: string, options: TlsOptions = {}): Server =>
    createHttpsServer({ key, cert, ...options }, answer)
  const servers: Record<TlsFault, () => Server> = {
    'plain-http': () => createHttpServer(answer),
    'self-signed': () => tls(made.selfSigned.key, made.selfSigned.cert),
    'unknown-ca': () => tls(made.issued.key, made.issued.cert),
    'ca-in-chain': () => tls(made.issued.key, made.issued.cert + made.caPem),
    expired: () => tls(made.issued.key, made.expiredCert),
    'not-yet-valid': () => tls(made.issued.key, made.notYetValidCert),
    'other-name': () => tls(made.issued.key, made.otherNameCert),
    'client-certificate': () =>
      tls(made.issued.key, made.issued.cert, {
        requestCert: true,
        rejectUnauthorized: true,
        ca: made.caPem
      }),
    'not-http': () =>
      createTcpServer((socket) => {
        socket.on('error', () => {})
        socket.on('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'))
      })
  }
  const server = servers[fault]()
  let connections = 0
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const trusted = !['plain-http', 'self-signed', 'unknown-ca', 'ca-in-chain', 'not-http'].includes(
    fault
  )
  return {
    url: `${fault === 'not-http' ? 'http' : 'https'}://127.0.0.1:${port}`,
    rootCert: trusted ? made.caPem : undefined,
    rootCertFile: trusted ? made.caFile : undefined,
    get connections() {
      return connections
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

interface FaultCertificates {
  caPem: string
  caFile: string
  /** For 127.0.0.1, by the CA, valid today. */
  issued: { key: string; cert: string }
  /** For 127.0.0.1, signed by its own key. */
  selfSigned: { key: string; cert: string }
  /** issued's key, for 127.0.0.1, by the CA, valid from 1 Jan 2019 to 1 Jan 2020. */
  expiredCert: string
  /** issued's key, for 127.0.0.1, by the CA, valid from 1 Jan 2099 to 1 Jan 2100. */
  notYetValidCert: string
  /** issued's key, for sonar.other.test and *.other.test, by the CA, valid today. */
  otherNameCert: string
}

let made: FaultCertificates | undefined

function faultCertificates(): FaultCertificates {
  made ??= makeFaultCertificates()
  return made
}

function makeFaultCertificates(): FaultCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'fault-kit-tls-'))
  // Arguments separated by single spaces; none of them contains one.
  const openssl = (args: string) =>
    execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' })
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8')
  const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text)

  openssl(
    'req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=Fault-Kit-CA -keyout ca.key -out ca.pem'
  )
  openssl(
    'req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout self.key -out self.pem'
  )
  openssl('req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr')
  write('loopback.ext', 'subjectAltName=IP:127.0.0.1\n')
  write('other.ext', 'subjectAltName=DNS:sonar.other.test,DNS:*.other.test\n')
  const issue = (ext: string, out: string) =>
    openssl(
      `x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -extfile ${ext} -out ${out}`
    )
  issue('loopback.ext', 'issued.pem')
  issue('other.ext', 'other.pem')
  // `x509 -days` cannot date a certificate in the past; `openssl ca` takes both dates as given.
  write('index.txt', '')
  write('serial', '01\n')
  write(
    'ca.cnf',
    [
      '[ca]',
      'default_ca = fault_kit',
      '[fault_kit]',
      'database = index.txt',
      'new_certs_dir = .',
      'certificate = ca.pem',
      'private_key = ca.key',
      'serial = serial',
      'default_md = sha256',
      'policy = any_name',
      'unique_subject = no',
      '[any_name]',
      'commonName = supplied',
      '[loopback]',
      'subjectAltName = IP:127.0.0.1',
      ''
    ].join('\n')
  )
  const dated = (from: string, to: string, out: string) =>
    openssl(
      `ca -batch -notext -config ca.cnf -extensions loopback -startdate ${from} -enddate ${to} -in server.csr -out ${out}`
    )
  dated('20190101000000Z', '20200101000000Z', 'expired.pem')
  dated('20990101000000Z', '21000101000000Z', 'not-yet-valid.pem')
  return {
    caPem: read('ca.pem'),
    caFile: path.join(dir, 'ca.pem'),
    issued: { key: read('server.key'), cert: read('issued.pem') },
    selfSigned: { key: read('self.key'), cert: read('self.pem') },
    expiredCert: read('expired.pem'),
    notYetValidCert: read('not-yet-valid.pem'),
    otherNameCert: read('other.pem')
  }
}
