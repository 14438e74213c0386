import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { overallDeadline } from '../../src/deadline.js'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
  vi
} from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { inActionWords, rejectionInWords } from '../../__fixtures__/sinks.js'
import { findReportFiles } from '../../src/action/report-globs.js'
import { systemClock } from '../../src/clock.js'
import { ReportFileError } from '../../src/errors.js'
import { checkQualityGates } from '../../src/gate/check-analyses.js'
import { notAnalysed, worstStatus, type AnalysisOutcome } from '../../src/gate/outcome.js'
import { findTargets, MAX_ANALYSES } from '../../src/gate/targets.js'
import { readActionSettings as readSettings } from '../../src/action/settings.js'
import {
  monorepoScenario,
  scenario,
  Simulator,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'

const TOKEN = 'squ_several0a1b2c3d4e5f60718293a4b5c6d7e8f9'

/**
 * @actions/glob reports its options as `::debug::` commands on standard output, which a runner
 * hides unless debugging: they are kept out of the test run's output here.
 */
beforeEach(() => {
  const write = process.stdout.write.bind(process.stdout)
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: never[]) =>
    String(chunk).startsWith('::debug::')
      ? true
      : write(chunk as string, ...rest)) as typeof process.stdout.write)
})
afterEach(() => {
  vi.restoreAllMocks()
})

let simulator: Simulator
beforeAll(async () => {
  simulator = await Simulator.start({ token: TOKEN })
})
afterAll(() => simulator.stop())

async function workspace(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'several-'))
  onTestFinished(() => rm(root, { recursive: true, force: true }))
  return root
}

/** Adds each analysis to the simulator and writes its report file at the path given. */
async function analyses(cwd: string, files: Record<string, AnalysisScript>) {
  const added = []
  for (const [file, script] of Object.entries(files)) {
    const analysis = simulator.addAnalysis(script)
    await simulator.writeReportFile(analysis, path.join(cwd, file))
    added.push(analysis)
  }
  return added
}

function settings(inputs: Record<string, string>) {
  return readSettings((name) => inputs[name] ?? '', { SONAR_TOKEN: TOKEN })
}

function check(cwd: string, inputs: Record<string, string>, log = new RecordingLog()) {
  const checked = settings({ initialDelayMs: '0', pollingIntervalMs: '100', ...inputs })
  const startedAt = Date.now()
  return checkQualityGates(checked, {
    cwd,
    clock: systemClock,
    startedAt,
    deadline: overallDeadline(startedAt, checked.timeoutMs),
    log,
    userAgent: 'test',
    findFiles: findReportFiles
  })
}

/** The error `promise` is rejected with, its message in the action's words. */
const refusal = (promise: Promise<unknown>): Promise<Error> => rejectionInWords(promise)

const statusOf = (outcome: AnalysisOutcome | undefined) =>
  outcome?.read ? outcome.result.status : `unread: ${inActionWords(outcome?.message ?? '')}`

describe('scanMetadataReportFile: paths and globs, each file and each task once', () => {
  it('a glob finds every project’s report file, hidden folders included, in a stable order', async () => {
    const cwd = await workspace()
    const done = await scenario('done')
    await analyses(cwd, {
      'services/orders/target/sonar/report-task.txt': { ...done, projectKey: 'orders' },
      'services/billing/target/sonar/report-task.txt': { ...done, projectKey: 'billing' },
      'web/.scannerwork/report-task.txt': { ...done, projectKey: 'web' }
    })
    await writeFile(path.join(cwd, 'report-task.txt.bak'), 'not a match')

    const found = await findTargets(settings({ scanMetadataReportFile: '**/report-task.txt' }), {
      cwd,
      log: new RecordingLog(),
      findFiles: findReportFiles
    })

    expect(found.map(({ source }) => source)).toEqual([
      path.join('services', 'billing', 'target', 'sonar', 'report-task.txt'),
      path.join('services', 'orders', 'target', 'sonar', 'report-task.txt'),
      path.join('web', '.scannerwork', 'report-task.txt')
    ])
  })

  it('a file named by a path and matched by a glob is checked once; so is one task in two files', async () => {
    const cwd = await workspace()
    const [analysis] = await analyses(cwd, { 'a/report-task.txt': await scenario('done') })
    await simulator.writeReportFile(analysis!, path.join(cwd, 'copy/report-task.txt'))
    const log = new RecordingLog()

    const found = await findTargets(
      settings({ scanMetadataReportFile: 'a/report-task.txt\n*/report-task.txt' }),
      { cwd, log, findFiles: findReportFiles }
    )

    expect(found.map(({ source }) => source)).toEqual(['a/report-task.txt'])
    expect(log.of('info')).toEqual([
      `"${path.join('copy', 'report-task.txt')}" is for the same task as "a/report-task.txt" (${analysis!.taskId}): it is checked once.`
    ])
  })

  it('no match at all is an error that names every line', async () => {
    const cwd = await workspace()
    const lines = ['backend/**/report-task.txt', 'frontend/*/report-task.txt']

    const finding = findTargets(settings({ scanMetadataReportFile: lines.join('\n') }), {
      cwd,
      log: new RecordingLog(),
      findFiles: findReportFiles
    })

    const error = await refusal(finding)
    expect(error).toBeInstanceOf(ReportFileError)
    expect(error.message).toMatch(
      /^No report file matches scanMetadataReportFile: "backend\/\*\*\/report-task.txt", "frontend\/\*\/report-task.txt" \(relative to /
    )
  })

  it(`a glob matching more than ${MAX_ANALYSES} files is refused before any request`, async () => {
    const cwd = await workspace()
    await Promise.all(
      Array.from({ length: MAX_ANALYSES + 1 }, async (_, index) => {
        const file = path.join(cwd, `p${index}`, 'report-task.txt')
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(file, 'ceTaskId=X\n')
      })
    )
    const before = simulator.requests.length

    expect(
      (await refusal(check(cwd, { scanMetadataReportFile: '*/report-task.txt' }))).message
    ).toContain(`scanMetadataReportFile matches more than ${MAX_ANALYSES} report files`)
    expect(simulator.requests.length).toBe(before)
  })

  it('a path whose folder name holds glob characters is still read as that path', async () => {
    const cwd = await workspace()
    await analyses(cwd, { 'odd[1]/report-task.txt': await scenario('done') })

    const [only] = await check(path.join(cwd), { scanMetadataReportFile: 'odd[1]/report-task.txt' })

    expect(statusOf(only)).toBe('OK')
  })
})

describe('several analyses are checked at the same time, each to its own verdict', () => {
  it('passing, failing and slow projects: all verdicts, in order, over at most four kept-alive connections', async () => {
    const server = await Simulator.start({ token: TOKEN })
    onTestFinished(() => server.stop())
    const cwd = await workspace()
    const [api, web, reports] = await monorepoScenario()
    const scripts = [
      { ...api!, finishAfterMs: 300 },
      { ...web!, finishAfterMs: 300 },
      { ...reports!, finishAfterMs: 1500 }
    ]
    const added = []
    for (const [index, script] of scripts.entries()) {
      const analysis = server.addAnalysis(script)
      await server.writeReportFile(analysis, path.join(cwd, `p${index}/report-task.txt`))
      added.push(analysis)
    }
    const log = new RecordingLog()

    const outcomes = await check(cwd, { scanMetadataReportFile: '*/report-task.txt' }, log)

    expect(outcomes.map(statusOf)).toEqual(['OK', 'ERROR', 'OK'])
    expect(worstStatus(outcomes.map(statusOf))).toBe('ERROR')
    // At the same time: every task is polled before any gate is read, and the slow one is still
    // polled after the quick ones' gates are read.
    const urls = server.requests.map((request) => request.url)
    const firstGate = urls.findIndex((url) => url.startsWith('/api/qualitygates/'))
    const polls = (taskId: string) =>
      urls.flatMap((url, index) => (url.startsWith(`/api/ce/task?id=${taskId}`) ? [index] : []))
    for (const { taskId } of added) expect(polls(taskId)[0]).toBeLessThan(firstGate)
    expect(polls(added[2]!.taskId).at(-1)).toBeGreaterThan(firstGate)
    expect(server.connections).toBeLessThanOrEqual(4)
    // One group per project, each whole: groups never interleave.
    const groups = log.lines.filter(({ kind }) => kind === 'group' || kind === 'endgroup')
    expect(groups.map(({ kind, text }) => (kind === 'group' ? text : 'end'))).toEqual([
      expect.stringMatching(/^Analysis of shop-(api|web)$/),
      'end',
      expect.stringMatching(/^Analysis of shop-(api|web)$/),
      'end',
      'Analysis of shop-reports',
      'end'
    ])
    expect(log.of('info')[0]).toMatch(/^Checking 3 analyses at once: /)
  })

  it('an analysis that cannot be read does not lose the others’ verdicts', async () => {
    const cwd = await workspace()
    await analyses(cwd, { 'good/report-task.txt': await scenario('done') })
    await mkdir(path.join(cwd, 'gone'))
    await writeFile(
      path.join(cwd, 'gone/report-task.txt'),
      `serverUrl=${simulator.url}\nceTaskUrl=${simulator.url}/api/ce/task?id=NoSuchTask\n`
    )
    await mkdir(path.join(cwd, 'broken'))
    await writeFile(path.join(cwd, 'broken/report-task.txt'), 'this is not key=value\nnope\n')

    const outcomes = await check(cwd, {
      scanMetadataReportFile:
        'good/report-task.txt\ngone/report-task.txt\nbroken/report-task.txt\nmissing/report-task.txt'
    })

    expect(outcomes.map(statusOf)).toEqual([
      'OK',
      expect.stringMatching(/^unread: .*Task NoSuchTask was not found/),
      expect.stringMatching(
        /^unread: Report file broken\/report-task.txt has a line that is not key=value/
      ),
      expect.stringMatching(/^unread: Report file not found at missing\/report-task.txt/)
    ])
  })
})

describe('the worst verdict', () => {
  it.each([
    [['OK', 'WARN', 'ERROR'], 'ERROR'],
    [['OK', 'WARN'], 'WARN'],
    [['OK', 'NONE'], 'NONE'],
    [['OK', 'FANCY'], 'NONE'],
    [['OK', 'OK'], 'OK'],
    [[], 'OK']
  ])('of %j is %s', (statuses, worst) => {
    expect(worstStatus(statuses)).toBe(worst)
  })
})

describe('the projects a run did not analyse (--all-projects)', () => {
  const readOf = (projectKey: string) =>
    ({
      read: true,
      source: `${projectKey}/report-task.txt`,
      result: { projectKey }
    }) as unknown as AnalysisOutcome
  const unread = (projectKey: string | undefined): AnalysisOutcome => ({
    read: false,
    source: 'x/report-task.txt',
    projectKey,
    message: 'not read',
    error: new Error('x')
  })

  it('those no outcome is about, in the order given; an unread one with its key counts as analysed', () => {
    expect(
      notAnalysed([readOf('web'), unread('api')], ['api', 'billing', 'web', 'search'])
    ).toEqual(['billing', 'search'])
    expect(notAnalysed([readOf('web')], [])).toEqual([])
  })

  it('none while an outcome names no project: it may be any of them', () => {
    expect(notAnalysed([readOf('web'), unread(undefined)], ['api', 'web'])).toBeUndefined()
  })
})
