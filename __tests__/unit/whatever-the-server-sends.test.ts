/**
 * A property over whole runs of the action (its real `run()`, `@actions/core` and all) against a
 * real loopback server whose replies fast-check makes up: statuses, headers and bodies, from the
 * server's own examples laced with hostile text to raw bytes. Whatever the server sends, the run
 * ends within the time-out, never fails with a JavaScript error, never prints a line the runner
 * would read as a command, and never shows the token, even one the server echoes. The action's
 * clock is a fake one (its sleeps return at once), so "within the time-out" is exact.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../src/action/main.js'
import { systemClock } from '../../src/clock.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { projectStatusExample, taskExample } from '../../__fixtures__/sonarqube/index.js'
import { HOSTILE_STRINGS } from '../fault-kit/faults.js'
import { startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { foreignCommands } from '../support/runner-log.js'

const TOKEN = 'squ_property0123456789abcdef'
const TIMEOUT_SEC = 1
/** The exact bound on the action's clock: the time-out, and the one second a request may run past it. */
const MOST_MS = TIMEOUT_SEC * 1000 + 1000

/** One made-up reply. */
interface Reply {
  status: number
  headers: Record<string, string>
  body: Buffer
}

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS, TOKEN, `echo ${TOKEN}`) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3000 }) }
)
/** Any JSON value, its strings often hostile. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 })
  )
})).value

const status = fc.oneof(
  { weight: 6, arbitrary: fc.constant('SUCCESS') },
  {
    weight: 3,
    arbitrary: fc.constantFrom('OK', 'WARN', 'ERROR', 'NONE', 'FAILED', 'CANCELED', 'PENDING')
  },
  { weight: 2, arbitrary: text }
)

const condition = fc.record(
  {
    status: fc.oneof(fc.constantFrom('OK', 'ERROR', 'WARN'), text),
    metricKey: text,
    comparator: fc.oneof(fc.constantFrom('GT', 'LT', 'EQ', 'NE'), text),
    errorThreshold: fc.oneof(text, fc.integer().map(String)),
    actualValue: fc.oneof(text, fc.double().map(String)),
    periodIndex: value
  },
  { requiredKeys: [] }
)

/** A task reply shaped like the server's, any field replaced by something else. */
const taskBody = fc.record({
  task: fc.record(
    {
      id: fc.oneof(fc.constant(taskExample.task.id), text),
      status,
      analysisId: fc.oneof(
        { weight: 4, arbitrary: fc.constant(taskExample.task.analysisId) },
        text,
        value
      ),
      errorMessage: text,
      errorType: text,
      componentKey: text,
      warnings: fc.oneof(fc.array(text, { maxLength: 5 }), value)
    },
    { requiredKeys: ['status'] }
  )
})

const gateBody = fc.record({
  projectStatus: fc.record(
    {
      status,
      conditions: fc.oneof(
        fc.constant(projectStatusExample.projectStatus.conditions),
        fc.array(condition, { maxLength: 8 }),
        value
      ),
      ignoredConditions: value,
      caycStatus: text
    },
    { requiredKeys: ['status'] }
  )
})

/** A body: the shape asked for, any JSON, an error reply, raw bytes, or JSON cut short. */
function body(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  const json = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((v) => Buffer.from(JSON.stringify(v) ?? ''))
  return fc.oneof(
    { weight: 8, arbitrary: json(shaped) },
    { weight: 1, arbitrary: json(value) },
    {
      weight: 1,
      arbitrary: json(fc.record({ errors: fc.array(fc.record({ msg: text }), { maxLength: 3 }) }))
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json(shaped), fc.nat())
        .map(([bytes, cut]) => bytes.subarray(0, cut % (bytes.length + 1)))
    }
  )
}

function reply(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<Reply> {
  const headerText = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 40
  })
  return fc.record({
    status: fc.oneof(
      { weight: 8, arbitrary: fc.constant(200) },
      { weight: 2, arbitrary: fc.constantFrom(204, 301, 302, 400, 401, 403, 404, 429, 500, 503) }
    ),
    headers: fc.record(
      {
        'content-type': fc.constantFrom(
          'application/json',
          'text/html',
          'text/plain',
          'application/json; charset=utf-8'
        ),
        'retry-after': fc.oneof(headerText, fc.constantFrom('0', '1', '-5', '1.5', '3600')),
        location: fc.oneof(
          headerText,
          fc.constantFrom('javascript:alert(1)', '/api/ce/task?id=AYTask1', 'https://evil.example/')
        )
      },
      { requiredKeys: ['content-type'] }
    ),
    body: body(shaped)
  })
}

const JAVASCRIPT_ERRORS =
  /TypeError|RangeError|ReferenceError|SyntaxError|Maximum call stack|Cannot read propert|is not a function|is not iterable|\[object Object\]|undefined is not/

describe('whatever the server sends, the run ends in time, fails cleanly and injects nothing', () => {
  let server: LoopbackServer
  let current: { task: Reply; gate: Reply }
  let dir: string

  const send = (response: ServerResponse, { status, headers, body }: Reply) => {
    response.writeHead(status, { ...headers, 'content-length': body.length })
    response.end(body)
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'property-'))
    server = await startLoopbackServer((request, response) => {
      if (request.url?.startsWith('/api/ce/task')) send(response, current.task)
      else if (request.url?.startsWith('/api/qualitygates/project_status'))
        send(response, current.gate)
      else
        send(response, {
          status: 404,
          headers: {},
          body: Buffer.from('{"errors":[{"msg":"Unknown url"}]}')
        })
    })
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** One whole run of the action in this process, as the runner would start it. */
  async function runOnce() {
    const outputFile = path.join(dir, 'output')
    const summaryFile = path.join(dir, 'summary')
    await writeFile(outputFile, '')
    await writeFile(summaryFile, '')
    const inputs: Record<string, string> = {
      INPUT_SONARTOKEN: TOKEN,
      INPUT_TASKID: 'AYTask1',
      INPUT_SONARHOSTURL: server.url,
      INPUT_POLLINGTIMEOUTSEC: String(TIMEOUT_SEC),
      INPUT_INITIALDELAYMS: '0',
      INPUT_POLLINGINTERVALMS: '100',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile
    }
    const saved = { ...process.env }
    Object.assign(process.env, inputs)
    let stdout = ''
    const write = process.stdout.write.bind(process.stdout)
    process.stdout.write = (chunk: string | Uint8Array) => {
      stdout += String(chunk)
      return true
    }
    // run() takes the system clock: its time is the fake one's for this run.
    const clock = new FakeClock(Date.parse('2026-11-24T08:00:00Z'))
    vi.spyOn(systemClock, 'now').mockImplementation(() => clock.now())
    vi.spyOn(systemClock, 'sleep').mockImplementation((ms) => clock.sleep(ms))
    const started = clock.now()
    try {
      await run(started)
    } finally {
      vi.restoreAllMocks()
      process.stdout.write = write
      process.env = saved
      process.exitCode = 0
    }
    return {
      ms: clock.now() - started,
      stdout,
      outputs: await readFile(outputFile, 'utf8'),
      summary: await readFile(summaryFile, 'utf8')
    }
  }

  it('holds for made-up task and gate replies', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(reply(taskBody), reply(gateBody), async (task, gate) => {
        current = { task, gate }
        const { ms, stdout, outputs, summary } = await runOnce()

        expect(ms).toBeLessThanOrEqual(MOST_MS)
        expect(foreignCommands(stdout)).toEqual([])
        const errors = stdout.split('\n').filter((line) => line.startsWith('::error::'))
        for (const error of errors) expect(error).not.toMatch(JAVASCRIPT_ERRORS)
        const unmasked = stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
        expect(unmasked.join('\n')).not.toContain(TOKEN)
        expect(summary).not.toContain(TOKEN)
        expect(outputs).not.toContain(TOKEN)
        expect(Buffer.byteLength(summary)).toBeLessThan(1024 * 1024)
        expect(summary).not.toMatch(/<(script|img|iframe)/i)
      }),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 60) }
    )
  })
})
