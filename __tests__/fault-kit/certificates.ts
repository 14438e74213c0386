/**
 * A private CA and a server certificate it signed, made once per test process with openssl:
 * for 127.0.0.1, ::1, localhost and a name only a test proxy knows.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface TestCertificates {
  /** The private CA's certificate (PEM): what sonarRootCert would hold. */
  caPem: string
  /** Another CA's certificate: trusted, but not the one that signed the server. */
  otherCaPem: string
  /** The server's key and certificate, signed by the private CA. */
  key: string
  cert: string
}

/** A host name that resolves nowhere: only a test proxy sends it on. */
export const PROXIED_HOST = 'sonar.internal.test'

let made: TestCertificates | undefined

export function testCertificates(): TestCertificates {
  made ??= makeCertificates()
  return made
}

function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'fault-kit-ca-'))
  // Arguments separated by single spaces; none of them contains one.
  const openssl = (args: string) =>
    execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' })
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8')
  const selfSignedCa = (name: string): string => {
    openssl(
      `req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=${name} -keyout ${name}.key -out ${name}.pem`
    )
    return read(`${name}.pem`)
  }
  const caPem = selfSignedCa('Test-Private-CA')
  const otherCaPem = selfSignedCa('Another-CA')
  openssl('req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr')
  writeFileSync(
    path.join(dir, 'san.ext'),
    `subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost,DNS:${PROXIED_HOST}\n`
  )
  openssl(
    'x509 -req -in server.csr -CA Test-Private-CA.pem -CAkey Test-Private-CA.key -CAcreateserial -days 1 -extfile san.ext -out server.pem'
  )
  return { caPem, otherCaPem, key: read('server.key'), cert: read('server.pem') }
}
