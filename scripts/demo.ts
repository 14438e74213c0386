/**
 * The demo: `npm run demo` runs the built action (dist/index.js) the way the GitHub runner does,
 * against the simulated server: an analysis that passes its quality gate, one that fails it, and
 * a monorepo's three analyses in one step. It shows what a workflow run would show: the inputs
 * set, the log, the exit code, the outputs and the job summary. Then it runs the command-line
 * tool (dist/cli.js) once, as another CI would, on the monorepo's analyses: its standard error,
 * its exit code, its JUnit report, and the new issues as SARIF and as GitLab Code Quality. Each
 * run's working directory is a checkout holding the files the simulated issues are in, so the
 * annotations, SARIF and Code Quality show them. Exits 0 when every run ends as it should.
 */
import { readFile } from 'node:fs/promises'
import { COMMAND } from '../src/cli/version.js'
import { analysisBaseDir } from '../src/findings/locate.js'
import {
  CLI_ENTRY,
  createWorkspace,
  runBuiltAction,
  timeChild,
  type ActionRun
} from '../__fixtures__/built-action.js'
import {
  monorepoScenario,
  scenario,
  Simulator,
  writeSampleFiles,
  type AnalysisScript
} from '../__fixtures__/simulator/sonar-simulator.js'

const TOKEN = 'squ_demo7c1e0f9a3b5d2e4c6a8b0d1f3e5a7c9b2d4f6'

/** Report files by where the scanner writes them, each with how its analysis behaves. */
type Reports = () => Promise<Record<string, AnalysisScript>>

/**
 * The inputs every run sets: shorter waits than the defaults (initialDelayMs 3000, and
 * pollingIntervalMs empty: every second, closer together around the predicted end) so the
 * demo is quick. The token goes in SONAR_TOKEN, as a workflow's secret would.
 */
const DEMO_INPUTS = { initialDelayMs: '500', pollingIntervalMs: '500' }

const RUNS: {
  title: string
  reports: Reports
  inputs?: Record<string, string>
  expectedExitCode: number
}[] = [
  {
    title: 'A passing analysis: the task is queued, then runs, then its gate passes',
    reports: async () => ({ '.scannerwork/report-task.txt': await scenario('pending-success') }),
    expectedExitCode: 0
  },
  {
    title: 'A failing analysis: its quality gate is ERROR',
    reports: async () => ({ '.scannerwork/report-task.txt': await scenario('gate-error') }),
    expectedExitCode: 1
  },
  {
    title: "A monorepo's three analyses in one step: one passes, one fails, one is slow",
    reports: async () => {
      const [api, web, reports] = await monorepoScenario()
      return {
        'api/target/sonar/report-task.txt': api!,
        'web/.scannerwork/report-task.txt': web!,
        'reports/build/sonar/report-task.txt': reports!
      }
    },
    inputs: { scanMetadataReportFile: '*/**/report-task.txt' },
    expectedExitCode: 1
  }
]

const RULE = '─'.repeat(78)

/** The command's run: as a GitLab or Jenkins job would, on the monorepo's three analyses. */
const COMMAND_RUN = {
  title: 'The command-line tool (dist/cli.js), as another CI runs it, on the same monorepo',
  args: [
    '--report',
    '*/**/report-task.txt',
    '--initial-delay',
    '500',
    '--interval',
    '500',
    '--junit',
    'reports/sonar-quality-gate.xml',
    '--sarif',
    'reports/sonar-issues.sarif',
    '--codequality',
    'reports/gl-code-quality-report.json'
  ],
  expectedExitCode: 1
}

async function main(): Promise<number> {
  const simulator = await Simulator.start({ token: TOKEN })
  let failures = 0
  try {
    console.log(
      `Simulated server: ${simulator.url} · action: dist/index.js on Node ${process.version}`
    )
    for (const [index, demo] of RUNS.entries()) {
      const inputs = { ...DEMO_INPUTS, ...demo.inputs }
      const run = await runOnce(simulator, await demo.reports(), inputs)
      const asExpected = run.exitCode === demo.expectedExitCode
      if (!asExpected) failures++
      console.log(`\n${RULE}\n${index + 1}. ${demo.title}\n${RULE}`)
      section(
        'Inputs set (the rest are the defaults)',
        [
          ...Object.entries(inputs).map(
            ([name, value]) => `${name}: ${value.replace(/\n/g, '\\n')}`
          ),
          'SONAR_TOKEN (environment): a token the simulated server accepts'
        ].join('\n')
      )
      section('Log', renderLog(run.stdout))
      if (run.stderr.trim()) section('Standard error', run.stderr.trimEnd())
      section(
        'Exit code',
        `${run.exitCode} (expected ${demo.expectedExitCode}) ${asExpected ? '✓ as expected' : '✗ NOT as expected'} · took ${(run.ms / 1000).toFixed(1)} s`
      )
      section('Outputs', renderOutputs(run.outputs))
      section('Job summary', renderMarkdown(run.summary))
    }
    const [index, command] = [RUNS.length + 1, COMMAND_RUN]
    const run = await commandOnce(simulator, RUNS[2]!.reports, command.args)
    const asExpected = run.exitCode === command.expectedExitCode
    if (!asExpected) failures++
    console.log(`\n${RULE}\n${index}. ${command.title}\n${RULE}`)
    section(
      'Command (SONAR_TOKEN in the environment; CI=true, so no colours)',
      `${COMMAND} ${command.args.join(' ')}`
    )
    section('Standard error', run.stderr.trimEnd())
    section(
      'Exit code',
      `${run.exitCode} (expected ${command.expectedExitCode}: a gate failed) ${asExpected ? '✓ as expected' : '✗ NOT as expected'} · took ${(run.ms / 1000).toFixed(1)} s`
    )
    section('JUnit report (reports/sonar-quality-gate.xml), its first lines', run.junit)
    section('SARIF (reports/sonar-issues.sarif), its first results', run.sarif)
    section(
      'GitLab Code Quality (reports/gl-code-quality-report.json), its first issues',
      run.codeQuality
    )
  } finally {
    await simulator.stop()
  }
  console.log(
    failures === 0
      ? `\n${RULE}\nEvery run ended as expected.`
      : `\n${RULE}\n${failures} run(s) did not end as expected.`
  )
  return failures === 0 ? 0 : 1
}

/**
 * The files the simulated issues are in, in the analysis's base directory (where the scanner
 * ran, which the report file's place tells), as a checkout has them: the new issues'
 * annotations, SARIF and Code Quality then point at them.
 */
async function checkoutFiles(reportFile: string, cwd: string): Promise<void> {
  await writeSampleFiles(analysisBaseDir(reportFile, cwd))
}

/** One step run in a fresh working directory holding the scanners' report files. */
async function runOnce(
  simulator: Simulator,
  reports: Record<string, AnalysisScript>,
  inputs: Record<string, string>
): Promise<ActionRun> {
  const ws = await createWorkspace('gate-demo-')
  try {
    for (const [file, script] of Object.entries(reports)) {
      await simulator.writeReportFile(simulator.addAnalysis(script), ws.file(file))
      await checkoutFiles(file, ws.cwd)
    }
    return await runBuiltAction({
      cwd: ws.cwd,
      outputFile: ws.outputFile,
      summaryFile: ws.summaryFile,
      inputs,
      env: { SONAR_TOKEN: TOKEN }
    })
  } finally {
    await ws.remove()
  }
}

/** The command once, in a fresh working directory holding the scanners' report files. */
async function commandOnce(
  simulator: Simulator,
  reports: Reports,
  args: string[]
): Promise<{
  exitCode: number | null
  stderr: string
  junit: string
  sarif: string
  codeQuality: string
  ms: number
}> {
  const ws = await createWorkspace('gate-demo-cli-')
  try {
    for (const [file, script] of Object.entries(await reports())) {
      await simulator.writeReportFile(simulator.addAnalysis(script), ws.file(file))
      await checkoutFiles(file, ws.cwd)
    }
    const { exitCode, stderr, ms } = await timeChild(process.execPath, [CLI_ENTRY, ...args], {
      cwd: ws.cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CI: 'true', SONAR_TOKEN: TOKEN }
    })
    const junit = await readFile(ws.file('reports/sonar-quality-gate.xml'), 'utf8').catch(
      () => '(not written)'
    )
    const lines = junit.split('\n')
    const shown = lines.slice(0, 16).join('\n')
    return {
      exitCode,
      stderr,
      junit: lines.length > 16 ? `${shown}\n… ${lines.length - 16} more lines` : shown,
      sarif: await findingsIn(ws.file('reports/sonar-issues.sarif'), sarifFindings),
      codeQuality: await findingsIn(
        ws.file('reports/gl-code-quality-report.json'),
        codeQualityFindings
      ),
      ms
    }
  } finally {
    await ws.remove()
  }
}

/** How many findings a file holds and its first few, one line each: `file:line  message`. */
async function findingsIn(
  file: string,
  read: (json: unknown) => { place: string; message: string }[]
): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => undefined)
  if (text === undefined) return '(not written)'
  const findings = read(JSON.parse(text))
  return [
    `${findings.length} new ${findings.length === 1 ? 'issue' : 'issues'}`,
    ...findings.slice(0, 5).map(({ place, message }) => `${place}  ${message}`),
    ...(findings.length > 5 ? [`… ${findings.length - 5} more`] : [])
  ].join('\n')
}

/** SARIF 2.1.0's results: `runs[].results[]` with their first physical location. */
function sarifFindings(json: unknown): { place: string; message: string }[] {
  const { runs = [] } = json as {
    runs?: {
      results?: {
        message?: { text?: string }
        locations?: {
          physicalLocation?: {
            artifactLocation?: { uri?: string }
            region?: { startLine?: number }
          }
        }[]
      }[]
    }[]
  }
  return runs.flatMap(({ results = [] }) =>
    results.map(({ message, locations }) => {
      const where = locations?.[0]?.physicalLocation
      return {
        place: `${where?.artifactLocation?.uri ?? '?'}:${where?.region?.startLine ?? '?'}`,
        message: message?.text ?? ''
      }
    })
  )
}

/** GitLab Code Quality: an array of `{description, location: {path, lines: {begin}}}`. */
function codeQualityFindings(json: unknown): { place: string; message: string }[] {
  const issues = json as {
    description?: string
    location?: { path?: string; lines?: { begin?: number } }
  }[]
  return issues.map(({ description, location }) => ({
    place: `${location?.path ?? '?'}:${location?.lines?.begin ?? '?'}`,
    message: description ?? ''
  }))
}

function section(title: string, body: string): void {
  console.log(`\n${title}\n${indent(body, '  ')}`)
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line ? prefix + line : line))
    .join('\n')
}

/**
 * The log as the runner shows it: masks hidden, groups as headings, annotations as labelled
 * lines, `%0A` as new lines.
 */
function renderLog(stdout: string): string {
  const shown: string[] = []
  let depth = ''
  for (const line of stdout.replace(/\n$/, '').split('\n')) {
    const command = /^::([\w-]+)(?: ([^:]*))?::(.*)$/.exec(line)
    if (!command) {
      shown.push(depth + line)
      continue
    }
    const [, name, properties = '', data = ''] = command
    const text = place(properties) + decode(data)
    switch (name) {
      case 'group':
        shown.push(`▸ ${text}`)
        depth = '    '
        break
      case 'endgroup':
        depth = ''
        break
      case 'error':
        shown.push(labelled('✗ Error: ', text))
        break
      case 'warning':
        shown.push(labelled('⚠ Warning: ', text))
        break
      case 'notice':
        shown.push(labelled('ℹ Notice: ', text))
        break
      default:
        // add-mask, debug and other commands the runner does not print.
        break
    }
  }
  return shown.join('\n')
}

/** A workflow command's data or property value as the runner shows it. */
function decode(text: string): string {
  return text
    .replace(/%0D/g, '')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%')
}

/** Where an annotation points, as GitHub shows it on the diff: `file:line [title] `. */
function place(properties: string): string {
  const values = new Map(
    properties
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), decode(pair.slice(pair.indexOf('=') + 1))])
  )
  const file = values.get('file')
  const title = values.get('title')
  const where = file ? `${file}${values.has('line') ? `:${values.get('line')}` : ''} ` : ''
  return `${where}${title ? `[${title}] ` : ''}`
}

function labelled(label: string, text: string): string {
  const [first, ...rest] = text.split('\n')
  return [label + first, ...rest.map((line) => ' '.repeat(label.length) + line)].join('\n')
}

function renderOutputs(outputs: Record<string, string>): string {
  const names = Object.keys(outputs)
  if (names.length === 0) return '(none)'
  const width = Math.max(...names.map((name) => name.length))
  return names
    .map((name) => `${name.padEnd(width)}  ${shorten(outputs[name] ?? '', 90)}`)
    .join('\n')
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** The summary's Markdown as is, with its tables aligned. */
function renderMarkdown(markdown: string): string {
  const lines = markdown.trimEnd().split('\n')
  const out: string[] = []
  for (let i = 0; i < lines.length;) {
    if (!lines[i]?.startsWith('|')) {
      out.push(lines[i++] ?? '')
      continue
    }
    const rows: string[][] = []
    while (lines[i]?.startsWith('|')) rows.push(cells(lines[i++] ?? ''))
    out.push(...alignTable(rows))
  }
  return out.join('\n')
}

function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'))
}

function alignTable(rows: string[][]): string[] {
  const isRule = (row: string[]): boolean => row.every((cell) => /^:?-+:?$/.test(cell))
  const columns = Math.max(...rows.map((row) => row.length))
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(3, ...rows.filter((row) => !isRule(row)).map((row) => displayWidth(row[column] ?? '')))
  )
  return rows.map((row) =>
    isRule(row)
      ? `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`
      : `| ${widths.map((width, column) => pad(row[column] ?? '', width)).join(' | ')} |`
  )
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

/** Terminal columns: emoji take two, variation selectors none. */
function displayWidth(text: string): number {
  let width = 0
  for (const char of text.replace(/\uFE0F/g, ''))
    width += /\p{Emoji_Presentation}/u.test(char) ? 2 : 1
  return width
}

process.exitCode = await main()
