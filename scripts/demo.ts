/**
 * The demo: `npm run demo` runs the built action (dist/index.js) the way the GitHub runner does,
 * against the simulated server, once for an analysis that passes its quality gate and once for
 * one that fails it, and shows what a workflow run would show: the log, the exit code, the outputs
 * and the job summary. Exits 0 when both runs end as they should (pass: 0, fail: 1).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runBuiltAction, type ActionRun } from './run-built-action.js'
import { scenario, Simulator } from './sonar-simulator.js'

const TOKEN = 'squ_demo7c1e0f9a3b5d2e4c6a8b0d1f3e5a7c9b2d4f6'

const RUNS = [
  {
    title: 'A passing analysis: the task is queued, then runs, then its gate passes',
    scenario: 'pending-success',
    expectedExitCode: 0
  },
  {
    title: 'A failing analysis: its quality gate is ERROR',
    scenario: 'gate-error',
    expectedExitCode: 1
  }
] as const

const RULE = '─'.repeat(78)

async function main(): Promise<number> {
  const simulator = await Simulator.start({ token: TOKEN })
  let failures = 0
  try {
    console.log(
      `Simulated server: ${simulator.url} · action: dist/index.js on Node ${process.version}`
    )
    for (const [index, demo] of RUNS.entries()) {
      const run = await runOnce(simulator, demo.scenario)
      const asExpected = run.exitCode === demo.expectedExitCode
      if (!asExpected) failures++
      console.log(`\n${RULE}\n${index + 1}. ${demo.title}\n${RULE}`)
      section('Log', renderLog(run.stdout))
      if (run.stderr.trim()) section('Standard error', run.stderr.trimEnd())
      section(
        'Exit code',
        `${run.exitCode} (expected ${demo.expectedExitCode}) ${asExpected ? '✓ as expected' : '✗ NOT as expected'} · took ${(run.durationMs / 1000).toFixed(1)} s`
      )
      section('Outputs', renderOutputs(run.outputs))
      section('Job summary', renderMarkdown(run.summary))
    }
  } finally {
    await simulator.stop()
  }
  console.log(
    failures === 0
      ? `\n${RULE}\nBoth runs ended as expected.`
      : `\n${RULE}\n${failures} run(s) did not end as expected.`
  )
  return failures === 0 ? 0 : 1
}

/** One step run in a fresh working directory holding the scanner's report file. */
async function runOnce(simulator: Simulator, name: string): Promise<ActionRun> {
  const root = await mkdtemp(path.join(tmpdir(), 'gate-demo-'))
  try {
    const analysis = simulator.addAnalysis(await scenario(name))
    const cwd = path.join(root, 'work')
    await simulator.writeReportFile(analysis, path.join(cwd, '.scannerwork/report-task.txt'))
    const outputFile = path.join(root, 'github_output')
    const summaryFile = path.join(root, 'step_summary')
    await writeFile(outputFile, '')
    await writeFile(summaryFile, '')
    return await runBuiltAction({
      cwd,
      outputFile,
      summaryFile,
      inputs: { initialDelayMs: '500', pollingIntervalMs: '500' },
      env: { SONAR_TOKEN: TOKEN }
    })
  } finally {
    await rm(root, { recursive: true, force: true })
  }
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
    const command = /^::([\w-]+)(?: [^:]*)?::(.*)$/.exec(line)
    if (!command) {
      shown.push(depth + line)
      continue
    }
    const [, name, data = ''] = command
    const text = data.replace(/%0D/g, '').replace(/%0A/g, '\n').replace(/%25/g, '%')
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
