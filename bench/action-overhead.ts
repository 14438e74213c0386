/**
 * Whole-process wall time of the action, and of the command-line tool (dist/cli.js), on an
 * analysis that is already done, against a floor (node + the same two GETs) and, when its path
 * is given, SonarSource's bash script. Every
 * program runs once per round, in an order that rotates each round; the claims are medians of
 * per-round ratios and differences, so the shared machine's noise hits all of them alike.
 * Beside them, to show where the time goes: node alone, node:http loaded both ways, and
 * `@actions/core` and `undici` each bundled alone by ncc as the action's bundle holds them.
 *
 * With `--before <folder>`, another build of the action (a folder holding its index.js and chunks,
 * e.g. `git archive <commit> dist | tar -x -C /tmp/before` gives /tmp/before/dist) runs in the same
 * rounds as "action (before)": a change's effect measured against the same floor at the same time.
 *
 * npm run bench:overhead -- [--rounds 30] [--warmup 2] [--node <path>] [--sonarsource-script <path>] [--before <folder>]
 */
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import ncc from '@vercel/ncc'
import { scenario, Simulator } from '../__fixtures__/simulator/sonar-simulator.js'
import { inParentheses } from '../scripts/module-map.js'
import {
  CLI_ENTRY,
  createWorkspace,
  expectExit,
  nodeBinary,
  readOutputs,
  REPO,
  resetRunnerFiles,
  runBuiltAction,
  timeChild,
  type Exit,
  type Workspace
} from '../__fixtures__/built-action.js'
import {
  benchEnv,
  REPORT_FILE,
  runFloor,
  runSonarSource,
  sonarSourceScript,
  STEP_ENV,
  TOKEN
} from './baselines.js'
import { median, ms, printTable, quantile } from './stats.js'

/** The bounds the start-up is held to, as times the floor (docs/performance.md). */
const BOUNDS = { action: 2.5, command: 1.9 }

/** One program the bench times, and how to tell that its run was a real one. */
interface Program {
  name: string
  run: () => Promise<Exit>
  check: (exit: Exit) => Promise<void> | void
}

type Samples = Map<string, number[]>

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '2' },
    node: { type: 'string' },
    'sonarsource-script': { type: 'string' },
    before: { type: 'string' }
  }
})

/**
 * `node dist/cli.js` in the workspace as a CI job runs it: the report file found where the
 * scanner wrote it, the token in SONAR_TOKEN, no initial wait, CI set (so no colours).
 */
function runCli(node: string, workspace: Workspace, args: string[] = []): Promise<Exit> {
  return timeChild(node, [CLI_ENTRY, '--initial-delay', '0', ...args], {
    cwd: workspace.cwd,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      CI: 'true',
      SONAR_TOKEN: TOKEN
    }
  })
}

/** Where the packages bundled alone are written (ignored by git). */
const BUNDLES = path.join(REPO, '.tmp/bench-bundles')

/**
 * `import '<name>'` bundled by ncc as `npm run package` bundles the action (minified, its modules
 * in parentheses: scripts/bundle-action.ts), in its own folder with a `type: module` package.json
 * like dist/: what loading that package costs the bundle.
 */
async function bundleAlone(name: string): Promise<string> {
  const folder = path.join(BUNDLES, name.replace(/[@/]/g, '_'))
  await mkdir(folder, { recursive: true })
  const entry = path.join(folder, 'entry.mjs')
  await writeFile(entry, `import * as loaded from '${name}'\nglobalThis.loaded = loaded\n`)
  const { code } = await ncc(entry, { quiet: true, minify: true })
  await writeFile(path.join(folder, 'package.json'), '{ "type": "module" }\n')
  await writeFile(path.join(folder, 'index.js'), inParentheses(code))
  return path.join(folder, 'index.js')
}

/** `node -e <code>` (ESM) from the repository root, so node_modules resolve. */
function nodeEval(node: string, workspace: Workspace, code: string): () => Promise<Exit> {
  return () =>
    timeChild(node, ['--input-type=module', '-e', code], { cwd: REPO, env: benchEnv(workspace) })
}

function programs(
  node: string,
  workspace: Workspace,
  ceTaskUrl: string,
  bundles: { core: string; undici: string },
  script?: string,
  before?: string
): Program[] {
  /** A `nodeEval` of `code` that must exit 0. */
  const evalProgram = (name: string, code: string): Program => ({
    name,
    run: nodeEval(node, workspace, code),
    check: (e) => expectExit(name, e, 0)
  })
  /** The built action (or another build's, at `entry`) on the done analysis: it must pass. */
  const actionProgram = (name: string, entry?: string): Program => ({
    name,
    run: () =>
      runBuiltAction({ ...workspace, node, entry, inputs: { initialDelayMs: '0' }, env: STEP_ENV }),
    check: async (e) => {
      expectExit(name, e, 0)
      const status = (await readOutputs(workspace))['status']
      if (status !== 'OK') throw new Error(`${name} wrote status=${status}, expected OK`)
    }
  })
  const list: Program[] = [
    evalProgram('node start', ''),
    evalProgram('import node:http', "await import('node:http')"),
    evalProgram('require node:http', "process.getBuiltinModule('node:http')"),
    {
      name: 'bundled @actions/core',
      run: () => timeChild(node, [bundles.core], { cwd: REPO, env: benchEnv(workspace) }),
      check: (e) => expectExit('bundled @actions/core', e, 0)
    },
    {
      name: 'bundled undici',
      run: () => timeChild(node, [bundles.undici], { cwd: REPO, env: benchEnv(workspace) }),
      check: (e) => expectExit('bundled undici', e, 0)
    },
    {
      name: 'bundle, no report file',
      run: () =>
        runBuiltAction({
          ...workspace,
          node,
          inputs: { scanMetadataReportFile: 'missing/report-task.txt' },
          env: STEP_ENV
        }),
      check: (e) => expectExit('bundle without report file', e, 1, 'Report file not found')
    },
    {
      name: 'floor',
      run: () => runFloor(node, workspace, ceTaskUrl),
      check: (e) => expectExit('floor', e, 0, 'OK')
    },
    actionProgram('action'),
    {
      name: 'command, no report file',
      run: () => runCli(node, workspace, ['--report', 'missing/report-task.txt']),
      check: (e) => expectExit('command without report file', e, 2)
    },
    {
      name: 'command',
      run: () => runCli(node, workspace),
      check: (e) => {
        expectExit('command', e, 0)
        if (!e.stderr.includes('Quality Gate status: OK')) {
          throw new Error(`the command did not say the gate passed:\n${e.stderr}`)
        }
      }
    }
  ]
  if (before) list.push(actionProgram('action (before)', path.resolve(before, 'index.js')))
  if (script) {
    list.push({
      name: 'SonarSource script',
      run: () => runSonarSource(script, workspace),
      check: (e) => expectExit('SonarSource script', e, 0, 'PASSED')
    })
  }
  return list
}

/** Round r runs the programs starting at index r: each program takes every place in turn. */
function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}

async function measure(list: Program[], workspace: Workspace, rounds: number, warmup: number) {
  const samples: Samples = new Map(list.map((p) => [p.name, []]))
  for (let round = -warmup; round < rounds; round++) {
    for (const program of rotate(list, round + warmup)) {
      await resetRunnerFiles(workspace)
      const exit = await program.run()
      await program.check(exit)
      if (round >= 0) samples.get(program.name)?.push(exit.ms)
    }
  }
  return samples
}

/** Per-round a/b or a−b, then the median: both sides of each pair ran in the same round. */
function perRound(samples: Samples, a: string, b: string, op: (x: number, y: number) => number) {
  const xs = samples.get(a) ?? []
  const ys = samples.get(b) ?? []
  return median(xs.map((x, i) => op(x, ys[i] as number)))
}
const ratio = (x: number, y: number): number => x / y
const minus = (x: number, y: number): number => x - y

function printWallTimes(samples: Samples): void {
  printTable(
    ['program', 'median ms', 'p90 ms', 'min ms'],
    [...samples].map(([name, xs]) => [
      name,
      ms(median(xs)),
      ms(quantile(xs, 0.9)),
      ms(Math.min(...xs))
    ])
  )
}

function printRatios(samples: Samples): void {
  const actionFloor = perRound(samples, 'action', 'floor', ratio)
  const commandFloor = perRound(samples, 'command', 'floor', ratio)
  /** "meets bound ≤ x" or "MISSES bound ≤ x". */
  const against = (value: number, bound: number): string =>
    `${value <= bound ? 'meets' : 'MISSES'} bound ≤ ${bound}`
  const rows = [
    ['action / floor', ms(actionFloor, 2), against(actionFloor, BOUNDS.action)],
    ['command / floor', ms(commandFloor, 2), against(commandFloor, BOUNDS.command)],
    ['command / action', ms(perRound(samples, 'command', 'action', ratio), 2), '']
  ]
  /** "a / b" and "a − b" of two programs that ran, each a row. */
  const row = (a: string, b: string, difference = false): void => {
    if (!samples.has(a) || !samples.has(b)) return
    rows.push(
      difference
        ? [`${a} − ${b}, ms`, ms(perRound(samples, a, b, minus), 1), '']
        : [`${a} / ${b}`, ms(perRound(samples, a, b, ratio), 2), '']
    )
  }
  row('action (before)', 'floor')
  row('action', 'action (before)', true)
  row('SonarSource script', 'floor')
  row('action', 'SonarSource script')
  printTable(['median of per-round ratios', 'ratio', ''], rows)
}

/** Each part: a program's median time minus the program it adds to, per round. */
const PARTS = [
  ['node start', "node -e ''", 'node start', undefined],
  [
    '@actions/core load (http-client, undici)',
    'bundled @actions/core − node start',
    'bundled @actions/core',
    'node start'
  ],
  [
    'the rest of the bundle: load + run without network',
    'bundle, no report file − bundled @actions/core',
    'bundle, no report file',
    'bundled @actions/core'
  ],
  [
    'network: task + gate GETs, outputs, summary',
    'action − bundle, no report file',
    'action',
    'bundle, no report file'
  ],
  ['total', 'action', 'action', undefined]
] as const

/** The same breakdown for the command. */
const COMMAND_PARTS = [
  ['node start', "node -e ''", 'node start', undefined],
  [
    'bundle load + run without network',
    'command, no report file − node start',
    'command, no report file',
    'node start'
  ],
  [
    'network: task + gate GETs, log',
    'command − command, no report file',
    'command',
    'command, no report file'
  ],
  ['total', 'command', 'command', undefined]
] as const

const REFERENCES = [
  ['@actions/core, bundled alone', 'bundled @actions/core', 'node start'],
  ['undici (which @actions/core loads), bundled alone', 'bundled undici', 'node start'],
  ['import node:http (ESM: loads the internal undici too)', 'import node:http', 'node start'],
  ['node:http through process.getBuiltinModule', 'require node:http', 'node start'],
  ['floor: node:http + two GETs', 'floor', 'node start'],
  ['floor: the two GETs alone', 'floor', 'require node:http']
] as const

function difference(samples: Samples, a: string, b: string | undefined): number {
  return b ? perRound(samples, a, b, minus) : median(samples.get(a) ?? [])
}

function printBreakdown(samples: Samples): void {
  const action = median(samples.get('action') ?? [])
  printTable(
    ['part of the action', 'measured as (median of per-round differences)', 'ms', 'share'],
    PARTS.map(([part, how, a, b]) => {
      const value = difference(samples, a, b)
      return [part, how, ms(value), `${((100 * value) / action).toFixed(0)} %`]
    })
  )
  console.log()
  const command = median(samples.get('command') ?? [])
  printTable(
    ['part of the command', 'measured as (median of per-round differences)', 'ms', 'share'],
    COMMAND_PARTS.map(([part, how, a, b]) => {
      const value = difference(samples, a, b)
      return [part, how, ms(value), `${((100 * value) / command).toFixed(0)} %`]
    })
  )
  console.log()
  printTable(
    ['for comparison', 'measured as', 'ms'],
    REFERENCES.map(([what, a, b]) => [what, `${a} − ${b}`, ms(difference(samples, a, b))])
  )
}

async function main(): Promise<void> {
  const rounds = Number(args.rounds)
  const warmup = Number(args.warmup)
  const node = nodeBinary(args.node)
  const script = sonarSourceScript(args['sonarsource-script'])

  const simulator = await Simulator.start({ token: TOKEN })
  const workspace = await createWorkspace('sonar-bench-')
  try {
    const analysis = simulator.addAnalysis(await scenario('done'))
    await simulator.writeReportFile(analysis, workspace.file(REPORT_FILE))
    const ceTaskUrl = `${simulator.url}/api/ce/task?id=${analysis.taskId}`
    const bundles = {
      core: await bundleAlone('@actions/core'),
      undici: await bundleAlone('undici')
    }
    const list = programs(node, workspace, ceTaskUrl, bundles, script, args.before)

    console.log(
      `${new Date().toISOString()} · ${os.cpus().length} CPUs · load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} · ${node} · ${rounds} rounds (+${warmup} warm-up), rotating order\n`
    )
    const samples = await measure(list, workspace, rounds, warmup)
    printWallTimes(samples)
    console.log()
    printRatios(samples)
    console.log()
    printBreakdown(samples)
  } finally {
    await workspace.remove()
    await simulator.stop()
  }
}

await main()
