/**
 * Project-mode latency: how long after its analysis becomes available on the server the action
 * gives its verdict when it checks a project's commit by key (projectKey, branch, commit: each
 * poll lists api/project_analyses/search and, while the commit's analysis is not there,
 * api/ce/component), against the report-file mode (a report-task.txt whose task it polls with
 * api/ce/task) in the same run, and how many requests each run makes, per endpoint.
 *
 * For each landing delay (0 s, 2 s, 20 s by default) the rounds run every setting once, in an
 * order that rotates each round: the report-file mode at its defaults (adaptive polls around the
 * end the project's previous analysis predicts) and with pollingIntervalMs=1000 (the fixed
 * cadence), and the project mode at its defaults (a fixed 1000 ms between polls). The report
 * mode's initialDelayMs is 0 in both of its settings: the project mode polls at once, and the
 * 3000 ms default would be most of the latency at 0 s and 2 s.
 *
 * Every run gets a project of its own holding the same history (the project-commit scenario:
 * analyses of the main branch, of feature/login and of a pull request, hours old) and the
 * commit's scan, submitted just before the spawn: queued for the first half of its delay,
 * processing for the second half, then its task SUCCESS and its analysis listed, at the same
 * instant. The delay of round k past 0 s is the nominal one plus k/rounds of the 1000 ms
 * interval, so the landing walks across the polling interval. Time is measured from that instant
 * to the action's exit (its verdict).
 *
 * A fourth setting checks a pull request's analysis by key on a pull_request event (projectKey
 * alone: the pull request and its last update from the event file): each poll reads
 * api/ce/component, and api/project_pull_requests/list while none of the pull request's tasks is
 * pending; its scan (of pull request 42, in the project-pull-request scenario's history) lands
 * the same way, and is compared with the same report-file runs.
 *
 * npm run bench:project -- [--delays 0,2,20] [--runs 7,7,3] [--previous wide|close] [--node <path>]
 */
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import {
  FEATURE_BRANCH,
  PROJECT_COMMITS,
  projectScenario,
  Simulator,
  type Analysis,
  type AnalysisScript,
  type RecordedRequest
} from '../__fixtures__/simulator/sonar-simulator.js'
import {
  createWorkspace,
  expectExit,
  nodeBinary,
  resetRunnerFiles,
  runBuiltAction,
  type ActionRun,
  type Workspace
} from '../__fixtures__/built-action.js'
import { REPORT_FILE, STEP_ENV, TOKEN } from './baselines.js'
import { max, median, ms, printTable, range } from './stats.js'
import {
  PREVIOUS_ANALYSIS_SPREADS,
  previousProcessingMs,
  type PreviousAnalysisSpread
} from './previous-analysis.js'

/** The goal: the project mode's median within this of the report mode's, per delay. */
const GOAL = { medianDifferenceMs: 300, requestsPerPoll: 2, pollRequestsOnceFound: 0 } as const

/** The polling interval both modes default to, over which the landing walks. */
const INTERVAL_MS = 1000

/** Where the poll requests of each mode go: each poll starts with the first path. */
const POLL_PATHS = {
  report: ['/api/ce/task'],
  project: ['/api/project_analyses/search', '/api/ce/component'],
  pullRequest: ['/api/ce/component', '/api/project_pull_requests/list']
} as const

type Mode = keyof typeof POLL_PATHS

interface Setting {
  name: string
  mode: Mode
  /** Inputs besides the server's address and what to check. */
  inputs: Record<string, string>
}

const SETTINGS: Setting[] = [
  { name: 'report file, defaults', mode: 'report', inputs: { initialDelayMs: '0' } },
  {
    name: 'report file, pollingIntervalMs=1000',
    mode: 'report',
    inputs: { initialDelayMs: '0', pollingIntervalMs: String(INTERVAL_MS) }
  },
  { name: 'project, defaults', mode: 'project', inputs: {} },
  { name: 'project, pull request', mode: 'pullRequest', inputs: {} }
]

const [REPORT_DEFAULTS, REPORT_FIXED, PROJECT_DEFAULTS, PULL_REQUEST_DEFAULTS] = SETTINGS as [
  Setting,
  Setting,
  Setting,
  Setting
]

/** The settings that check by key, each held to the goal against the report-file mode. */
const BY_KEY = [PROJECT_DEFAULTS, PULL_REQUEST_DEFAULTS]

interface Run {
  setting: Setting
  delayS: number
  round: number
  /** When the analysis became available, in milliseconds after its scan was submitted. */
  landingMs: number
  /** Available → the action's exit: the verdict's latency. */
  toVerdict: number
  /** Available → the poll that found it. */
  toFindingPoll: number
  /** The poll that found it → exit: the gate, the issues, the outputs, the process's end. */
  findingPollToExit: number
  spawnToExit: number
  /** Every request of the run, by endpoint. */
  byEndpoint: Map<string, number>
  requests: number
  polls: number
  /** The most requests one poll made. */
  perPollMax: number
  /** Requests made once the analysis was available (the poll that found it included). */
  afterAvailable: number
  /** Poll requests after the poll that found the analysis: none, once found. */
  pollRequestsOnceFound: number
  /** Milliseconds between the starts of consecutive polls. */
  pollGaps: number[]
  /** When each poll started, in milliseconds relative to the analysis's landing. */
  pollsAt: number[]
}

const { values: args } = parseArgs({
  options: {
    delays: { type: 'string', default: '0,2,20' },
    runs: { type: 'string', default: '7,7,3' },
    previous: { type: 'string', default: 'wide' },
    node: { type: 'string' }
  }
})

const numbers = (text: string): number[] => text.split(',').map((part) => Number(part.trim()))

/**
 * The project-commit scenario under `projectKey`: its history added as it was scanned (so its
 * tasks ended long ago, and api/ce/component names the previous analysis as the last one
 * processed), then the commit's scan, submitted now, landing after `landingMs`.
 */
async function addProject(
  simulator: Simulator,
  projectKey: string,
  landingMs: number,
  previousMs: number,
  mode: Mode
): Promise<{ coming: Analysis; ask: { branch: string; commit: string } }> {
  const played = await projectScenario(
    mode === 'pullRequest' ? 'project-pull-request' : 'project-commit',
    projectKey
  )
  const expected = played.analyses[played.expected as number] as AnalysisScript
  // The pull request's scan passes its gate here, as the branch's does.
  const comingScript =
    mode === 'pullRequest'
      ? { ...expected, projectStatus: (played.analyses[0] as AnalysisScript).projectStatus }
      : expected
  const now = Date.now()
  for (const script of played.analyses.filter((one) => one !== expected)) {
    simulator.addAnalysis({ ...script, scannedAgoMs: 0 }, now - (script.scannedAgoMs ?? 0))
  }
  const coming = simulator.addAnalysis(
    { ...comingScript, finishAfterMs: landingMs, previousProcessingMs: previousMs },
    now
  )
  return {
    coming,
    ask: { branch: played.ask.branch ?? '', commit: played.ask.commit ?? '' }
  }
}

async function runOnce(
  simulator: Simulator,
  workspaces: Record<Mode, Workspace>,
  node: string,
  setting: Setting,
  delayS: number,
  round: number,
  rounds: number
): Promise<Run> {
  const workspace = workspaces[setting.mode]
  await resetRunnerFiles(workspace)
  const landingMs = delayS === 0 ? 0 : delayS * 1000 + Math.round((round * INTERVAL_MS) / rounds)
  const spread = args.previous as PreviousAnalysisSpread
  const projectKey = `bench-${SETTINGS.indexOf(setting)}-${delayS}s-${round}`
  // The scan processes for the second half of its delay; the previous one took about as long.
  const previousMs = previousProcessingMs(Math.max(1, landingMs / 2), round, spread)
  const { coming, ask } = await addProject(
    simulator,
    projectKey,
    landingMs,
    previousMs,
    setting.mode
  )
  if (setting.mode === 'report')
    await simulator.writeReportFile(coming, workspace.file(REPORT_FILE))
  const before = simulator.requests.length
  const run = await runBuiltAction({
    ...workspace,
    node,
    inputs: {
      ...setting.inputs,
      ...(setting.mode === 'project'
        ? { sonarHostUrl: simulator.url, projectKey, branch: ask.branch, commit: ask.commit }
        : setting.mode === 'pullRequest'
          ? { sonarHostUrl: simulator.url, projectKey }
          : {})
    },
    env: {
      ...STEP_ENV,
      ...(setting.mode === 'pullRequest' ? await pullRequestEvent(workspace) : pushEvent(workspace))
    },
    killAfterMs: delayS * 1000 + 30_000
  })
  checkRun(setting, run, coming)
  return measure(setting, delayS, round, landingMs, run, coming, simulator.requests.slice(before))
}

/** The runner's variables of a push of the commit to feature/login, in both modes alike. */
function pushEvent(workspace: Workspace): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: path.join(workspace.root, 'event.json'),
    GITHUB_REF: `refs/heads/${FEATURE_BRANCH}`,
    GITHUB_SHA: PROJECT_COMMITS.login2,
    GITHUB_REPOSITORY: 'acme/shop'
  }
}

/**
 * The runner's variables of a pull_request event of pull request 42, last updated a minute ago
 * (before its scan was submitted), its merge commit checked out.
 */
async function pullRequestEvent(workspace: Workspace): Promise<Record<string, string>> {
  const file = path.join(workspace.root, 'event.json')
  const updatedAt = new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  await writeFile(
    file,
    JSON.stringify({
      pull_request: {
        number: 42,
        head: { sha: PROJECT_COMMITS.pullRequestHead },
        updated_at: updatedAt
      }
    })
  )
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: file,
    GITHUB_REF: 'refs/pull/42/merge',
    GITHUB_SHA: PROJECT_COMMITS.pullRequestMerge,
    GITHUB_REPOSITORY: 'acme/shop'
  }
}

/** A run counts only when it gave the verdict of the commit's analysis. */
function checkRun(setting: Setting, run: ActionRun, coming: Analysis): void {
  expectExit(setting.name, run, 0, 'Quality Gate status: OK')
  if (run.outputs['status'] !== 'OK' || run.outputs['analysisId'] !== coming.analysisId) {
    throw new Error(
      `${setting.name}: status=${run.outputs['status']} analysisId=${run.outputs['analysisId']}, expected OK and ${coming.analysisId}\n${run.stdout}`
    )
  }
}

function endpoint(request: RecordedRequest): string {
  return request.url.split('?')[0] ?? request.url
}

function measure(
  setting: Setting,
  delayS: number,
  round: number,
  landingMs: number,
  run: ActionRun,
  coming: Analysis,
  requests: RecordedRequest[]
): Run {
  const available = coming.finishesAt
  const [opening, ...within] = POLL_PATHS[setting.mode] as readonly string[]
  // Each poll starts with its opening request; the other poll requests after it join it. The
  // wait ends with the gate's read: what follows it (the new issues, what changed, which reads
  // the pull requests' list for the target branch) reads the analysis found, and is no poll.
  const gate = requests.findIndex(
    (request) => endpoint(request) === '/api/qualitygates/project_status'
  )
  const polls: RecordedRequest[][] = []
  for (const request of gate < 0 ? requests : requests.slice(0, gate)) {
    if (endpoint(request) === opening) polls.push([request])
    else if (within.includes(endpoint(request)) && polls.length > 0) {
      // The report mode's one read of the previous analysis (api/ce/component) is no poll.
      if (setting.mode !== 'report') polls.at(-1)?.push(request)
    }
  }
  const finding = polls.findIndex((poll) => (poll[0] as RecordedRequest).at >= available)
  if (finding < 0) throw new Error(`${setting.name}: no poll after the analysis landed`)
  const findingAt = (polls[finding]?.[0] as RecordedRequest).at
  const byEndpoint = new Map<string, number>()
  for (const request of requests) {
    byEndpoint.set(endpoint(request), (byEndpoint.get(endpoint(request)) ?? 0) + 1)
  }
  const starts = polls.map((poll) => (poll[0] as RecordedRequest).at)
  return {
    setting,
    delayS,
    round,
    landingMs,
    toVerdict: run.exitedAt - available,
    toFindingPoll: findingAt - available,
    findingPollToExit: run.exitedAt - findingAt,
    spawnToExit: run.ms,
    byEndpoint,
    requests: requests.length,
    polls: polls.length,
    perPollMax: max(polls.map((poll) => poll.length)),
    afterAvailable: requests.filter((request) => request.at >= available).length,
    pollRequestsOnceFound: polls.slice(finding + 1).flat().length,
    pollGaps: starts.slice(1).map((at, i) => at - (starts[i] as number)),
    pollsAt: starts.map((at) => at - available)
  }
}

/** The short name of an endpoint: `ce/task`. */
const short = (pathname: string): string => pathname.replace(/^\/api\//, '')

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

/** `median (min–max)` of a figure, in whole milliseconds. */
function spread(values: readonly number[]): string {
  return `${ms(median(values), 0)} (${range(values)})`
}

function printRuns(runs: Run[]): void {
  printTable(
    [
      'delay',
      'round',
      'setting',
      'lands after ms',
      'polls at (ms from landing)',
      'available → verdict ms',
      'requests',
      'after available'
    ],
    runs.map((r) => [
      `${r.delayS} s`,
      String(r.round),
      r.setting.name,
      String(r.landingMs),
      r.pollsAt.map((at) => ms(at, 0)).join(' '),
      ms(r.toVerdict, 0),
      String(r.requests),
      String(r.afterAvailable)
    ])
  )
}

/** One delay's figures, per setting, and each by-key setting's difference with the report mode. */
interface DelaySummary {
  delayS: number
  medians: Map<Setting, number>
  /** By key − report, median of the per-round differences, per by-key setting and report setting. */
  roundDifference: Map<Setting, Map<Setting, number>>
  perPollMax: Map<Setting, number>
  pollRequestsOnceFound: Map<Setting, number>
}

function summarise(delayS: number, runs: Run[]): DelaySummary {
  const of = (setting: Setting): Run[] => runs.filter((r) => r.setting === setting)
  const endpoints = [...new Set(runs.flatMap((r) => [...r.byEndpoint.keys()]))].sort()
  const row = (label: string, pick: (rs: Run[]) => string): string[] => [
    label,
    ...SETTINGS.map((setting) => pick(of(setting)))
  ]
  console.log(`\n### Landing after ${delayS} s\n`)
  printTable(
    ['figure', ...SETTINGS.map((setting) => setting.name)],
    [
      row('runs', (rs) => String(rs.length)),
      row('lands after ms', (rs) => rs.map((r) => r.landingMs).join(' ')),
      row('available → verdict, median (min–max) ms', (rs) => spread(rs.map((r) => r.toVerdict))),
      row('available → finding poll, median (min–max) ms', (rs) =>
        spread(rs.map((r) => r.toFindingPoll))
      ),
      row('finding poll → exit, median ms', (rs) =>
        ms(median(rs.map((r) => r.findingPollToExit)), 0)
      ),
      row('spawn → exit, median ms', (rs) => ms(median(rs.map((r) => r.spawnToExit)), 0)),
      row('gap between polls, median (min–max) ms', (rs) => spread(rs.flatMap((r) => r.pollGaps))),
      row('polls per run, mean', (rs) => mean(rs.map((r) => r.polls)).toFixed(2)),
      row(
        'requests per run, mean (max)',
        (rs) => `${mean(rs.map((r) => r.requests)).toFixed(2)} (${max(rs.map((r) => r.requests))})`
      ),
      ...endpoints.map((name) =>
        row(`  ${short(name)}, mean`, (rs) =>
          mean(rs.map((r) => r.byEndpoint.get(name) ?? 0)).toFixed(2)
        )
      ),
      row('requests per poll, max', (rs) => String(max(rs.map((r) => r.perPollMax)))),
      row(
        'requests once available, mean (max)',
        (rs) =>
          `${mean(rs.map((r) => r.afterAvailable)).toFixed(2)} (${max(rs.map((r) => r.afterAvailable))})`
      ),
      row('poll requests after the finding poll, max', (rs) =>
        String(max(rs.map((r) => r.pollRequestsOnceFound)))
      )
    ]
  )
  const medians = new Map(SETTINGS.map((s) => [s, median(of(s).map((r) => r.toVerdict))]))
  const roundDifference = new Map(
    BY_KEY.map((byKey) => [
      byKey,
      new Map(
        [REPORT_DEFAULTS, REPORT_FIXED].map((report) => {
          const byRound = new Map(of(report).map((r) => [r.round, r.toVerdict]))
          const differences = of(byKey).flatMap((r) =>
            byRound.has(r.round) ? [r.toVerdict - (byRound.get(r.round) as number)] : []
          )
          return [report, median(differences)]
        })
      )
    ])
  )
  console.log()
  for (const byKey of BY_KEY) {
    for (const report of [REPORT_DEFAULTS, REPORT_FIXED]) {
      const difference = (medians.get(byKey) as number) - (medians.get(report) as number)
      console.log(
        `${byKey.name} − ${report.name}: difference of the medians ${signed(difference)} ms, median of the per-round differences ${signed(roundDifference.get(byKey)?.get(report) as number)} ms`
      )
    }
  }
  return {
    delayS,
    medians,
    roundDifference,
    perPollMax: new Map(BY_KEY.map((s) => [s, max(of(s).map((r) => r.perPollMax))])),
    pollRequestsOnceFound: new Map(
      BY_KEY.map((s) => [s, max(of(s).map((r) => r.pollRequestsOnceFound))])
    )
  }
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${ms(value, 0)}`
}

function printGoal(summaries: DelaySummary[]): void {
  const meets = (ok: boolean): string => (ok ? 'meets' : 'MISSES')
  console.log('\n### Goal\n')
  printTable(
    [
      'delay',
      'by key',
      'median ms',
      'report defaults, median ms',
      '− report defaults, ms (per round)',
      '− report fixed 1 s, ms (per round)',
      'requests per poll, max',
      'poll requests once found',
      `goal (≤ ${GOAL.medianDifferenceMs} ms, ≤ ${GOAL.requestsPerPoll} a poll, none once found)`
    ],
    summaries.flatMap((s) =>
      BY_KEY.map((byKey) => {
        const byKeyMedian = s.medians.get(byKey) as number
        const difference = byKeyMedian - (s.medians.get(REPORT_DEFAULTS) as number)
        const perPoll = s.perPollMax.get(byKey) as number
        const onceFound = s.pollRequestsOnceFound.get(byKey) as number
        const ok =
          difference <= GOAL.medianDifferenceMs &&
          perPoll <= GOAL.requestsPerPoll &&
          onceFound <= GOAL.pollRequestsOnceFound
        const rounds = s.roundDifference.get(byKey) as Map<Setting, number>
        return [
          `${s.delayS} s`,
          byKey.name,
          ms(byKeyMedian, 0),
          ms(s.medians.get(REPORT_DEFAULTS), 0),
          `${signed(difference)} (${signed(rounds.get(REPORT_DEFAULTS) as number)})`,
          `${signed(byKeyMedian - (s.medians.get(REPORT_FIXED) as number))} (${signed(rounds.get(REPORT_FIXED) as number)})`,
          String(perPoll),
          String(onceFound),
          meets(ok)
        ]
      })
    )
  )
}

async function main(): Promise<void> {
  const node = nodeBinary(args.node)
  const delays = numbers(args.delays)
  const runsPerDelay = numbers(args.runs)
  if (
    runsPerDelay.length !== delays.length ||
    [...delays, ...runsPerDelay].some((n) => !(n >= 0))
  ) {
    throw new Error(
      '--delays and --runs need as many numbers each, e.g. --delays 0,2,20 --runs 7,7,3'
    )
  }
  if (!(args.previous in PREVIOUS_ANALYSIS_SPREADS)) {
    throw new Error(`--previous is wide or close, not "${args.previous}"`)
  }
  const simulator = await Simulator.start({ token: TOKEN })
  const workspaces = {
    report: await createWorkspace('sonar-bench-report-'),
    project: await createWorkspace('sonar-bench-project-'),
    pullRequest: await createWorkspace('sonar-bench-pull-request-')
  }
  for (const workspace of Object.values(workspaces)) {
    await writeFile(path.join(workspace.root, 'event.json'), '{}')
  }
  try {
    console.log(
      `${new Date().toISOString()} · ${os.cpus().length} CPUs · load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' '
        )} · Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} · previous analysis ${PREVIOUS_ANALYSIS_SPREADS[args.previous as PreviousAnalysisSpread].name}\n`
    )
    const runs: Run[] = []
    for (const [d, delayS] of delays.entries()) {
      const rounds = runsPerDelay[d] as number
      for (let round = 0; round < rounds; round++) {
        // Round r starts with setting r: every setting comes first as often as the others.
        const order = SETTINGS.map((_, i) => SETTINGS[(round + i) % SETTINGS.length] as Setting)
        for (const setting of order) {
          runs.push(await runOnce(simulator, workspaces, node, setting, delayS, round, rounds))
        }
      }
    }
    printRuns(runs)
    const summaries = delays
      .filter((_, d) => (runsPerDelay[d] as number) > 0)
      .map((delayS) =>
        summarise(
          delayS,
          runs.filter((r) => r.delayS === delayS)
        )
      )
    printGoal(summaries)
    console.log(
      `\nload at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`
    )
  } finally {
    for (const workspace of Object.values(workspaces)) await workspace.remove()
    await simulator.stop()
  }
}

await main()
