/**
 * The service's entry points run as a user runs them, for the tests of how they start and refuse
 * to: a child Node with tsx, in an environment built from scratch, until it exits on its own.
 */
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:net'

/** How a run of an entry point ended. */
export interface EntryRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `entry` (`service/src/index.ts`, `service/src/dev/index.ts`) until it exits; `env` is its
 * whole environment.
 *
 * @example const { code, stderr } = await runEntry(ENTRY, { PATH: process.env.PATH ?? '', PORT: 'eighty' })
 */
export function runEntry(
  entry: string,
  env: Record<string, string>,
  { cwd }: { cwd?: string } = {}
): Promise<EntryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** A loopback port that something already listens on: close `server` when done. */
export async function occupiedPort(): Promise<{ server: Server; port: number }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { server, port: address.port }
}
