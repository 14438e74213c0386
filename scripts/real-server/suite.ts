/**
 * `npm run test:real-server`: the real-server suite against every version of REAL_SERVER_VERSIONS
 * (by default the versions the suite is held to), one vitest run per version, side by side, each
 * with its own server on its own ports (REAL_SERVER_PORT_BASE, then 100 more for each version).
 * Each line a run prints is prefixed with its version; the exit code is the worst of the runs'.
 * Arguments are passed to every run: `npm run test:real-server -- tokens` runs tokens.test.ts.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { versions } from '../../__tests__/real-server/support/setup.js'

/** Ports apart from one version's server to the next's. */
const PORT_STEP = 100

/** One version's vitest run; resolves to its exit code. */
function runFor(version: string, portBase: number, args: string[]): Promise<number> {
  const started = Date.now()
  const child = spawn(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'vitest.real-server.config.ts',
      '--reporter=verbose',
      ...args
    ],
    {
      env: {
        ...process.env,
        REAL_SERVER_VERSIONS: version,
        REAL_SERVER_PORT_BASE: String(portBase),
        FORCE_COLOR: '0',
        NO_COLOR: '1'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  const label = `[${version}]`
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`${label} ${line}`))
  }
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.log(`${label} could not start vitest: ${error.message}`)
      resolve(1)
    })
    child.on('close', (code, signal) => {
      const took = Math.round((Date.now() - started) / 1000)
      console.log(`${label} finished in ${took} s: exit ${code ?? signal}`)
      resolve(code ?? 1)
    })
  })
}

const base = Number(process.env['REAL_SERVER_PORT_BASE'] ?? 9000)
const codes = await Promise.all(
  versions().map((version, index) =>
    runFor(version, base + PORT_STEP * index, process.argv.slice(2))
  )
)
process.exitCode = Math.max(0, ...codes)
