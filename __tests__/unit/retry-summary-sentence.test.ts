/**
 * Why no other try was made comes as a sentence of its own after what the server answered: a
 * full stop between them, one only, whether or not the server's words end with their own.
 */
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { inActionWords } from '../../__fixtures__/sinks.js'
import { PlatformError, RestApi } from '../../src/http/rest-api.js'
import { SonarClient } from '../../src/sonar/client.js'

const server = useMockServer()
const GITLAB = 'https://gitlab.example.com'
const SONAR = 'https://sonar.example.com'

/** The error of a GET that GitLab answers with `status` and `body` every time. */
async function platformFailure(
  status: number,
  body: Record<string, string>,
  limits = { maxTries: 3 }
) {
  server.use(http.get(`${GITLAB}/api/v4/projects/7`, () => HttpResponse.json(body, { status })))
  const api = new RestApi({
    platform: 'GitLab',
    apiUrl: new URL(`${GITLAB}/api/v4`),
    token: 'glpat-0123456789abcdefghij',
    headers: { 'PRIVATE-TOKEN': 'glpat-0123456789abcdefghij' },
    redirectAdvice: 'Set CI_API_V4_URL.',
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    random: () => 0.5,
    ...limits
  })
  const error: unknown = await api.request('GET', 'projects/7').catch((caught: unknown) => caught)
  api.close()
  expect(error).toBeInstanceOf(PlatformError)
  return (error as PlatformError).message
}

describe('a platform’s 5xx after its last try', () => {
  it('the server’s words, a full stop, then why no other try was made', async () => {
    expect(await platformFailure(500, { message: 'boom' })).toBe(
      'GitLab answered 500 to GET projects/7: boom. Gave up after 3 tries.'
    )
  })

  it('no second full stop after words that end with one', async () => {
    expect(await platformFailure(500, { message: 'Internal error.' })).toBe(
      'GitLab answered 500 to GET projects/7: Internal error. Gave up after 3 tries.'
    )
  })

  it('a full stop after the request when the server says nothing', async () => {
    expect(await platformFailure(502, {})).toBe(
      'GitLab answered 502 to GET projects/7. Gave up after 3 tries.'
    )
  })

  it('the same when the time left ends the tries', async () => {
    expect(await platformFailure(503, { message: 'boom' }, { maxTries: Infinity })).toMatch(
      /^GitLab answered 503 to GET projects\/7: boom\. Gave up after \d+ tries: the decoration's time .* leaves no time for another\.$/
    )
  })
})

describe('the Sonar client after its last try', () => {
  it('one full stop between the server’s quoted words and why no other try was made', async () => {
    server.use(
      http.get(`${SONAR}/api/ce/task`, () =>
        HttpResponse.json({ errors: [{ msg: 'boom.' }] }, { status: 503 })
      )
    )
    const client = new SonarClient({
      serverUrl: new URL(SONAR),
      token: 'squ_0123456789abcdef',
      rootCert: undefined,
      userAgent: 'test',
      clock: new FakeClock(),
      deadline: 2_000,
      random: () => 0.5,
      onRetry: () => {}
    })
    const error: unknown = await client
      .getTask(client.taskUrl('AYTask1'), 'AYTask1')
      .catch((caught: unknown) => caught)
    client.close()
    expect(inActionWords(error as Error)).toMatch(
      /: "boom\."\. Gave up after \d+ tries: the overall time-out \(pollingTimeoutSec\) leaves no time for another\.$/
    )
  })
})
