import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { readKeySet } from '../src/auth/key-set.js'
import { DocumentFetchError, fetchJsonDocument, httpGet } from '../src/auth/remote-json.js'
import { testCertificates } from '../../__tests__/fault-kit/certificates.js'
import {
  json,
  startLoopbackServer,
  type LoopbackServer
} from '../../__tests__/fault-kit/http-server.js'

const KEY_SET = { keys: [{ kty: 'RSA', kid: 'k', n: 'AQAB', e: 'AQAB' }] }

const servers: LoopbackServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})
async function serve(...args: Parameters<typeof startLoopbackServer>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(...args)
  servers.push(server)
  return server
}

const fetchKeySet = (url: string) =>
  fetchJsonDocument(url, readKeySet, {
    get: httpGet,
    signal: AbortSignal.timeout(2_000),
    timeoutMs: 2_000
  })

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught
  )
  expect(error).toBeInstanceOf(DocumentFetchError)
  return (error as DocumentFetchError).reason
}

describe('the key set over https', () => {
  it('fails, naming the TLS error, when the process does not trust the certificate', async () => {
    const server = await serve((_request, response) => json(response, KEY_SET), { tls: true })
    expect(await reasonOf(fetchKeySet(`${server.url}/jwks`))).toMatch(
      /^network error \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)$/
    )
    // The handshake failed: no request reached the server.
    expect(server.received).toEqual([])
  })

  it('is read when the process trusts the CA (NODE_EXTRA_CA_CERTS)', async () => {
    const server = await serve((_request, response) => json(response, KEY_SET), { tls: true })
    const dir = mkdtempSync(path.join(tmpdir(), 'http-get-ca-'))
    try {
      const caFile = path.join(dir, 'ca.pem')
      writeFileSync(caFile, testCertificates().caPem)
      // NODE_EXTRA_CA_CERTS is read when node starts: the GET runs in a child process.
      const modules = new URL('../src/', import.meta.url).href
      const script =
        `const { fetchJsonDocument, httpGet } = await import('${modules}auth/remote-json.ts');` +
        `const { readKeySet } = await import('${modules}auth/key-set.ts');` +
        `const keys = await fetchJsonDocument(process.argv[1], readKeySet, ` +
        `{ get: httpGet, signal: AbortSignal.timeout(5000), timeoutMs: 5000 });` +
        `console.log(JSON.stringify(keys))`
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, `${server.url}/jwks`],
        { env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: caFile } }
      )
      expect(JSON.parse(stdout)).toEqual(KEY_SET)
      expect(server.received.map(({ url, headers }) => [url, headers.accept])).toEqual([
        ['/jwks', 'application/json']
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('what the GET refuses', () => {
  it('does not follow a redirect: a 3xx is a failed fetch, its target is never asked', async () => {
    const elsewhere = await serve((_request, response) => json(response, KEY_SET))
    const redirecting = await serve((_request, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/jwks` })
      response.end()
    })
    expect(await reasonOf(fetchKeySet(`${redirecting.url}/jwks`))).toBe('HTTP 302')
    expect(elsewhere.received).toEqual([])
  })

  it('refuses a URL that is not http or https before any connection', async () => {
    await expect(httpGet('ftp://127.0.0.1/jwks', AbortSignal.timeout(1_000))).rejects.toThrow(
      'not an http(s) URL: ftp:'
    )
  })
})
