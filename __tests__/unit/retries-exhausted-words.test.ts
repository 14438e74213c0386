/**
 * A failure re-worded after its last try keeps what it names: the setting said in each edge's
 * words (the action's input, the command's option), not by its key. Real loopback: a closed
 * port refuses the connection; the action's and the command's whole runs against it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { inActionWords, inCommandWords } from '../../__fixtures__/sinks.js'
import { run } from '../../src/action/main.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { runCommand } from '../../src/cli/main.js'
import { systemClock } from '../../src/clock.js'
import { ServerRequestError } from '../../src/errors.js'
import { SonarClient } from '../../src/sonar/client.js'
import { closedPort } from '../fault-kit/http-server.js'

const TASK = 'AYTask1'
const TOKEN = 'squ_retriesexhausted0123456789'

/** What the client throws reading the task from a server that refuses every connection. */
async function refusedReading(): Promise<ServerRequestError> {
  const client = new SonarClient({
    serverUrl: new URL(`http://127.0.0.1:${await closedPort()}`),
    token: TOKEN,
    rootCert: undefined,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000,
    onRetry: () => {}
  })
  const error: unknown = await client
    .getTask(client.taskUrl(TASK), TASK)
    .catch((caught: unknown) => caught)
    .finally(() => client.close())
  expect(error).toBeInstanceOf(ServerRequestError)
  return error as ServerRequestError
}

describe('connection refused, the tries run out: the address is named in each edge’s words', () => {
  it('the client’s error says sonarHostUrl to the action and --host to the command', async () => {
    const error = await refusedReading()
    expect(inActionWords(error)).toMatch(
      /: connection refused \(ECONNREFUSED\)\. Check the address \(sonarHostUrl or the report's serverUrl\), .* Gave up after 3 tries\.$/
    )
    expect(inCommandWords(error)).toMatch(
      /: connection refused \(ECONNREFUSED\)\. Check the address \(--host or the report's serverUrl\), .* Gave up after 3 tries\.$/
    )
    expect(error.settings).toEqual(['host'])
  })

  it('the command’s log says --host, exit 3', async () => {
    let log = ''
    const code = await runCommand({
      argv: [
        '--host',
        `http://127.0.0.1:${await closedPort()}`,
        '--task-id',
        TASK,
        '--initial-delay',
        '0'
      ],
      env: { SONAR_TOKEN: TOKEN },
      cwd: process.cwd(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (log += text) },
      startedAt: Date.now()
    })
    expect(code).toBe(EXIT.noVerdict)
    expect(log).toMatch(/ECONNREFUSED\)\. Check the address \(--host or the report's serverUrl\)/)
    expect(log).not.toMatch(/\((host|sonarHostUrl) or the report's serverUrl\)/)
  })

  it('the action’s ::error:: line says sonarHostUrl', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'retries-exhausted-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const [outputFile, summaryFile] = [path.join(dir, 'output'), path.join(dir, 'summary')]
    await Promise.all([writeFile(outputFile, ''), writeFile(summaryFile, '')])
    const saved = { ...process.env }
    Object.assign(process.env, {
      INPUT_SONARTOKEN: TOKEN,
      INPUT_TASKID: TASK,
      INPUT_SONARHOSTURL: `http://127.0.0.1:${await closedPort()}`,
      INPUT_INITIALDELAYMS: '0',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile
    })
    let stdout = ''
    const write = process.stdout.write.bind(process.stdout)
    process.stdout.write = (chunk: string | Uint8Array) => ((stdout += String(chunk)), true)
    // run() takes the system clock: its waits between tries are the fake one's.
    const clock = new FakeClock(Date.parse('2026-11-24T08:00:00Z'))
    vi.spyOn(systemClock, 'now').mockImplementation(() => clock.now())
    vi.spyOn(systemClock, 'sleep').mockImplementation((ms) => clock.sleep(ms))
    try {
      await run(clock.now())
    } finally {
      vi.restoreAllMocks()
      process.stdout.write = write
      process.env = saved
      process.exitCode = 0
    }
    const errors = stdout.split('\n').filter((line) => line.startsWith('::error'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /ECONNREFUSED\)\. Check the address \(sonarHostUrl or the report's serverUrl\), .* Gave up after 3 tries\.$/
    )
    expect(await readFile(summaryFile, 'utf8')).toMatch(/sonarHostUrl or the report/)
  })
})
