/**
 * `npm run action:local`: runs the built action (dist/index.js) once in the current directory the
 * way the runner runs a step, against whatever server the report file names (the simulator, when
 * tried by hand). The runner's variables are set as it sets them: one INPUT_<NAME> per input of
 * action.yml (its default unless given with `--input name=value`), GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files (kept in .tmp/action-local/). SONAR_TOKEN, SONAR_HOST_URL,
 * SONAR_ROOT_CERT and the proxy variables are taken from this shell; nothing else leaks in.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { resetRunnerFiles, runBuiltAction } from '../__fixtures__/built-action.js'

const USAGE = `Usage: npm run action:local -- [--input name=value]...

Runs dist/index.js here as the runner would, e.g. against the simulator:
  npm run simulator -- --report .scannerwork/report-task.txt --token local-token
  SONAR_TOKEN=local-token npm run action:local -- --input initialDelayMs=500
Exits with the action's exit code; the outputs and the job summary are in .tmp/action-local/.
`

const PASSED_ON = [
  'SONAR_TOKEN',
  'SONAR_HOST_URL',
  'SONAR_ROOT_CERT',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy'
]

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false }
    }
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const inputs: Record<string, string> = {}
  for (const pair of values.input) {
    const separator = pair.indexOf('=')
    if (separator <= 0) throw new Error(`--input "${pair}" must be name=value.`)
    inputs[pair.slice(0, separator)] = pair.slice(separator + 1)
  }
  const env: Record<string, string> = {}
  for (const name of PASSED_ON) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
  }

  const folder = path.resolve('.tmp/action-local')
  await mkdir(folder, { recursive: true })
  const outputFile = path.join(folder, 'github_output')
  const summaryFile = path.join(folder, 'step_summary.md')
  await resetRunnerFiles({ outputFile, summaryFile })
  console.log(`dist/index.js on Node ${process.version} (${process.execPath}), in ${process.cwd()}`)
  const run = await runBuiltAction({
    cwd: process.cwd(),
    inputs,
    env,
    outputFile,
    summaryFile,
    killAfterMs: 10 * 60_000
  })
  process.stdout.write(run.stdout)
  process.stderr.write(run.stderr)
  console.log(`\nExit code ${run.exitCode} after ${(run.ms / 1000).toFixed(1)} s. Outputs:`)
  for (const [name, value] of Object.entries(run.outputs)) console.log(`  ${name}: ${value}`)
  console.log(`Job summary: ${path.relative(process.cwd(), summaryFile)}`)
  return run.exitCode ?? 1
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  console.error(`action:local: ${(error as Error).message}`)
  process.exitCode = 2
}
