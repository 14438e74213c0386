/**
 * The SARIF log as Microsoft's SARIF validator judges it: `Sarif.Multitool validate` with GitHub's
 * ingestion rules (what GitHub code scanning needs on top of the specification), and the SDK's
 * own reader (`Sarif.Multitool rewrite`), over a realistic set of findings written to a file.
 *
 * The validator comes from @microsoft/sarif-multitool-linux, an optional dependency built for
 * Linux x64 only: elsewhere these tests are reported skipped with the reason, and with CI set
 * they fail instead. Two facts about the tool shape the checks:
 * - `validate` fetches every URI in the log (rule SARIF2006) unless told not to: the policy file
 *   turns that rule off, so nothing leaves the machine.
 * - A value outside one of SARIF's enumerations (a result `level` of "fatal") makes `validate`
 *   drop everything it found in the file and report success; `rewrite` reads the log into the
 *   SDK's object model, which refuses such a value. Both run, and either one's complaint fails.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestContext } from 'vitest'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const POLICY = path.join(ROOT, '__fixtures__/sarif/validator-policy.xml')

/** Where Sarif.Multitool is, or why it is not here. */
function findMultitool(): { path: string } | { missing: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return {
      missing: `Sarif.Multitool is built for Linux x64, this is ${process.platform} ${process.arch}`
    }
  }
  try {
    const binary = createRequire(import.meta.url)('@microsoft/sarif-multitool-linux') as string
    if (existsSync(binary)) return { path: binary }
    return { missing: `${binary} is missing: run npm ci` }
  } catch {
    return {
      missing: '@microsoft/sarif-multitool-linux is not installed (npm ci installs it on Linux)'
    }
  }
}

const MULTITOOL = findMultitool()

/** The validator's path; skips the test (with the reason) where it cannot run, unless in CI. */
export function multitool(context: TestContext): string {
  if ('path' in MULTITOOL) return MULTITOOL.path
  if (process.env['CI']) throw new Error(`${MULTITOOL.missing}; CI must run the SARIF validator`)
  return context.skip(MULTITOOL.missing)
}

interface ToolRun {
  exitCode: number
  output: string
}

/**
 * Runs the tool with a clean environment. .NET's invariant globalization spares it the ICU
 * libraries, which a machine with only Node.js may not have.
 */
function runTool(binary: string, args: string[]): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: process.env['HOME'] ?? tmpdir(),
          DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1',
          DOTNET_CLI_TELEMETRY_OPTOUT: '1'
        },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024
      },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        resolve({ exitCode, output: `${stdout}${stderr}` })
      }
    )
  })
}

/** The parts of the validator's own SARIF log read here. */
interface ValidatorLog {
  runs: Array<{
    results?: Array<{
      ruleId: string
      level?: string
      /** Text, or the id of a message template with its arguments. */
      message: { text?: string; id?: string; arguments?: string[] }
      locations?: Array<{ physicalLocation?: { region?: { startLine?: number } } }>
    }>
    invocations?: Array<{
      executionSuccessful: boolean
      toolExecutionNotifications?: Array<{ level?: string; message: { text?: string } }>
    }>
  }>
}

let folder: string | undefined
let files = 0

/**
 * What the validator and the SDK's reader find wrong with `log`, one line each, as
 * `ruleId (line n): message`: the validator's errors with GitHub's rules, its execution
 * failures, and the reader's refusal.
 */
export async function problemsOf(binary: string, log: string): Promise<string[]> {
  folder ??= await mkdtemp(path.join(tmpdir(), 'sarif-validator-'))
  const input = path.join(folder, `log-${++files}.sarif`)
  const output = `${input}.validation.sarif`
  await writeFile(input, log)
  const validate = await runTool(binary, [
    'validate',
    '--config',
    POLICY,
    '--rule-kind',
    'Sarif;Ghas',
    '--log',
    'ForceOverwrite',
    '--output',
    output,
    input
  ])
  if (!existsSync(output))
    return [`validate wrote no log (exit ${validate.exitCode}): ${validate.output}`]
  const judged = JSON.parse(await readFile(output, 'utf8')) as ValidatorLog
  const problems: string[] = []
  for (const run of judged.runs) {
    for (const result of run.results ?? []) {
      if (result.level !== 'error') continue
      const line = result.locations?.[0]?.physicalLocation?.region?.startLine
      const { text, id, arguments: args = [] } = result.message
      problems.push(
        `${result.ruleId} (line ${line ?? '?'}): ${text ?? `${id} ${args.join(' | ')}`}`
      )
    }
    for (const invocation of run.invocations ?? []) {
      if (!invocation.executionSuccessful) problems.push('validate: execution not successful')
      for (const notification of invocation.toolExecutionNotifications ?? []) {
        if (notification.level === 'error')
          problems.push(`validate: ${notification.message.text ?? ''}`)
      }
    }
  }
  const rewrite = await runTool(binary, [
    'rewrite',
    '--log',
    'ForceOverwrite',
    '--output',
    `${input}.rewritten.sarif`,
    input
  ])
  if (rewrite.exitCode !== 0) {
    problems.push(`rewrite (the SDK's reader) refused it: ${firstError(rewrite.output)}`)
  }
  return problems
}

/** The line of the tool's output that says what went wrong (not its stack trace). */
function firstError(output: string): string {
  const line = /^.*(?:error|Exception).*$/im.exec(output)?.[0] ?? output
  return line.trim().slice(0, 500)
}
