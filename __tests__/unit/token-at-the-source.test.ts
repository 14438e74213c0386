import { http, HttpResponse } from 'msw'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { findTargets } from '../../src/gate/targets.js'
import { readSettings } from '../../src/settings.js'
import { SonarClient } from '../../src/sonar/client.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'
import { RecordingLog } from '../../__fixtures__/log.js'

/**
 * A sink hides the token's forms, not what is made of them: a link that percent-encodes a value,
 * a value cut to a length. So the server's text and the report file's lose the token before
 * anything is made of them.
 */
const server = useMockServer()
const SERVER = 'https://sonar.example.com'
const TOKEN = 'squ_0123456789abcdef0123456789abcdef01234567'
const TASK_URL = new URL(`${SERVER}/api/ce/task?id=AYTask1`)

const client = () =>
  new SonarClient({
    serverUrl: new URL(SERVER),
    token: TOKEN,
    rootCert: undefined,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    random: () => 0.5
  })

/** The token as a JSON string writes it with every character escaped as \uXXXX. */
const unicodeEscaped = [...TOKEN]
  .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  .join('')

describe("the Sonar client removes the token from the server's replies", () => {
  it('from every string of a reply, as written, base64 or \\u-escaped', async () => {
    const base64 = Buffer.from(`${TOKEN}:`).toString('base64')
    const body = JSON.stringify({
      task: {
        ...taskExample.task,
        componentKey: `project ${TOKEN}`,
        errorMessage: `Basic ${base64} was sent`
      }
    })
    // The branch written with \u escapes is the token only once parsed.
    const withEscapes = body.replace(/}}$/, `,"branch":"${unicodeEscaped}"}}`)
    server.use(
      http.get(
        `${SERVER}/api/ce/task`,
        () => new HttpResponse(withEscapes, { headers: { 'content-type': 'application/json' } })
      )
    )
    const task = await client().getTask(TASK_URL, 'AYTask1')
    expect(JSON.stringify(task)).not.toContain(TOKEN)
    expect(JSON.stringify(task)).not.toContain(base64)
    expect(task.componentKey).toBe('project ***')
    expect(task.errorMessage).toBe('*** was sent')
    expect(task.branch).toBe('***')
  })

  it('from an error reply it quotes, and from a Location it would name', async () => {
    server.use(
      http.get(`${SERVER}/api/ce/task`, () =>
        HttpResponse.json(
          { errors: [{ msg: `Token ${TOKEN} is not valid here` }] },
          { status: 400 }
        )
      )
    )
    const failure = await client()
      .getTask(TASK_URL, 'AYTask1')
      .catch((error: Error) => error)
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toContain('Token *** is not valid here')
    expect((failure as Error).message).not.toContain(TOKEN)

    server.use(
      http.get(
        `${SERVER}/api/ce/task`,
        () =>
          new HttpResponse(null, {
            status: 302,
            headers: { location: `ftp://elsewhere.example/?t=${TOKEN}` }
          })
      )
    )
    const redirected = await client()
      .getTask(TASK_URL, 'AYTask1')
      .catch((error: Error) => error)
    expect((redirected as Error).message).toContain('ftp://elsewhere.example/?t=***')
    expect((redirected as Error).message).not.toContain(TOKEN)
  })
})

describe("the report file's values lose the token before a target is made of them", () => {
  it('a dashboard address and a project key that quote it', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'report-'))
    await writeFile(
      path.join(cwd, 'report-task.txt'),
      [
        `projectKey=demo-${TOKEN}`,
        `serverUrl=${SERVER}`,
        `dashboardUrl=${SERVER}/dashboard?id=${encodeURIComponent(TOKEN)}`,
        'ceTaskId=AYTask1',
        `ceTaskUrl=${SERVER}/api/ce/task?id=AYTask1`
      ].join('\n')
    )
    const settings = readSettings({ reportFile: 'report-task.txt', token: TOKEN })
    const [found] = await findTargets(settings, {
      cwd,
      log: new RecordingLog(),
      findFiles: async (pattern) => [pattern]
    })
    expect(found && 'target' in found ? found.target : found).toMatchObject({
      projectKey: 'demo-***',
      dashboardUrl: `${SERVER}/dashboard?id=***`
    })
  })
})
