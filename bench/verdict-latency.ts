/**
 * Verdict latency: how long after the analysis task finishes the action asks for the gate and
 * exits. The simulator finishes each task at a known moment, placed at a different offset within
 * the polling interval every round so the worst case shows; the action runs with its default
 * inputs (initialDelayMs 3000, pollingIntervalMs 1000). SonarSource's script (sleep 5s between
 * polls), when its path is given, runs interleaved with the action's rounds.
 *
 * npm run bench:latency -- [--rounds 10] [--sonarsource-rounds 3] [--finish-base 4000]
 *   [--node <path>] [--sonarsource-script <path>]
 */
import os from 'node:os'
import { parseArgs } from 'node:util'
import { scenario, Simulator, type Analysis } from '../scripts/sonar-simulator.js'
import {
  createWorkspace,
  expectExit,
  nodeBinary,
  readOutputs,
  removeWorkspace,
  resetRunnerFiles,
  runAction,
  runSonarSource,
  sonarSourceScript,
  TOKEN,
  type Exit,
  type Workspace
} from './run-action.js'
import { max, median, ms, printTable } from './stats.js'

const TARGET_MS = 1000 + 100

/** A contender: its polling interval, and the stride that spreads finish offsets over it. */
interface Tool {
  name: string
  intervalMs: number
  strideMs: number
  run: (workspace: Workspace) => Promise<Exit>
  check: (exit: Exit, workspace: Workspace) => Promise<void> | void
}

interface Round {
  tool: string
  finishAfterMs: number
  /** When each task poll reached the simulator, in milliseconds after the spawn. */
  pollsAt: number[]
  /** Milliseconds from the task's end to the project_status request reaching the simulator. */
  toGateRequest: number
  /** Milliseconds from the task's end to the process's exit. */
  toExit: number
  /** Spawn to exit. */
  total: number
  /**
   * The latency had the task finished just after a poll: the longest gap between two task polls
   * plus the time from the last poll to the gate request. NaN with a single poll.
   */
  worstCase: number
}

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    'sonarsource-rounds': { type: 'string', default: '3' },
    // When the task finishes, from just before the spawn: 4000 is after the action's first poll.
    'finish-base': { type: 'string', default: '4000' },
    node: { type: 'string' },
    'sonarsource-script': { type: 'string' }
  }
})

function actionTool(node: string): Tool {
  return {
    name: 'action',
    intervalMs: 1000,
    strideMs: 97,
    // The runner passes every input with action.yml's default: initialDelayMs 3000, pollingIntervalMs 1000.
    run: (workspace) => runAction(node, workspace, {}),
    check: async (exit, workspace) => {
      expectExit('action', exit, 0)
      const status = (await readOutputs(workspace))['status']
      if (status !== 'OK') throw new Error(`action wrote status=${status}, expected OK`)
    }
  }
}

function sonarSourceTool(script: string): Tool {
  return {
    name: 'SonarSource script',
    intervalMs: 5000,
    // 0, 1931, 3862 ms...: three rounds already spread over the 5 s interval.
    strideMs: 1931,
    run: (workspace) => runSonarSource(script, workspace),
    check: (exit) => expectExit('SonarSource script', exit, 0, 'PASSED')
  }
}

/** The k-th finish moment: the base plus an offset that walks across the polling interval. */
function finishAfterMs(tool: Tool, k: number): number {
  return Number(args['finish-base']) + ((k * tool.strideMs) % tool.intervalMs)
}

async function runRound(
  simulator: Simulator,
  workspace: Workspace,
  tool: Tool,
  k: number
): Promise<Round> {
  await resetRunnerFiles(workspace)
  const finishAfter = finishAfterMs(tool, k)
  const analysis = simulator.addAnalysis({
    ...(await scenario('done')),
    finishAfterMs: finishAfter
  })
  await simulator.writeReportFile(analysis, workspace.reportFile)
  const exit = await tool.run(workspace)
  await tool.check(exit, workspace)
  const pollsAt = requestsFor(simulator, analysis, '/api/ce/task').map((r) => r.at)
  const gateAt = gateRequestAt(simulator, analysis)
  return {
    tool: tool.name,
    finishAfterMs: finishAfter,
    pollsAt: pollsAt.map((at) => at - exit.spawnedAt),
    toGateRequest: gateAt - analysis.finishesAt,
    toExit: exit.exitedAt - analysis.finishesAt,
    total: exit.ms,
    worstCase: max(gaps(pollsAt)) + gateAt - (pollsAt.at(-1) ?? Number.NaN)
  }
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, i) => time - (times[i] as number))
}

function requestsFor(simulator: Simulator, analysis: Analysis, pathname: string) {
  return simulator.requests.filter(
    (r) =>
      r.url.startsWith(pathname) &&
      (r.url.includes(analysis.taskId) || r.url.includes(analysis.analysisId))
  )
}

function gateRequestAt(simulator: Simulator, analysis: Analysis): number {
  const gate = requestsFor(simulator, analysis, '/api/qualitygates/project_status').at(-1)
  if (!gate) throw new Error(`No project_status request for ${analysis.analysisId}`)
  return gate.at
}

/** The action's rounds, with the SonarSource rounds spread among them. */
function schedule(action: Tool, rounds: number, other: Tool | undefined, otherRounds: number) {
  const jobs: [Tool, number][] = []
  const every = Math.max(1, Math.ceil(rounds / Math.max(1, otherRounds)))
  let done = 0
  for (let k = 0; k < rounds; k++) {
    jobs.push([action, k])
    if (other && done < otherRounds && k % every === 0) jobs.push([other, done++])
  }
  while (other && done < otherRounds) jobs.push([other, done++])
  return jobs
}

function printRounds(rounds: Round[]): void {
  printTable(
    [
      'tool',
      'finishAfterMs',
      'task polls at (ms after spawn)',
      'finish → gate request ms',
      'finish → exit ms',
      'spawn → exit ms'
    ],
    rounds.map((r) => [
      r.tool,
      String(r.finishAfterMs),
      r.pollsAt.map((at) => ms(at, 0)).join(' '),
      ms(r.toGateRequest, 0),
      ms(r.toExit, 0),
      ms(r.total, 0)
    ])
  )
}

function printSummary(tools: Tool[], rounds: Round[]): void {
  const of = (tool: Tool): Round[] => rounds.filter((r) => r.tool === tool.name)
  const row = (label: string, pick: (rs: Round[]) => string): string[] => [
    label,
    ...tools.map((tool) => pick(of(tool)))
  ]
  // NaN (a round with a single poll has no gap) is left out.
  const stat = (f: (xs: number[]) => number, key: keyof Round) => (rs: Round[]) =>
    ms(f(rs.map((r) => r[key] as number).filter(Number.isFinite)), 0)
  printTable(
    ['verdict latency', ...tools.map((t) => `${t.name} (polls every ${t.intervalMs} ms)`)],
    [
      row('rounds', (rs) => String(rs.length)),
      row('finish offsets ms', (rs) => rs.map((r) => r.finishAfterMs).join(' ')),
      row('finish → gate request, median ms', stat(median, 'toGateRequest')),
      row('finish → gate request, max ms', stat(max, 'toGateRequest')),
      row('finish → exit, median ms', stat(median, 'toExit')),
      row('finish → exit, max ms', stat(max, 'toExit')),
      row('worst case: largest poll gap + gate request, max ms', stat(max, 'worstCase')),
      row('spawn → exit, median ms', stat(median, 'total'))
    ]
  )
  const actionRounds = of(tools[0] as Tool)
  const measured = max(actionRounds.map((r) => r.toGateRequest))
  const worstCase = max(actionRounds.map((r) => r.worstCase).filter(Number.isFinite))
  const verdict = (value: number): string =>
    Number.isNaN(value) ? 'n/a: one poll per round' : value <= TARGET_MS ? 'meets' : 'MISSES'
  console.log(
    `\naction, target ≤ ${TARGET_MS} ms: measured max ${ms(measured, 0)} ms (${verdict(measured)}); worst case from poll gaps ${ms(worstCase, 0)} ms (${verdict(worstCase)})`
  )
}

async function main(): Promise<void> {
  const node = nodeBinary(args.node)
  const script = sonarSourceScript(args['sonarsource-script'])
  const action = actionTool(node)
  const other = script ? sonarSourceTool(script) : undefined
  const jobs = schedule(action, Number(args.rounds), other, Number(args['sonarsource-rounds']))

  const simulator = await Simulator.start({ token: TOKEN })
  const workspace = await createWorkspace()
  try {
    console.log(
      `${new Date().toISOString()} · ${os.cpus().length} CPUs · load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} · ${node} · task finishes ${args['finish-base']} ms + offset after spawn\n`
    )
    const rounds: Round[] = []
    for (const [tool, k] of jobs) rounds.push(await runRound(simulator, workspace, tool, k))
    printRounds(rounds)
    console.log()
    printSummary(other ? [action, other] : [action], rounds)
  } finally {
    await removeWorkspace(workspace)
    await simulator.stop()
  }
}

await main()
