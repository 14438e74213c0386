/**
 * Starts the simulator in the background and returns once it listens: the same command on Linux,
 * macOS and Windows, in any shell (bash, pwsh, cmd), for the CI job that runs the action on each.
 *
 * `node --import tsx __fixtures__/simulator/start-simulator.ts --log simulator.log --port 9000 --report …`
 * takes the simulator's own options (see `npm run simulator -- --help`) and `--log <file>`, where
 * the simulator's output goes (default `simulator-<port>.log`). It prints the simulator's address
 * and, on a runner, writes it as the step output `url`. It fails, showing the log, when the
 * simulator stops or says nothing within 30 s. The simulator lives on until the job ends.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, openSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SIMULATOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sonar-simulator.ts')
const LISTENING = /^Simulator listening on (\S+?);/m
const STARTUP_LIMIT_MS = 30_000

function main(argv: string[]): number {
  const logAt = argv.indexOf('--log')
  const portAt = argv.indexOf('--port')
  const log = logAt >= 0 ? argv[logAt + 1] : `simulator-${argv[portAt + 1] ?? 9000}.log`
  if (!log) {
    console.error('start-simulator: --log needs a file name.')
    return 2
  }
  const simulatorArgs = argv.filter(
    (_, index) => logAt < 0 || (index !== logAt && index !== logAt + 1)
  )
  const output = openSync(log, 'w')
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), SIMULATOR, ...simulatorArgs],
    { detached: true, stdio: ['ignore', output, output], windowsHide: true }
  )
  let exited: number | null | undefined
  child.on('exit', (code) => (exited = code))
  child.unref()

  const startedAt = Date.now()
  const poll = (): void => {
    const text = readFileSync(log, 'utf8')
    const url = LISTENING.exec(text)?.[1]
    if (url) {
      console.log(`The simulator listens on ${url} (process ${child.pid}, log ${log}).`)
      if (process.env['GITHUB_OUTPUT']) appendFileSync(process.env['GITHUB_OUTPUT'], `url=${url}\n`)
      return
    }
    if (exited !== undefined || Date.now() - startedAt > STARTUP_LIMIT_MS) {
      const why = exited !== undefined ? `stopped with exit code ${exited}` : 'said nothing in 30 s'
      console.error(`The simulator ${why}. Its log (${log}):\n${text}`)
      if (exited === undefined) child.kill()
      process.exitCode = 1
      return
    }
    setTimeout(poll, 100)
  }
  poll()
  return 0
}

process.exitCode = main(process.argv.slice(2))
