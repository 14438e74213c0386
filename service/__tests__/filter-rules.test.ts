import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken,
  type SigningKey
} from './support/identity-provider.js'
import {
  ALLOWED_ORIGIN,
  CLIENT_ID,
  corsHeadersOf,
  startTestService,
  UNAUTHORISED_BODY,
  type TestService
} from './support/test-service.js'

const EXPECTED_CORS = {
  'access-control-allow-origin': ALLOWED_ORIGIN,
  'access-control-allow-headers': 'X-Requested-With, Content-Type, Accept, Origin, Authorization',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, OPTIONS'
}
const NO_CORS = {
  'access-control-allow-origin': null,
  'access-control-allow-headers': null,
  'access-control-allow-credentials': null,
  'access-control-allow-methods': null
}
const GENRES = JSON.parse(
  (await import('node:fs')).readFileSync(new URL('../data/genres.json', import.meta.url), 'utf8')
) as unknown[]

let key: SigningKey
let provider: LocalIdentityProvider
let token: string

beforeAll(async () => {
  key = await createSigningKey('key-1')
  provider = await LocalIdentityProvider.start([key])
  token = await mintIdToken(provider, CLIENT_ID, { key })
})
afterAll(() => provider.stop())

for (const basePath of ['', '/api']) {
  describe(`spec 4.3 with BASE_PATH=${JSON.stringify(basePath)}`, () => {
    let service: TestService
    beforeAll(async () => {
      service = await startTestService(provider, { BASE_PATH: basePath })
    })
    afterAll(() => service.close())
    const at = (path: string) => `${service.origin}${basePath}${path}`

    describe('rule 1: the root target goes to its handler with no authentication and no CORS', () => {
      it.each(['/', '/?probe=1'])('GET %s answers the status document', async (path) => {
        const response = await fetch(at(path))
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('application/json')
        expect(await response.json()).toEqual({ status: 'ok' })
        expect(corsHeadersOf(response)).toEqual(NO_CORS)
      })

      it('OPTIONS / reaches the root handler too (rule 1 comes before rule 2)', async () => {
        const response = await fetch(at('/'), { method: 'OPTIONS' })
        expect(response.status).toBe(405)
        expect(response.headers.get('allow')).toBe('GET, HEAD')
        expect(corsHeadersOf(response)).toEqual(NO_CORS)
      })

      it('ignores an invalid Authorization header on the root', async () => {
        const response = await fetch(at('/'), { headers: { Authorization: 'garbage' } })
        expect(response.status).toBe(200)
        expect(corsHeadersOf(response)).toEqual(NO_CORS)
      })
    })

    describe('rule 2: OPTIONS gets an empty reply with the four CORS headers and no handler', () => {
      it.each(['/genre', '/no-such-path', '/genre?x=1'])('OPTIONS %s', async (path) => {
        const response = await fetch(at(path), { method: 'OPTIONS' })
        expect(response.status).toBe(204)
        expect(await response.text()).toBe('')
        expect(corsHeadersOf(response)).toEqual(EXPECTED_CORS)
      })
    })

    describe('rules 3-5: 401 with exactly the fixed body and no CORS headers', () => {
      const cases: [string, () => Record<string, string>][] = [
        ['rule 3: no Authorization header', () => ({})],
        ['rule 4: an empty Authorization value', () => ({ Authorization: '' })],
        ['rule 5: a value that is not an ID token', () => ({ Authorization: 'not-a-token' })],
        ['rule 5: the token after a Bearer word', () => ({ Authorization: `Bearer ${token}` })]
      ]
      for (const method of ['GET', 'POST', 'DELETE']) {
        it.each(cases)(`${method} /genre, %s`, async (_name, headers) => {
          const response = await fetch(at('/genre'), { method, headers: headers() })
          expect(response.status).toBe(401)
          expect(response.headers.get('content-type')).toBe('application/json')
          expect(await response.text()).toBe(UNAUTHORISED_BODY)
          expect(corsHeadersOf(response)).toEqual(NO_CORS)
        })
      }
    })

    describe('rule 6: with a valid token the handler runs and its reply carries CORS', () => {
      it('GET /genre answers the genres as [{id, name}]', async () => {
        const response = await fetch(at('/genre'), { headers: { Authorization: token } })
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('application/json')
        expect(await response.json()).toEqual(GENRES)
        expect(corsHeadersOf(response)).toEqual(EXPECTED_CORS)
      })

      it('HEAD /genre answers the headers without a body', async () => {
        const response = await fetch(at('/genre'), {
          method: 'HEAD',
          headers: { Authorization: token }
        })
        expect(response.status).toBe(200)
        expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0)
        expect(await response.text()).toBe('')
        expect(corsHeadersOf(response)).toEqual(EXPECTED_CORS)
      })

      it('an unknown path behind the filter is a 404 JSON with CORS', async () => {
        const response = await fetch(at('/nothing-here'), { headers: { Authorization: token } })
        expect(response.status).toBe(404)
        expect(await response.json()).toEqual({ httpStatusCode: 404, error: 'Not found' })
        expect(corsHeadersOf(response)).toEqual(EXPECTED_CORS)
      })

      it('POST /genre is a 405 naming the allowed methods', async () => {
        const response = await fetch(at('/genre'), {
          method: 'POST',
          headers: { Authorization: token }
        })
        expect(response.status).toBe(405)
        expect(response.headers.get('allow')).toBe('GET, HEAD')
        expect(await response.json()).toEqual({ httpStatusCode: 405, error: 'Method not allowed' })
        expect(corsHeadersOf(response)).toEqual(EXPECTED_CORS)
      })

      it('logs one line with method, path without query, status, duration and subject', async () => {
        service.logLines.length = 0
        await (await fetch(at('/genre?page=2'), { headers: { Authorization: token } })).text()
        await new Promise((resolve) => setImmediate(resolve))
        const requests = service.logLines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.msg === 'request')
        expect(requests).toHaveLength(1)
        expect(requests[0]).toMatchObject({
          method: 'GET',
          path: `${basePath}/genre`,
          status: 200,
          sub: '1234567890'
        })
        expect(typeof requests[0]?.durationMs).toBe('number')
      })
    })
  })
}

describe('BASE_PATH edges: the root is exactly {BASE_PATH}/', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService(provider, { BASE_PATH: '/api/' })
  })
  afterAll(() => service.close())

  it('a trailing slash in BASE_PATH is ignored: /api/ is the root', async () => {
    const response = await fetch(`${service.origin}/api/`)
    expect(response.status).toBe(200)
  })

  it.each(['/api', '/', '/apix/', '/other/genre', '//api/'])(
    '%s is not the root: it needs a token, then is a 404',
    async (path) => {
      const anonymous = await fetch(`${service.origin}${path}`)
      expect(anonymous.status).toBe(401)
      const authorised = await fetch(`${service.origin}${path}`, {
        headers: { Authorization: token }
      })
      expect(authorised.status).toBe(404)
      expect(corsHeadersOf(authorised)).toEqual(EXPECTED_CORS)
    }
  )
})
