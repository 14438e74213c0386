/**
 * What `--decorate` adds in a GitLab merge-request pipeline: the built command (dist/cli.js)
 * against the simulator and a loopback GitLab (__fixtures__/gitlab/fake-gitlab.ts), on a branch
 * analysis with 10 and with 1,000 new issues, all on lines the merge request adds; each against
 * the same command on the same analysis without `--decorate` (the truest floor for the question:
 * the same check, the same requests to the server, nothing written to GitLab), alternating in the
 * same run. Every round is a first run on the merge request (a fresh GitLab: the note created,
 * the discussions started), the costliest. Prints each arm's median and p90, GitLab's requests,
 * and the difference and ratio to its floor.
 *
 * `npm run bench:gitlab -- --rounds 10 --node <path>`
 */
import { parseArgs } from 'node:util'
import {
  CLI_ENTRY,
  createWorkspace,
  nodeBinary,
  timeChild,
  type Workspace
} from '../__fixtures__/built-action.js'
import {
  addingLines,
  DIFF_REFS,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  startFakeGitLab
} from '../__fixtures__/gitlab/fake-gitlab.js'
import {
  SAMPLE_FILES,
  sampleIssues,
  Simulator,
  writeSampleFiles
} from '../__fixtures__/simulator/sonar-simulator.js'
import { REPORT_FILE, TOKEN } from './baselines.js'
import { median, ms, printTable, quantile } from './stats.js'

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '10' }, node: { type: 'string' } }
})
const rounds = Number(values.rounds)
const node = nodeBinary(values.node)

const SIZES = [10, 1000] as const
type Arm = `${number} issues${'' | ', --decorate'}`

const simulator = await Simulator.start({ token: TOKEN })
const workspaces = new Map<number, Workspace>()
const samples = new Map<Arm, number[]>()
const gitlabRequests = new Map<Arm, number[]>()
try {
  for (const size of SIZES) {
    const workspace = await createWorkspace('sonar-bench-')
    await writeSampleFiles(workspace.cwd)
    const analysis = simulator.addAnalysis({
      finishAfterMs: 0,
      taskStatus: 'SUCCESS',
      projectStatus: { status: 'OK', conditions: [] },
      projectKey: `bench-gitlab-${size}`,
      issues: sampleIssues(size)
    })
    await simulator.writeReportFile(analysis, workspace.file(REPORT_FILE))
    workspaces.set(size, workspace)
  }
  // One warm-up round, then the arms alternate so all see the same machine.
  for (let round = -1; round < rounds; round++) {
    for (const size of SIZES) {
      for (const decorate of [false, true]) {
        const arm: Arm = `${size} issues${decorate ? ', --decorate' : ''}`
        // The sample issues stand on lines 3 to 42 of each sample file: the merge request adds 2 to 45.
        const gitlab = await startFakeGitLab({
          diffs: SAMPLE_FILES.map((file) => ({
            old_path: file,
            new_path: file,
            diff: addingLines(1, 44)
          }))
        })
        try {
          const exit = await timeChild(
            node,
            [CLI_ENTRY, '--initial-delay', '0', ...(decorate ? ['--decorate'] : [])],
            {
              cwd: workspaces.get(size)!.cwd,
              env: {
                HOME: process.env['HOME'],
                SONAR_TOKEN: TOKEN,
                GITLAB_TOKEN: 'glpat-fake-token',
                GITLAB_CI: 'true',
                CI_API_V4_URL: gitlab.url,
                CI_PROJECT_ID: GITLAB_PROJECT,
                CI_COMMIT_SHA: DIFF_REFS.head_sha,
                CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID,
                CI_PIPELINE_ID: '812'
              },
              killAfterMs: 60_000
            }
          )
          if (exit.exitCode !== 0) throw new Error(`${arm}: exit ${exit.exitCode}\n${exit.stderr}`)
          if (decorate && (gitlab.notes.length !== 1 || gitlab.discussions.length !== 10)) {
            throw new Error(
              `${arm}: ${gitlab.notes.length} notes, ${gitlab.discussions.length} discussions\n${exit.stderr}`
            )
          }
          if (round < 0) continue
          samples.set(arm, [...(samples.get(arm) ?? []), exit.ms])
          gitlabRequests.set(arm, [...(gitlabRequests.get(arm) ?? []), gitlab.requests.length])
        } finally {
          await gitlab.stop()
        }
      }
    }
  }
} finally {
  await simulator.stop()
  for (const workspace of workspaces.values()) await workspace.remove()
}

console.log(`\n${rounds} rounds on ${node}\n`)
printTable(
  ['arm', 'median ms', 'p90 ms', 'GitLab requests', 'median − floor ms', 'median / floor'],
  [...samples.keys()].map((arm) => {
    const floor = median(samples.get(arm.replace(', --decorate', '') as Arm)!)
    const own = median(samples.get(arm)!)
    return [
      arm,
      ms(own),
      ms(quantile(samples.get(arm)!, 0.9)),
      String(median(gitlabRequests.get(arm)!)),
      ms(own - floor),
      (own / floor).toFixed(2)
    ]
  })
)
