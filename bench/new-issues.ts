/**
 * What reading and showing the new issues costs: the built action against the simulator, on an
 * analysis with 5,000 new issues (10 pages of 500, the most the action reads), against the same
 * analysis with none (the truest floor for this question: the same step, the same requests but
 * the issue pages, the same output files), alternating in the same run. Prints each run's time,
 * the issue requests and the annotations, then the ratio.
 *
 * `npm run bench:issues -- --rounds 10 --node <path>`
 */
import { parseArgs } from 'node:util'
import {
  sampleIssues,
  Simulator,
  type AnalysisScript
} from '../__fixtures__/simulator/sonar-simulator.js'
import {
  createWorkspace,
  expectExit,
  nodeBinary,
  readOutputs,
  resetRunnerFiles,
  runBuiltAction,
  type Workspace
} from '../__fixtures__/built-action.js'
import { REPORT_FILE, STEP_ENV, TOKEN } from './baselines.js'
import { median, ms, printTable, quantile } from './stats.js'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '10' }, node: { type: 'string' } }
})
const rounds = Number(values.rounds)
const node = nodeBinary(values.node)

const gate = { status: 'OK', conditions: [] }
const ARMS = {
  'no issues (floor)': { issues: [] as AnalysisScript['issues'], projectKey: 'bench-none' },
  '5,000 new issues': { issues: sampleIssues(5000), projectKey: 'bench-many' }
}

const simulator = await Simulator.start({ token: TOKEN })
const workspaces = new Map<string, Workspace>()
const samples = new Map<string, number[]>()
const requests = new Map<string, number[]>()
const annotations = new Map<string, number[]>()
try {
  for (const [arm, { issues, projectKey }] of Object.entries(ARMS)) {
    const workspace = await createWorkspace('sonar-bench-')
    const analysis = simulator.addAnalysis({
      finishAfterMs: 0,
      taskStatus: 'SUCCESS',
      projectStatus: gate,
      projectKey,
      issues
    })
    await simulator.writeReportFile(analysis, workspace.file(REPORT_FILE))
    workspaces.set(arm, workspace)
    samples.set(arm, [])
    requests.set(arm, [])
    annotations.set(arm, [])
  }
  // One warm-up round each, then the rounds alternate so both arms see the same machine.
  for (let round = -1; round < rounds; round++) {
    for (const [arm, { projectKey }] of Object.entries(ARMS)) {
      const workspace = workspaces.get(arm)!
      await resetRunnerFiles(workspace)
      const before = simulator.requests.length
      const exit = await runBuiltAction({
        ...workspace,
        node,
        inputs: { initialDelayMs: '0' },
        env: STEP_ENV
      })
      expectExit(arm, exit, 0)
      const outputs = await readOutputs(workspace)
      const expected = arm.startsWith('5,000') ? '5000' : '0'
      if (outputs['newIssues'] !== expected)
        throw new Error(`${arm}: newIssues ${outputs['newIssues']}`)
      if (round < 0) continue
      samples.get(arm)!.push(exit.ms)
      requests
        .get(arm)!
        .push(
          simulator.requests
            .slice(before)
            .filter(({ url }) => url.startsWith('/api/issues/search') && url.includes(projectKey))
            .length
        )
      annotations
        .get(arm)!
        .push((exit.stdout.match(/^::(error|warning|notice)[ :]/gm) ?? []).length)
    }
  }
} finally {
  await simulator.stop()
  for (const workspace of workspaces.values()) await workspace.remove()
}

const floor = median(samples.get('no issues (floor)')!)
console.log(`\n${rounds} rounds on ${node}\n`)
printTable(
  ['arm', 'median ms', 'p90 ms', 'issue requests', 'annotations', 'median / floor'],
  Object.keys(ARMS).map((arm) => [
    arm,
    ms(median(samples.get(arm)!)),
    ms(quantile(samples.get(arm)!, 0.9)),
    String(median(requests.get(arm)!)),
    String(median(annotations.get(arm)!)),
    (median(samples.get(arm)!) / floor).toFixed(2)
  ])
)
