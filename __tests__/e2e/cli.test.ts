/**
 * The command-line tool as a user runs it: the bundle dist/cli.js started with node, against the
 * simulated server, in a fresh working directory; and the package packed, installed offline into
 * an empty folder and run from there.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import {
  SAMPLE_FILES,
  scenario,
  Simulator,
  writeSampleFiles,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import {
  CLI_ENTRY as CLI,
  timeChild,
  type Exit,
  type Workspace
} from '../../__fixtures__/built-action.js'
import { RUNTIMES, TOKEN, workspace } from '../support/action-runs.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const ESC = '\u001b'

/** Runs a command with a clean environment (PATH and what is given) and collects its output. */
function run(
  command: string,
  args: string[],
  { cwd, env = {} }: { cwd: string; env?: Record<string, string> }
): Promise<Exit> {
  return timeChild(command, args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    killAfterMs: 30_000
  })
}

/** Quick polls, so the suite stays fast. */
const QUICK = ['--initial-delay', '0', '--interval', '100']

let simulator: Simulator
beforeAll(async () => {
  simulator = await Simulator.start({ token: TOKEN })
})
afterAll(() => simulator.stop())

/** Report files in a fresh working directory, one per analysis script. */
async function reports(files: Record<string, AnalysisScript>): Promise<Workspace> {
  const ws = await workspace()
  for (const [file, analysisScript] of Object.entries(files)) {
    await simulator.writeReportFile(simulator.addAnalysis(analysisScript), ws.file(file))
  }
  return ws
}

function expectNoToken(...texts: string[]): void {
  const forms = [TOKEN, Buffer.from(`${TOKEN}:`).toString('base64')]
  for (const text of texts) for (const form of forms) expect(text).not.toContain(form)
}

async function expectValidJunit(xml: string): Promise<void> {
  const schema = await readFile(path.join(ROOT, '__fixtures__/junit/JUnit.xsd'), 'utf8')
  const result = await validateXML({
    xml: [{ fileName: 'gate.xml', contents: xml }],
    schema: [{ fileName: 'JUnit.xsd', contents: schema }]
  })
  expect(result.errors.map((error) => error.rawMessage)).toEqual([])
}

describe.each(RUNTIMES)('dist/cli.js on $runtime', ({ node }) => {
  const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
    run(node, [CLI, ...args], { cwd: ws.cwd, env: { SONAR_TOKEN: TOKEN, ...env } })

  it('a passing gate: exit 0, the verdict on standard error, nothing on standard output', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('done') })
    const result = await cli(ws, QUICK)
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain('Quality Gate status: OK')
    expect(result.stdout).toBe('')
    expect(result.stderr).not.toContain('::')
    expect(result.stderr).not.toContain(ESC)
    expectNoToken(result.stdout, result.stderr)
  })

  it('a failing gate: exit 1, every failing condition in words, and the three result files', async () => {
    const ws = await reports({
      'target/sonar/report-task.txt': { ...(await scenario('gate-error')), finishAfterMs: 300 }
    })
    const result = await cli(ws, [
      ...QUICK,
      '--json',
      'out/gate.json',
      '--junit',
      'out/junit/gate.xml',
      '--markdown',
      'gate.md'
    ])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      'error: Quality Gate Failure for demo-project: 4 of 7 conditions failed.'
    )
    expect(result.stderr).toContain('- Coverage on New Code is 82.51% (fails when less than 85%)')
    expect(result.stderr).toContain('Wrote the JUnit report to out/junit/gate.xml.')

    // The first ten new issues in the log, most severe first, and where the rest are.
    expect(result.stderr).toContain('New issues (18), most severe first:')
    expect(result.stderr).toMatch(
      /^ {2}src\/db\/query\.ts:4 {2}BLOCKER {2}Null pointers: issue 1\. \(typescript:S2259\)$/m
    )
    expect(result.stderr).toContain(
      '  … and 8 more: --sarif, --codequality or --json write them all'
    )

    const json = JSON.parse(await readFile(ws.file('out/gate.json'), 'utf8')) as Array<{
      issues: unknown[]
    }>
    expect(json).toEqual([
      expect.objectContaining({
        projectKey: 'demo-project',
        source: 'target/sonar/report-task.txt',
        status: 'ERROR',
        qualityGateStatus: 'FAILED',
        newIssues: 18
      })
    ])
    expect(json[0]!.issues).toHaveLength(18)
    expect(json[0]!.issues[0]).toMatchObject({
      key: 'AYIssue00001',
      rule: 'typescript:S2259',
      severity: 'blocker',
      serverPath: 'src/db/query.ts',
      startLine: 4
    })
    const junit = await readFile(ws.file('out/junit/gate.xml'), 'utf8')
    await expectValidJunit(junit)
    expect(junit.match(/<failure type="ERROR"/g)).toHaveLength(4)
    const markdown = await readFile(ws.file('gate.md'), 'utf8')
    expect(markdown).toContain('<h2>❌ Quality Gate failed</h2>')
    expectNoToken(result.stdout, result.stderr, junit, markdown, JSON.stringify(json))
  })
})

describe('dist/cli.js', () => {
  const cli = (ws: Workspace, args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [CLI, ...args], { cwd: ws.cwd, env: { SONAR_TOKEN: TOKEN, ...env } })

  it('several reports, a path and a glob: one verdict each, the worst decides', async () => {
    const passing = await scenario('done')
    const ws = await reports({
      'api/target/sonar/report-task.txt': { ...passing, projectKey: 'shop-api' },
      'web/.scannerwork/report-task.txt': { ...passing, projectKey: 'shop-web' },
      'admin/.scannerwork/report-task.txt': {
        ...(await scenario('gate-error')),
        finishAfterMs: 0,
        projectKey: 'shop-admin'
      }
    })
    const result = await cli(ws, [
      ...QUICK,
      '--report',
      'api/target/sonar/report-task.txt',
      '--report',
      '*/.scannerwork/report-task.txt',
      '--json',
      '-'
    ])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('Checking 3 analyses at once')
    expect(result.stderr).toMatch(/^▸ Analysis of shop-web$/m)
    expect(result.stderr).toContain('Quality Gate Failure for shop-admin')
    const json = JSON.parse(result.stdout) as { projectKey: string; status: string }[]
    expect(json.map(({ projectKey, status }) => [projectKey, status])).toEqual([
      ['shop-api', 'OK'],
      ['shop-admin', 'ERROR'],
      ['shop-web', 'OK']
    ])
  })

  it('--no-fail: an ERROR gate exits 0 with a warning', async () => {
    const ws = await reports({
      '.scannerwork/report-task.txt': { ...(await scenario('gate-error')), finishAfterMs: 0 }
    })
    const result = await cli(ws, [...QUICK, '--no-fail'])
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain('warning: Quality Gate Failure')
    expect(result.stderr).toContain('--no-fail is given: the exit code is 0.')
  })

  // A run that waited past its own time-out would hang here: the test's time-out stops it.
  it(
    'the time-out: exit 3, the task’s last status, and a JUnit failure that says so',
    { timeout: 10_000 },
    async () => {
      const ws = await reports({ '.scannerwork/report-task.txt': await scenario('slow') })
      const result = await cli(ws, [...QUICK, '--timeout', '1', '--junit', 'gate.xml'])
      expect(result.exitCode).toBe(3)
      expect(result.stderr).toMatch(/error: Timed out after 1\.0 s waiting for the analysis task/)
      // In the command's words: its option, not the action's input.
      expect(result.stderr).toContain('raise --timeout (now 1.0 s)')
      expect(result.stderr).not.toContain('pollingTimeoutSec')
      const junit = await readFile(ws.file('gate.xml'), 'utf8')
      await expectValidJunit(junit)
      expect(junit).toContain('<failure type="ERR_TIMEOUT"')
    }
  )

  it('a server that cannot be reached: exit 3', async () => {
    const ws = await workspace()
    const result = await cli(ws, [
      ...QUICK,
      '--host',
      'http://127.0.0.1:9',
      '--analysis-id',
      'AYAnalysis1'
    ])
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain('error: Could not reach the server')
  })

  it.each([
    [['--bogus'], "error: Unknown option '--bogus'."],
    [
      ['--token', 'squ_typed_by_mistake'],
      'error: Unknown option --token: the token is never an option (it would show in process lists). Set the SONAR_TOKEN environment variable instead'
    ],
    [['--sonar-token=x'], 'error: Unknown option --sonar-token: the token is never an option'],
    [['--fail-on', 'WARN'], 'error: Option --fail-on is "WARN": it must include ERROR'],
    [['--fail-on', 'ERROR,FAIL'], 'error: Option --fail-on has "FAIL"'],
    [['report-task.txt'], 'error: Unexpected argument "report-task.txt"'],
    [['--interval', 'fast'], 'error: Option --interval is "fast": it must be a whole number'],
    [['--task-id', 'AY1'], 'error: Option --task-id needs the server address'],
    [
      ['--root-cert-file', 'missing.pem'],
      'error: --root-cert-file "missing.pem": there is no such file.'
    ]
  ])('bad usage %j: exit 2, one error and the way to --help, no request', async (args, message) => {
    const before = simulator.requests.length
    const ws = await workspace()
    const result = await cli(ws, args)
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).toContain('Run sonar-quality-gate-check --help for the options.')
    expect(result.stdout).toBe('')
    expect(simulator.requests.length).toBe(before)
  })

  it('no report file: exit 2, where the scanners write it', async () => {
    const ws = await workspace()
    const result = await cli(ws, [...QUICK, '--markdown', 'gate.md'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('error: No report file found')
    expect(await readFile(ws.file('gate.md'), 'utf8')).toContain('Quality Gate check failed')
  })

  it('a result file that cannot be written: exit 2, the verdict still given', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('done') })
    await mkdir(ws.file('taken.xml'))
    const result = await cli(ws, [...QUICK, '--junit', 'taken.xml'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('error: Could not write the JUnit report to "taken.xml"')
    expect(result.stderr).toContain('Quality Gate status: OK')
  })

  it('colours only when asked for: FORCE_COLOR; none with CI or NO_COLOR', async () => {
    const ws = await reports({
      '.scannerwork/report-task.txt': { ...(await scenario('gate-error')), finishAfterMs: 0 }
    })
    expect((await cli(ws, QUICK, { FORCE_COLOR: '1', CI: 'true' })).stderr).toContain(`${ESC}[31m`)
    expect((await cli(ws, QUICK, { CI: 'true' })).stderr).not.toContain(ESC)
    expect((await cli(ws, QUICK, { NO_COLOR: '1' })).stderr).not.toContain(ESC)
  })

  it('server text cannot drive the terminal: escape sequences are shown, not sent', async () => {
    const ws = await reports({
      '.scannerwork/report-task.txt': {
        ...(await scenario('done')),
        warnings: [`${ESC}[2J${ESC}]0;owned\u0007 cleared\rover`]
      }
    })
    const result = await cli(ws, QUICK, { FORCE_COLOR: '1' })
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain('\\x1B[2J\\x1B]0;owned\\x07 cleared\\rover')
    expect(result.stderr).not.toContain(`${ESC}[2J`)
    expect(result.stderr).not.toContain(`${ESC}]`)
  })

  it('--help and --version on standard output, exit 0', async () => {
    const ws = await workspace()
    const help = await cli(ws, ['--help'])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toMatch(/^Usage: sonar-quality-gate-check \[options\]/)
    const version = await cli(ws, ['--version'])
    const { version: expected } = JSON.parse(
      await readFile(path.join(ROOT, 'package.json'), 'utf8')
    ) as { version: string }
    expect(version).toMatchObject({ exitCode: 0, stdout: `${expected}\n`, stderr: '' })
  })
})

describe('dist/cli.js --fail-on: every status under every policy', () => {
  const cli = (ws: Workspace, args: string[]) =>
    run(process.execPath, [CLI, ...args], { cwd: ws.cwd, env: { SONAR_TOKEN: TOKEN } })
  const gate = async (name: string, projectStatus?: Record<string, unknown>) => ({
    ...(await scenario(name)),
    finishAfterMs: 0,
    ...(projectStatus ? { projectStatus } : {})
  })
  const STATUSES = [
    { status: 'OK', script: () => gate('done') },
    { status: 'WARN', script: () => gate('gate-warn') },
    { status: 'ERROR', script: () => gate('gate-error') },
    { status: 'NONE', script: () => gate('no-gate') },
    { status: 'FAILED', script: () => gate('no-gate', { status: 'FAILED', conditions: [] }) }
  ]
  const POLICIES = [
    { args: [], fails: ['ERROR'] },
    { args: ['--fail-on', 'ERROR,WARN'], fails: ['ERROR', 'WARN'] },
    { args: ['--fail-on', 'ERROR', '--fail-on', 'warn,none'], fails: ['ERROR', 'WARN', 'NONE'] }
  ]

  describe.each(POLICIES)('$args', ({ args, fails }) => {
    it.each(STATUSES)('a $status gate', async ({ status, script }) => {
      const ws = await reports({ '.scannerwork/report-task.txt': await script() })
      const result = await cli(ws, [...QUICK, ...args, '--json', 'gate.json', '--junit', 'j.xml'])
      const kind = status === 'FAILED' ? 'NONE' : status
      const failed = fails.includes(kind)

      expect(result.exitCode).toBe(failed ? 1 : 0)
      expect(result.stderr.includes('error: Quality Gate Failure for demo-project')).toBe(failed)
      const [json] = JSON.parse(await readFile(ws.file('gate.json'), 'utf8')) as {
        gateFailed: boolean
      }[]
      expect(json?.gateFailed).toBe(failed)
      const junit = await readFile(ws.file('j.xml'), 'utf8')
      await expectValidJunit(junit)
      expect(junit.includes('<failure ')).toBe(failed)
      if (failed && kind !== 'ERROR') {
        expect(result.stderr).toContain('--fail-on names')
        expect(result.stderr + junit).not.toContain('failOn')
      }
    })
  })

  it('--no-fail wins over --fail-on: a WARN gate it names is reported, and the exit code is 0', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await gate('gate-warn') })
    const result = await cli(ws, [...QUICK, '--fail-on', 'ERROR,WARN', '--no-fail'])
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain(
      'warning: Quality Gate Failure for demo-project: the gate is WARN, which --fail-on names'
    )
    expect(result.stderr).toContain('--no-fail is given: the exit code is 0.')
  })

  it('a WARN gate that passes lists the conditions that warned, in the log', async () => {
    const ws = await reports({
      '.scannerwork/report-task.txt': await gate('gate-warn', {
        status: 'WARN',
        conditions: [
          {
            status: 'OK',
            metricKey: 'new_bugs',
            comparator: 'GT',
            errorThreshold: '0',
            actualValue: '0'
          },
          {
            status: 'WARN',
            metricKey: 'new_coverage',
            comparator: 'LT',
            warningThreshold: '80',
            actualValue: '75'
          }
        ]
      })
    })
    const result = await cli(ws, QUICK)
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toContain(
      'warning: Quality Gate passed with warnings (WARN): 1 of 2 conditions warned.'
    )
    expect(result.stderr).toContain('- Coverage on New Code is 75% (warns when less than 80%)')
    expect(result.stderr).not.toContain('job summary')
  })
})

describe('dist/cli.js writes files of new issues honestly: what was written, what was left out and why', () => {
  const cli = (ws: Workspace, args: string[]) =>
    run(process.execPath, [CLI, ...args], { cwd: ws.cwd, env: { SONAR_TOKEN: TOKEN } })
  const FILES = ['--sarif', 'out.sarif', '--codequality', 'cq.json', '--json', 'gate.json']
  const failing = async () => ({ ...(await scenario('gate-error')), finishAfterMs: 0 })

  it("none of the issues' files in the checkout: 0 written, all 18 left out, in one line each", async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await failing() })
    const result = await cli(ws, [...QUICK, ...FILES])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      'Wrote 0 new issues as SARIF to out.sarif (18 left out: 18 with no file in this checkout).'
    )
    expect(result.stderr).toContain(
      'Wrote 0 new issues as GitLab Code Quality to cq.json (18 left out: 18 with no file in this checkout).'
    )
    expect(result.stderr).toContain('Wrote 18 new issues in the JSON results to gate.json.')
    const [json] = JSON.parse(await readFile(ws.file('gate.json'), 'utf8')) as Record<
      string,
      unknown
    >[]
    expect(json).toMatchObject({ newIssues: 18, issuesWritten: 18, issuesLeftOut: 0 })
  })

  it('one of the three files missing: the issues on it are counted as left out, none vanish', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await failing() })
    await writeSampleFiles(ws.cwd)
    await unlink(ws.file(SAMPLE_FILES[0]))
    const result = await cli(ws, [...QUICK, ...FILES])
    const sarif = JSON.parse(await readFile(ws.file('out.sarif'), 'utf8')) as {
      runs: { results: unknown[] }[]
    }
    const written = sarif.runs[0]!.results.length
    const codeQuality = (JSON.parse(await readFile(ws.file('cq.json'), 'utf8')) as unknown[]).length
    expect(written).toBeGreaterThan(0)
    expect(written).toBeLessThan(18)
    expect(codeQuality).toBe(written)
    const left = 18 - written
    expect(result.stderr).toContain(
      `Wrote ${written} new issues as SARIF to out.sarif (${left} left out: ${left} with no file in this checkout).`
    )
    expect(result.stderr).toContain(
      `Wrote ${written} new issues as GitLab Code Quality to cq.json (${left} left out: ${left} with no file in this checkout).`
    )
  })

  it('a file on standard output still has its line in the log', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await failing() })
    const result = await cli(ws, [...QUICK, '--sarif', '-'])
    expect(JSON.parse(result.stdout)).toHaveProperty('runs')
    expect(result.stderr).toContain(
      'Wrote 0 new issues as SARIF to standard output (18 left out: 18 with no file in this checkout).'
    )
  })
})

describe('dist/cli.js speaks its own words in every file it writes', () => {
  const cli = (
    ws: Workspace,
    args: string[],
    env: Record<string, string> = { SONAR_TOKEN: TOKEN }
  ) => run(process.execPath, [CLI, ...args], { cwd: ws.cwd, env })
  /** The files that carry the check's messages, and the files of new issues. */
  const MESSAGE_FILES = { '--markdown': 'out.md', '--json': 'out.json', '--junit': 'out.xml' }
  const ISSUE_FILES = { '--sarif': 'out.sarif', '--codequality': 'out.cq.json' }
  const FILES = Object.entries({ ...MESSAGE_FILES, ...ISSUE_FILES }).flat()
  // Every input of action.yml, and the action's own destination.
  const ACTION_WORDS =
    /scanMetadataReportFile|sonarToken|sonarHostUrl|sonarRootCert|pollingTimeoutSec|initialDelayMs|pollingIntervalMs|failOnError|failOn\b|taskId input|analysisId input|pullRequestComment|githubToken|annotateIssues|issuesCheckRun|sarifFile|job summary/

  async function files(ws: Workspace, names: Record<string, string>) {
    return Object.fromEntries(
      await Promise.all(
        Object.values(names).map(async (f) => [f, await readFile(ws.file(f), 'utf8')] as const)
      )
    )
  }

  /** Each message file names `words`; no file and not the log says the action's. */
  async function speaksCommandWords(ws: Workspace, stderr: string, words: string) {
    expect(stderr).toContain(words)
    expect(stderr).not.toMatch(ACTION_WORDS)
    for (const [file, text] of Object.entries(await files(ws, MESSAGE_FILES))) {
      expect(text, file).toContain(words)
      expect(text, file).not.toMatch(ACTION_WORDS)
    }
    for (const [file, text] of Object.entries(await files(ws, ISSUE_FILES))) {
      expect(text, file).not.toMatch(ACTION_WORDS)
    }
  }

  it('a missing report file: the terminal and every message file name --report', async () => {
    const ws = await workspace()
    const result = await cli(ws, ['--report', 'adir', ...FILES])
    expect(result.exitCode).toBe(2)
    await speaksCommandWords(ws, result.stderr, '--report')
  })

  it('a time-out: the terminal and every message file name --timeout', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('slow') })
    const result = await cli(ws, [...QUICK, '--timeout', '1', ...FILES])
    expect(result.exitCode).toBe(3)
    await speaksCommandWords(ws, result.stderr, 'raise --timeout')
  })

  it('a one-character token: the log says it is too short and hides nothing ("Comple***ity")', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('done') })
    const result = await cli(ws, QUICK, { SONAR_TOKEN: 'e' })
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain(
      'warning: SONAR_TOKEN is 1 character long, too short to be a Sonar token'
    )
    expect(result.stderr).toContain('The server rejected the token')
    expect(result.stderr).not.toContain('***')
  })

  it('no token for a server that wants one: SONAR_TOKEN, said once', async () => {
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('done') })
    const result = await cli(ws, [...QUICK, ...FILES], {})
    expect(result.exitCode).toBe(3)
    expect(result.stderr).toContain('none was given: set the SONAR_TOKEN environment variable.')
    expect(result.stderr).not.toContain('or SONAR_TOKEN')
    await speaksCommandWords(ws, result.stderr, 'SONAR_TOKEN')
  })
})

describe('the npm package', () => {
  const execFileAsync = promisify(execFile)
  let folder: string

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'gate-pack-'))
  })
  afterAll(() => rm(folder, { recursive: true, force: true }))

  it('packs, installs offline into an empty folder with an empty cache, and its command runs', async () => {
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' }
    const manifestBefore = await readFile(path.join(ROOT, 'package.json'), 'utf8')
    const { stdout } = await execFileAsync(
      'npm',
      ['pack', '--json', '--pack-destination', folder],
      { cwd: ROOT, env }
    )
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    expect(packed?.files.map((file) => file.path).sort()).toEqual(
      expect.arrayContaining(['dist/cli.js', 'dist/cli-licenses.txt', 'package.json'])
    )
    // The action's bundle, the sources and the tests are not shipped.
    expect(packed?.files.map((file) => file.path)).not.toContain('dist/index.js')
    expect(packed?.files.some((file) => file.path.startsWith('src/'))).toBe(false)

    const project = path.join(folder, 'project')
    await mkdir(project)
    await execFileAsync('npm', ['init', '-y'], { cwd: project, env })
    // An empty cache and --offline: anything the package needed from the registry would fail.
    await execFileAsync(
      'npm',
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--cache',
        path.join(folder, 'empty-cache'),
        path.join(folder, packed!.filename)
      ],
      { cwd: project, env }
    )
    const installed = (await readdir(path.join(project, 'node_modules'))).filter(
      (name) => !name.startsWith('.')
    )
    expect(installed).toEqual(['sonar-quality-gate-check'])
    // The published manifest leaves out what only developing the repository needs (the optional
    // Node 24 download above all); the repository's own is put back as it was.
    const published = JSON.parse(
      await readFile(
        path.join(project, 'node_modules/sonar-quality-gate-check/package.json'),
        'utf8'
      )
    ) as Record<string, unknown>
    expect(published).not.toHaveProperty('optionalDependencies')
    expect(published).not.toHaveProperty('devDependencies')
    expect(published['bin']).toEqual({ 'sonar-quality-gate-check': 'dist/cli.js' })
    expect(await readFile(path.join(ROOT, 'package.json'), 'utf8')).toBe(manifestBefore)

    const bin = path.join(project, 'node_modules/.bin/sonar-quality-gate-check')
    const ws = await reports({ '.scannerwork/report-task.txt': await scenario('done') })
    const result = await run(bin, QUICK, { cwd: ws.cwd, env: { SONAR_TOKEN: TOKEN } })
    expect(result.stderr).toContain('Quality Gate status: OK')
    expect(result.exitCode).toBe(0)
  }, 120_000)
})
