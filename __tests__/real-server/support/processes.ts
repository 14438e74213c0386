/**
 * Child processes of the harness: run one to its end with a time limit (Maven, unzip, git, the
 * scanners), and collect what it printed, bounded.
 */
import { spawn, type SpawnOptions } from 'node:child_process'
import { HarnessFailure } from './failure.js'

/** At most this much of a child's output is kept: its end, where the reason is. */
const OUTPUT_LIMIT = 256 * 1024

export interface Finished {
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** stdout and stderr interleaved, its last OUTPUT_LIMIT characters. */
  output: string
  ms: number
}

export interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env' | 'uid' | 'gid'> {
  /** The step's name for errors, e.g. `fetch SonarQube 10.7.0.96327 through Maven`. */
  step: string
  timeoutMs: number
  /** What to do when the command is not installed. */
  missingHint?: string
}

/**
 * Runs `command` to its end in its own process group; past `timeoutMs` the whole group is killed
 * and the step fails. A command that is not installed fails with `missingHint`.
 */
export function run(command: string, args: string[], options: RunOptions): Promise<Finished> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      uid: options.uid,
      gid: options.gid,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL')
      reject(
        new HarnessFailure(
          options.step,
          `${command} did not finish within ${Math.round(options.timeoutMs / 1000)} s`,
          lastLines(output, 30)
        )
      )
    }, options.timeoutMs)
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      const reason =
        error.code === 'ENOENT'
          ? `${command} is not installed${options.missingHint ? `: ${options.missingHint}` : ''}`
          : `${command} could not start: ${error.message}`
      reject(new HarnessFailure(options.step, reason))
    })
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      resolve({ exitCode, signal, output, ms: Date.now() - started })
    })
  })
}

/** Runs `command` and fails the step, with its last lines, unless it exits 0. */
export async function runOk(
  command: string,
  args: string[],
  options: RunOptions
): Promise<Finished> {
  const finished = await run(command, args, options)
  if (finished.exitCode !== 0) {
    throw new HarnessFailure(
      options.step,
      `${command} ${args[0] ?? ''} exited with ${finished.exitCode ?? finished.signal}`,
      lastLines(finished.output, 40)
    )
  }
  return finished
}

/** Sends `signal` to a process group; a group already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/** Whether any process of the group still lives. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** The last `count` non-empty lines of `text`. */
export function lastLines(text: string, count: number): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(-count)
}
