/**
 * Verdict latency on a real SonarQube server: for each of N analyses of the scanner CLI's sample
 * project, how long after the task's end (as the server records it) each tool gives its verdict,
 * and how many requests it makes: the built action (`dist/index.js`, as a runner runs it) and the
 * built command (`dist/cli.js`), both at their defaults, a fixed 5 s poll (the cadence of
 * SonarSource's quality-gate action, `bench/five-second-poll.sh`), and the scanner's own
 * `sonar.qualitygate.wait=true`, all on the same analysis: the scanner runs with the wait, and
 * the moment its report file appears (written after the upload, before it waits) the three
 * others start at once.
 *
 * The server is started by the real-server harness (`__tests__/real-server/support/`) on
 * 127.0.0.1 from --port-base (its four ports, then a counting proxy per tool from base + 10) and
 * stopped at the end.
 *
 * REAL_SERVER_VERSIONS=10.7.0.96327 npm run bench:real-server -- [--analyses 20] [--port-base 9300]
 *   [--warmup 1] [--node <path>] [--reuse] [--json <file>] [--action-initial-delay <ms>]
 * npm run bench:real-server -- --from-json <file>   (the report again, from a run's --json)
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import {
  CLI_ENTRY,
  createWorkspace,
  nodeBinary,
  REPO,
  resetRunnerFiles,
  runBuiltAction,
  timeChild,
  type Exit,
  type Workspace
} from '../__fixtures__/built-action.js'
import { distributionOf, type Distribution } from '../__tests__/real-server/support/distribution.js'
import { portsFrom } from '../__tests__/real-server/support/ports.js'
import { sampleRepository } from '../__tests__/real-server/support/sample-projects.js'
import { scanWithCli, type Scan } from '../__tests__/real-server/support/scanners.js'
import {
  hasPristineData,
  keepPristineData,
  startServer,
  stopServer,
  type RunningServer
} from '../__tests__/real-server/support/server.js'
import { serverUser } from '../__tests__/real-server/support/service-user.js'
import {
  administrator,
  createProject,
  generateToken,
  type WebApi
} from '../__tests__/real-server/support/web-api.js'
import { countingProxy, type CountingProxy, type Forwarded } from './counting-proxy.js'
import {
  activityEnds,
  figures,
  hasMilliseconds,
  scannerLogMoment,
  serverMoment
} from './real-server-timing.js'
import { ms, printTable } from './stats.js'

const { values: args } = parseArgs({
  options: {
    analyses: { type: 'string', default: '20' },
    // Analyses first, not timed: a fresh server's first task takes many times longer.
    warmup: { type: 'string', default: '1' },
    'port-base': { type: 'string', default: '9300' },
    node: { type: 'string' },
    // A server the harness left running on --port-base (its administrator's password set).
    reuse: { type: 'boolean', default: false },
    // Every analysis, its end and each contender's requests, as JSON, e.g. .tmp/latency.json.
    json: { type: 'string' },
    // No run: the report of a run's --json again.
    'from-json': { type: 'string' },
    // The action's initialDelayMs, instead of its default (the specification's 3000): what the
    // initial wait costs, beside the same peers. The report says which.
    'action-initial-delay': { type: 'string' }
  }
})

const FIVE_SECOND_POLL = path.join(REPO, 'bench/five-second-poll.sh')
const REPORT_FILE = '.scannerwork/report-task.txt'
const GATE_PATH = '/api/qualitygates/project_status'

/** The tools timed beside the scanner's own wait, each through a proxy of its own. */
const TOOLS = ['action', 'command', 'fixed 5 s poll'] as const
type Tool = (typeof TOOLS)[number]
const SCANNER = 'scanner wait'
type Contender = Tool | typeof SCANNER
const CONTENDERS: readonly Contender[] = [...TOOLS, SCANNER]
/** The status of a tool that reached its time-out before the task ended. */
const TIMED_OUT = 'timed out'

/** One contender on one analysis. */
interface Verdict {
  /** OK or ERROR, as the contender said it. */
  status: string
  /** Epoch ms it gave its verdict: its process's exit, or the scanner's log line. */
  at: number
  /** Epoch ms the gate's request was answered (the proxy's view). */
  gateAnsweredAt: number
  /** Requests it made on this analysis (the scanner's: from its report file on). */
  requests: number
  /** Those requests: path, status, arrival and answer (epoch ms), for --json. */
  log: Forwarded[]
}

interface Analysis {
  taskId: string
  executedAt: string
  /** Epoch ms of the report file's appearing. */
  reportAt: number
  /** The scanner's process exit (epoch ms). */
  scannerExitAt: number
  verdicts: Record<Contender, Verdict>
}

function oneVersion(): string {
  const given = (process.env['REAL_SERVER_VERSIONS'] ?? '10.7.0.96327')
    .split(',')
    .map((version) => version.trim())
    .filter(Boolean)
  if (given.length !== 1)
    throw new Error(
      `REAL_SERVER_VERSIONS="${process.env['REAL_SERVER_VERSIONS']}": the bench runs one version a run; give exactly one, e.g. REAL_SERVER_VERSIONS=10.7.0.96327`
    )
  return given[0] as string
}

function positive(name: string, value: string | undefined): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1)
    throw new Error(`--${name} must be a whole number from 1 on, not "${value}"`)
  return number
}

/** The whole environment of a child that is not the action: PATH, HOME and the token only. */
function cleanEnv(token: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: os.homedir(), SONAR_TOKEN: token }
}

async function serverFor(
  version: string,
  portBase: number
): Promise<{ server: RunningServer; distribution: Distribution }> {
  const user = serverUser()
  const distribution = await distributionOf(version, user)
  const ports = portsFrom(portBase)
  if (args.reuse) {
    const url = `http://127.0.0.1:${ports.web}`
    const server = {
      version,
      url,
      ports,
      pid: 0,
      runFolder: '',
      command: [],
      home: distribution.home
    }
    return { server, distribution }
  }
  const timeoutMs = Number(process.env['REAL_SERVER_START_TIMEOUT'] ?? 1200) * 1000
  const firstStart = !hasPristineData(distribution)
  started = await startServer(distribution, user, ports, timeoutMs)
  await administrator(started.url)
  if (firstStart) started = await keepPristineData(started, timeoutMs)
  return { server: started, distribution }
}

/** The server this bench started, to stop at the end or on a signal. */
let started: RunningServer | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the server`)
    void (started ? stopServer(started) : Promise.resolve()).finally(() => process.exit(130))
  })
}

/** Waits for the scanner's report file (written after the upload), until the scanner ends. */
async function reportAppears(
  file: string,
  scan: Promise<unknown>
): Promise<{ text: string; at: number }> {
  let ended = false
  void scan.finally(() => (ended = true))
  while (!ended) {
    if (existsSync(file)) {
      const at = Date.now()
      const text = readFileSync(file, 'utf8')
      if (/^ceTaskUrl=.+$/m.test(text) && /^serverUrl=.+$/m.test(text)) return { text, at }
    }
    await sleep(5)
  }
  throw new Error('the scanner ended without writing its report file')
}

/** The report file as the scanner would have written it had it talked to `url`. */
function reportFor(text: string, from: string, url: string): string {
  return text.split(from).join(url)
}

function gateAnswered(requests: readonly Forwarded[]): number {
  return requests.find((request) => request.path.startsWith(GATE_PATH))?.answeredAt ?? Number.NaN
}

/** OK or ERROR from each contender's own words, or what it said instead. */
function statusOf(tool: Contender, exit: Exit | Scan, outputs?: Record<string, string>): string {
  const text = 'stdout' in exit ? `${exit.stdout}\n${exit.stderr}` : exit.output
  switch (tool) {
    case 'action':
      return outputs?.['status'] ?? `no status (exit ${exit.exitCode}): ${text.slice(-400)}`
    case 'command':
      return (
        /Quality Gate status: (\w+)/.exec(text)?.[1] ??
        `no verdict (exit ${exit.exitCode}): ${text.slice(-400)}`
      )
    case 'fixed 5 s poll':
      return /Quality Gate: (\w+)/.exec(text)?.[1] ?? `no verdict: ${text.slice(-400)}`
    case SCANNER:
      return text.includes('QUALITY GATE STATUS: PASSED')
        ? 'OK'
        : text.includes('QUALITY GATE STATUS: FAILED')
          ? 'ERROR'
          : `no verdict: ${text.slice(-400)}`
  }
}

async function analyse(
  index: number,
  context: {
    root: string
    version: string
    projectKey: string
    token: string
    node: string
    admin: WebApi
    scannerProxy: CountingProxy
    proxies: Record<Tool, CountingProxy>
    workspaces: Record<Tool, Workspace>
  }
): Promise<Analysis> {
  const { root, version, projectKey, token, node, admin, scannerProxy, proxies, workspaces } =
    context
  const reportFile = path.join(root, REPORT_FILE)
  rmSync(reportFile, { force: true })
  for (const proxy of [scannerProxy, ...Object.values(proxies)]) proxy.reset()
  for (const tool of TOOLS) {
    await resetRunnerFiles(workspaces[tool])
    rmSync(workspaces[tool].file(REPORT_FILE), { force: true })
  }
  const scanning = scanWithCli({
    cwd: root,
    serverUrl: scannerProxy.url,
    version,
    token,
    projectKey,
    properties: { 'sonar.qualitygate.wait': 'true', 'sonar.qualitygate.timeout': '300' },
    mustSucceed: false
  }).then((scan) => ({ scan, exitedAt: Date.now() }))
  const report = await reportAppears(reportFile, scanning)
  for (const tool of TOOLS) {
    writeFileSync(
      workspaces[tool].file(REPORT_FILE),
      reportFor(report.text, scannerProxy.url, proxies[tool].url)
    )
  }
  const env = cleanEnv(token)
  const run: Record<Tool, () => Promise<{ exit: Exit; outputs?: Record<string, string> }>> = {
    action: async () => {
      const exit = await runBuiltAction({
        ...workspaces.action,
        node,
        ...(args['action-initial-delay'] === undefined
          ? {}
          : { inputs: { initialDelayMs: args['action-initial-delay'] } }),
        env: { HOME: env.HOME, SONAR_TOKEN: token },
        killAfterMs: 300_000
      })
      return { exit, outputs: exit.outputs }
    },
    command: async () => ({
      exit: await timeChild(node, [CLI_ENTRY], {
        cwd: workspaces.command.cwd,
        env: { ...env, CI: 'true' },
        killAfterMs: 300_000
      })
    }),
    'fixed 5 s poll': async () => ({
      exit: await timeChild('bash', [FIVE_SECOND_POLL, REPORT_FILE], {
        cwd: workspaces['fixed 5 s poll'].cwd,
        env,
        killAfterMs: 300_000
      })
    })
  }
  // Started at once, in an order that rotates with each analysis.
  const order = TOOLS.map((_, i) => TOOLS[(i + index) % TOOLS.length] as Tool)
  const runs = Object.fromEntries(order.map((tool) => [tool, run[tool]()])) as Record<
    Tool,
    ReturnType<(typeof run)[Tool]>
  >
  const [{ scan, exitedAt }, ...exits] = await Promise.all([
    scanning,
    ...TOOLS.map((tool) => runs[tool])
  ])
  const taskId = /^ceTaskId=(.+)$/m.exec(report.text)?.[1] ?? ''
  const { task } = await admin.get<{ task: { status: string; executedAt?: string } }>(
    'api/ce/task',
    { id: taskId }
  )
  if (task.status !== 'SUCCESS' || !task.executedAt)
    throw new Error(`task ${taskId} ended ${task.status} without executedAt`)

  const verdicts = {} as Record<Contender, Verdict>
  TOOLS.forEach((tool, i) => {
    const { exit, outputs } = exits[i] as { exit: Exit; outputs?: Record<string, string> }
    verdicts[tool] = {
      status: statusOf(tool, exit, outputs),
      at: exit.exitedAt,
      gateAnsweredAt: gateAnswered(proxies[tool].requests),
      requests: proxies[tool].requests.length,
      log: [...proxies[tool].requests]
    }
  })
  const afterReport = scannerProxy.requests.filter((request) => request.at >= report.at)
  verdicts[SCANNER] = {
    status: statusOf(SCANNER, scan),
    at: scannerLogMoment(scan.output, 'QUALITY GATE STATUS', exitedAt) ?? Number.NaN,
    gateAnsweredAt: gateAnswered(afterReport),
    requests: afterReport.length,
    log: afterReport
  }
  // A tool that gave up at its defaults' time-out (60 s, initial wait included) on a task the
  // server took longer to process is an outcome, not a broken run: it is counted, not timed.
  for (const tool of TOOLS) {
    if (/Timed out after/.test(verdicts[tool].status)) verdicts[tool].status = TIMED_OUT
  }
  const statuses = new Set(
    CONTENDERS.map((tool) => verdicts[tool].status).filter((status) => status !== TIMED_OUT)
  )
  if (statuses.size !== 1 || ![...statuses].every((status) => ['OK', 'ERROR'].includes(status)))
    throw new Error(
      `analysis ${index + 1}: the verdicts differ: ${CONTENDERS.map((tool) => `${tool}: ${verdicts[tool].status}`).join('; ')}`
    )
  return {
    taskId,
    executedAt: task.executedAt,
    reportAt: report.at,
    scannerExitAt: exitedAt,
    verdicts
  }
}

/** One analysis, not timed, waited for until its task ends (at most 10 minutes). */
async function warmUp(
  root: string,
  projectKey: string,
  token: string,
  admin: WebApi,
  server: { url: string; version: string }
): Promise<void> {
  const scan = await scanWithCli({
    cwd: root,
    serverUrl: server.url,
    version: server.version,
    token,
    projectKey
  })
  const id = scan.report['ceTaskId'] ?? ''
  const deadline = Date.now() + 600_000
  while (Date.now() < deadline) {
    const { task } = await admin.get<{ task: { status: string } }>('api/ce/task', { id })
    if (!['PENDING', 'IN_PROGRESS'].includes(task.status)) return
    await sleep(1_000)
  }
  throw new Error(`the warm-up analysis's task ${id} did not end within 10 minutes`)
}

/**
 * The compute engine's own record of each task's end, in milliseconds: `CE_ACTIVITY.EXECUTED_AT`
 * of the embedded H2 database, read with H2's shell over the database's loopback port (the Web
 * API's `executedAt` gives it to the second). Empty when it cannot be read.
 */
function engineEnds(distribution: Distribution, server: RunningServer): Map<string, number> {
  const folder = path.join(distribution.home, 'lib/jdbc/h2')
  const jar = existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith('.jar')) : ''
  if (!jar) return new Map()
  try {
    const output = execFileSync(
      distribution.java.binary,
      [
        '-cp',
        path.join(folder, jar),
        'org.h2.tools.Shell',
        '-url',
        `jdbc:h2:tcp://127.0.0.1:${server.ports.database}/sonar;NON_KEYWORDS=VALUE`,
        '-user',
        '',
        '-password',
        '',
        '-sql',
        'SELECT UUID, EXECUTED_AT FROM CE_ACTIVITY'
      ],
      { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    return activityEnds(output)
  } catch (error) {
    console.warn(`The compute engine's records could not be read: ${String(error).slice(0, 300)}`)
    return new Map()
  }
}

function report(
  analyses: Analysis[],
  ends: Map<string, number>,
  meta: {
    version: string
    load: number[][]
    startedAt: Date
    endedAt: Date
    actionInitialDelay?: string | undefined
  }
): void {
  const endOf = (analysis: Analysis) =>
    ends.get(analysis.taskId) ?? serverMoment(analysis.executedAt)
  const precise = analyses.filter((analysis) => ends.has(analysis.taskId)).length
  const secondsAgree = analyses.filter((analysis) => {
    const end = ends.get(analysis.taskId)
    return end !== undefined && Math.floor(end / 1000) * 1000 === serverMoment(analysis.executedAt)
  }).length
  console.log(
    `\nSonarQube ${meta.version}, ${analyses.length} analyses, ${meta.startedAt.toISOString()} to ${meta.endedAt.toISOString()}, Node ${process.version} for the bench, load average (1, 5, 15 min) at the start ${meta.load[0]?.map((v) => v.toFixed(2)).join(', ')}, at the end ${meta.load[1]?.map((v) => v.toFixed(2)).join(', ')}`
  )
  console.log(
    `The task's end: the compute engine's CE_ACTIVITY.EXECUTED_AT (ms) for ${precise} of ${analyses.length}, else api/ce/task's executedAt (${analyses.some((analysis) => hasMilliseconds(analysis.executedAt)) ? 'with ms' : 'whole seconds'}, e.g. ${analyses[0]?.executedAt}); the two agree to the second for ${secondsAgree} of ${precise}.`
  )
  console.log(
    'The verdict: the process exit of the action, the command and the fixed poll; the scanner: its "QUALITY GATE STATUS" log line (ms).'
  )
  console.log(
    `The action's initialDelayMs: ${meta.actionInitialDelay ?? "its default (3000, the specification's)"}; the command's: its default.\n`
  )
  printTable(
    ['run', 'report → end ms', ...CONTENDERS.map((tool) => `${tool} ms`)],
    analyses.map((analysis, i) => [
      String(i + 1),
      ms(endOf(analysis) - analysis.reportAt, 0),
      ...CONTENDERS.map((tool) =>
        analysis.verdicts[tool].status === TIMED_OUT
          ? TIMED_OUT
          : ms(analysis.verdicts[tool].at - endOf(analysis), 0)
      )
    ])
  )
  console.log('')
  const given = (tool: Contender) =>
    analyses.filter((analysis) => analysis.verdicts[tool].status !== TIMED_OUT)
  const latencies = (tool: Contender) =>
    given(tool).map((analysis) => analysis.verdicts[tool].at - endOf(analysis))
  const medianOf = (tool: Contender) => figures(latencies(tool)).median
  // The specification's first poll comes 3 s after the step's start: a task that ended before it
  // is seen then. From the later of the end and that first poll, what the tool itself costs.
  const firstPoll = (analysis: Analysis, tool: Contender) =>
    analysis.verdicts[tool].log.find((request) => request.path.startsWith('/api/ce/task'))?.at
  const pastFirstPoll = (tool: Contender) =>
    given(tool).flatMap((analysis) => {
      const first = firstPoll(analysis, tool)
      if (first === undefined) return []
      return [analysis.verdicts[tool].at - Math.max(endOf(analysis), first)]
    })
  printTable(
    [
      'tool',
      'end → verdict median',
      'p90',
      'min',
      'max',
      'end → gate answered median',
      'later of end and first poll → verdict median',
      'requests per run (mean, min–max)',
      'timed out',
      '× fixed 5 s poll',
      '× scanner wait'
    ],
    CONTENDERS.map((tool) => {
      const latency = figures(latencies(tool))
      const gate = figures(
        given(tool).map((analysis) => analysis.verdicts[tool].gateAnsweredAt - endOf(analysis))
      )
      const requests = analyses.map((analysis) => analysis.verdicts[tool].requests)
      return [
        tool,
        ms(latency.median, 0),
        ms(latency.p90, 0),
        ms(latency.min, 0),
        ms(latency.max, 0),
        ms(gate.median, 0),
        tool === 'action' || tool === 'command' ? ms(figures(pastFirstPoll(tool)).median, 0) : '—',
        `${(requests.reduce((a, b) => a + b, 0) / requests.length).toFixed(2)} (${Math.min(...requests)}–${Math.max(...requests)})`,
        String(analyses.length - given(tool).length),
        (latency.median / medianOf('fixed 5 s poll')).toFixed(2),
        (latency.median / medianOf(SCANNER)).toFixed(2)
      ]
    })
  )
  const goal = ['action', 'command'].map((tool) => {
    const own = medianOf(tool as Tool)
    const peers = ['fixed 5 s poll', SCANNER].map((peer) => medianOf(peer as Contender))
    return `${tool}: median ${ms(own, 0)} ms, ${own <= 300 ? 'within' : 'NOT within'} 300 ms of the task's end, ${peers.every((peer) => own < peer) ? 'ahead of' : 'NOT ahead of'} every peer`
  })
  console.log(`\nGoal (median within 300 ms of the end, ahead of every peer): ${goal.join('; ')}`)
  const early = given('action').filter((analysis) => {
    const first = firstPoll(analysis, 'action')
    return first !== undefined && endOf(analysis) < first
  }).length
  console.log(
    `${early} of ${analyses.length} tasks ended before the action's first poll (the initial wait's end).`
  )
}

/** The report of a run's --json file again, with no server. */
function reportFromJson(file: string): void {
  const { version, load, actionInitialDelay, analyses } = JSON.parse(
    readFileSync(file, 'utf8')
  ) as {
    version: string
    load: number[][]
    actionInitialDelay?: string
    analyses: Array<Analysis & { engineEnd: number | null }>
  }
  const ends = new Map(
    analyses.flatMap((analysis) =>
      analysis.engineEnd === null ? [] : [[analysis.taskId, analysis.engineEnd] as const]
    )
  )
  const startedAt = new Date(Math.min(...analyses.map((analysis) => analysis.reportAt)))
  const endedAt = new Date(Math.max(...analyses.map((analysis) => analysis.scannerExitAt)))
  report(analyses, ends, { version, load, startedAt, endedAt, actionInitialDelay })
}

async function main(): Promise<void> {
  if (args['from-json']) return reportFromJson(args['from-json'])
  const version = oneVersion()
  const count = positive('analyses', args.analyses)
  const warmups = Number(args.warmup)
  if (!Number.isInteger(warmups) || warmups < 0)
    throw new Error(`--warmup must be a whole number from 0 on, not "${args.warmup}"`)
  const portBase = positive('port-base', args['port-base'])
  const node = nodeBinary(args.node)
  if (!existsSync(CLI_ENTRY) || !existsSync(path.join(REPO, 'dist/index.js')))
    throw new Error('dist/ is not built: run npm run package first')
  const startedAt = new Date()
  const load = [os.loadavg()]
  console.log(`Starting SonarQube ${version} on 127.0.0.1:${portBase}…`)
  const proxies = {} as Record<Tool, CountingProxy>
  let scannerProxy: CountingProxy | undefined
  const workspaces = {} as Record<Tool, Workspace>
  const repository = sampleRepository('cli-python')
  try {
    const { server, distribution } = await serverFor(version, portBase)
    const admin = await administrator(server.url)
    const projectKey = `bench-latency-${Date.now()}`
    await createProject(admin, projectKey)
    const token = await generateToken(admin, 'bench', 'USER_TOKEN')
    scannerProxy = await countingProxy(server.url, portBase + 10)
    for (const [i, tool] of TOOLS.entries()) {
      proxies[tool] = await countingProxy(server.url, portBase + 11 + i)
      workspaces[tool] = await createWorkspace('real-latency-')
      mkdirSync(path.dirname(workspaces[tool].file(REPORT_FILE)), { recursive: true })
    }
    for (let i = 0; i < warmups; i++) {
      console.log(`warm-up analysis ${i + 1}/${warmups}`)
      await warmUp(repository.root, projectKey, token, admin, server)
    }
    const analyses: Analysis[] = []
    for (let i = 0; i < count; i++) {
      const analysis = await analyse(i, {
        root: repository.root,
        version,
        projectKey,
        token,
        node,
        admin,
        scannerProxy,
        proxies,
        workspaces
      })
      analyses.push(analysis)
      const end = serverMoment(analysis.executedAt)
      console.log(
        `analysis ${i + 1}/${count}: ${analysis.verdicts.action.status}, executedAt ${analysis.executedAt}, ${CONTENDERS.map((tool) => `${tool} +${analysis.verdicts[tool].at - end} ms (gate answered +${analysis.verdicts[tool].gateAnsweredAt - end}, ${analysis.verdicts[tool].requests} requests)`).join(', ')}, from executedAt to the second`
      )
    }
    load.push(os.loadavg())
    const ends = engineEnds(distribution, server)
    report(analyses, ends, {
      version,
      load,
      startedAt,
      endedAt: new Date(),
      actionInitialDelay: args['action-initial-delay']
    })
    if (args.json) {
      const records = analyses.map((analysis) => ({
        ...analysis,
        engineEnd: ends.get(analysis.taskId) ?? null
      }))
      mkdirSync(path.dirname(path.resolve(args.json)), { recursive: true })
      const actionInitialDelay = args['action-initial-delay']
      const json = { version, load, actionInitialDelay, analyses: records }
      writeFileSync(args.json, `${JSON.stringify(json, null, 2)}\n`)
      console.log(`Written: ${args.json}`)
    }
  } finally {
    repository.remove()
    const open = [scannerProxy, ...Object.values(proxies)].filter((proxy) => proxy !== undefined)
    await Promise.all(open.map((proxy) => proxy.close()))
    await Promise.all(Object.values(workspaces).map((workspace) => workspace.remove()))
    if (started) {
      console.log('Stopping the server…')
      await stopServer(started)
    }
  }
}

await main()
