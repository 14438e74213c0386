/**
 * A code-quality server simulator on loopback: answers `api/ce/task`,
 * `api/qualitygates/project_status`, `api/project_analyses/search`, `api/ce/component`,
 * `api/project_branches/list`, `api/project_pull_requests/list`, `api/issues/search`,
 * `api/measures/component`, `api/hotspots/search` and `api/metrics/search` like SonarQube does,
 * with scripted scenarios. It serves the end-to-end tests, the demo, the benchmarks and the CI job
 * that runs the action itself.
 *
 * As a program: `npm run simulator -- --port 9000 --scenario pending-success --report .scannerwork/report-task.txt`
 * starts it, writes a report file for one analysis and serves until stopped; `--help` lists the
 * options (USAGE below).
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import {
  GENERATIONS,
  ISSUE_SEARCH,
  issueShape,
  PROJECT_ANALYSES,
  without,
  type Generation,
  type SimulatedIssue
} from './sonar-generations.js'
import {
  hotspotsReply,
  measuresReply,
  sampleHotspots,
  type SimulatedHotspot,
  type SimulatedMeasures
} from './sonar-measures.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../sonarqube')

/** How one analysis behaves on the simulated server. */
export interface AnalysisScript {
  /** Milliseconds after creation at which the task ends (PENDING, then IN_PROGRESS, before). */
  finishAfterMs: number
  /** How the task ends. */
  taskStatus: 'SUCCESS' | 'FAILED' | 'CANCELED'
  errorMessage?: string
  /** Warnings of the finished task. */
  warnings?: string[]
  /** The `projectStatus` object the gate endpoint answers. */
  projectStatus: Record<string, unknown>
  /** The first N requests for this analysis get 503 (then it behaves). */
  failFirstRequests?: number
  /** Every reply for this analysis is delayed this long. */
  replyDelayMs?: number
  projectKey?: string
  /** The server generation that answers for it: auth, reply shapes, report file. Default 10.x. */
  generation?: Generation
  /** The analysis is of this branch (written to the report file and the task). */
  branch?: string
  /** The analysis is of this pull request (in the task). */
  pullRequest?: string
  errorType?: string
  /**
   * How long the project's previous analysis took to process, as api/ce/component says; default:
   * as long as this one (the second half of finishAfterMs, while the task is IN_PROGRESS).
   */
  previousProcessingMs?: number
  /** The project's open issues, as api/issues/search serves them (in its generation's shape). */
  issues?: SimulatedIssue[]
  /**
   * api/issues/search answers with this status instead, as a gateway in front of the server may.
   * SonarQube itself answers a token without Browse with no issues, never 403 (recorded on 9.9,
   * 10.7 and 26.9): that is `forbiddenToken`'s behaviour.
   */
  issuesStatus?: number
  /** Its figures (coverage, duplication, issue counts), over the simulator's defaults. */
  measures?: SimulatedMeasures
  /** Its security hotspots to review (none by default). */
  hotspots?: SimulatedHotspot[]
  /**
   * The commit the scanner recorded (`analyses[].revision` of api/project_analyses/search), a
   * full SHA; none: a scan without SCM data (no .git folder, or sonar.scm.disabled).
   */
  revision?: string
  /**
   * The project's first analysis: no earlier task to name while it runs (api/ce/component has no
   * `current`), and no new code period once it landed (no `period` in its gate, none on its
   * gate's conditions), as real servers answer (recorded from 26.9).
   */
  firstOfProject?: boolean
  /**
   * How long before it was added the scan ran: its analysis's date in the project's history (an
   * analysis of yesterday: a day). Default 0, the moment it is added.
   */
  scannedAgoMs?: number
}

export interface Analysis {
  taskId: string
  analysisId: string
  /** Epoch milliseconds at which it was added (its task submitted). */
  addedAt: number
  /** Epoch milliseconds at which the task ends. */
  finishesAt: number
  /** The n-th analysis added: the newer of two scanned in the same millisecond. */
  order: number
  script: AnalysisScript
}

/**
 * What a user without Browse on a project may not read of it (SonarQube 10.7, recorded): a token
 * that may run analyses still reads its tasks by id, its gate and its branches, and
 * api/issues/search answers it with no issues rather than a refusal.
 */
const NEEDS_BROWSE = new Set([
  '/api/ce/component',
  '/api/project_analyses/search',
  '/api/measures/component',
  '/api/hotspots/search'
])

/** The name of every project's main branch on the simulated server. */
export const MAIN_BRANCH = 'main'

export interface RecordedRequest {
  method: string
  url: string
  authorization: string | undefined
  userAgent: string | undefined
  at: number
}

const passingGate = {
  status: 'OK',
  conditions: [
    {
      status: 'OK',
      metricKey: 'new_coverage',
      comparator: 'LT',
      errorThreshold: '80',
      actualValue: '91.3'
    },
    {
      status: 'OK',
      metricKey: 'new_duplicated_lines_density',
      comparator: 'GT',
      errorThreshold: '3',
      actualValue: '0.4'
    },
    {
      status: 'OK',
      metricKey: 'new_reliability_rating',
      comparator: 'GT',
      errorThreshold: '1',
      actualValue: '1'
    },
    {
      status: 'OK',
      metricKey: 'new_security_hotspots_reviewed',
      comparator: 'LT',
      errorThreshold: '100',
      actualValue: '100'
    }
  ],
  ignoredConditions: false
}

/** A gate of the Multi-Quality Rule mode (10.8 and 2025.x): software quality metrics. */
const modeOfQualitiesGate = {
  status: 'OK',
  caycStatus: 'compliant',
  ignoredConditions: false,
  conditions: [
    {
      status: 'OK',
      metricKey: 'new_software_quality_reliability_rating',
      comparator: 'GT',
      errorThreshold: '1',
      actualValue: '1'
    },
    {
      status: 'OK',
      metricKey: 'new_software_quality_maintainability_issues',
      comparator: 'GT',
      errorThreshold: '0',
      actualValue: '0'
    },
    {
      status: 'OK',
      metricKey: 'new_coverage',
      comparator: 'LT',
      errorThreshold: '80',
      actualValue: '87.2'
    }
  ]
}

/**
 * What api/metrics/search says of the metrics the scenarios use that the action has no words for,
 * each with every field the server writes (recorded from 10.7): its id, description, direction
 * (-1: lower is better), whether it is qualitative or hidden, and a decimal scale for figures with
 * decimals.
 */
const METRIC_DEFINITIONS = [
  {
    id: '0f1c5a8e-6d52-4b55-9d1f-2f6e7d1c0a11',
    key: 'new_software_quality_maintainability_issues',
    type: 'INT',
    name: 'New Maintainability Issues',
    description: 'New maintainability issues',
    domain: 'Maintainability',
    direction: -1,
    qualitative: true,
    hidden: false
  },
  {
    id: '0f1c5a8e-6d52-4b55-9d1f-2f6e7d1c0a12',
    key: 'software_quality_maintainability_issues',
    type: 'INT',
    name: 'Maintainability Issues',
    description: 'Maintainability issues',
    domain: 'Maintainability',
    direction: -1,
    qualitative: false,
    hidden: false
  },
  {
    id: '0f1c5a8e-6d52-4b55-9d1f-2f6e7d1c0a13',
    key: 'coverage',
    type: 'PERCENT',
    name: 'Coverage',
    description: 'Coverage by tests',
    domain: 'Coverage',
    direction: 1,
    qualitative: true,
    hidden: false,
    decimalScale: 1
  }
]

/** The files the sample issues are in, relative to the analysis's base directory. */
export const SAMPLE_FILES = ['src/app.ts', 'src/db/query.ts', 'src/routes/orders.ts'] as const

/**
 * The sample files under `base`, as a checkout of the analysed project has them, so the sample
 * issues' annotations, check run and SARIF point at real files.
 */
export async function writeSampleFiles(base: string): Promise<void> {
  for (const file of SAMPLE_FILES) {
    await mkdir(path.dirname(path.join(base, file)), { recursive: true })
    await writeFile(path.join(base, file), '// source\n'.repeat(60))
  }
}

const SAMPLE_RULES = [
  {
    rule: 'typescript:S2068',
    ruleName: 'Credentials should not be hard-coded',
    type: 'VULNERABILITY'
  },
  { rule: 'typescript:S2259', ruleName: 'Null pointers should not be dereferenced', type: 'BUG' },
  {
    rule: 'typescript:S1854',
    ruleName: 'Unused assignments should be removed',
    type: 'CODE_SMELL'
  },
  {
    rule: 'typescript:S3776',
    ruleName: 'Cognitive Complexity of functions should not be too high',
    type: 'CODE_SMELL'
  }
] as const

/**
 * `count` open new issues of the given severities in turn, spread over SAMPLE_FILES, with
 * deterministic keys (`AYIssue00001`...), lines and ranges: the scenarios' and benches' issues.
 */
export function sampleIssues(
  count: number,
  severities: readonly string[] = ['BLOCKER', 'CRITICAL', 'MAJOR', 'MINOR', 'INFO'],
  from = 1
): SimulatedIssue[] {
  return Array.from({ length: count }, (_, index) => {
    const n = from + index
    const { rule, ruleName, type } = SAMPLE_RULES[n % SAMPLE_RULES.length]!
    const line = 3 + (n % 40)
    return {
      key: `AYIssue${String(n).padStart(5, '0')}`,
      rule,
      ruleName,
      message: `${ruleName.replace(/ should.*/, '')}: issue ${n}.`,
      path: SAMPLE_FILES[n % SAMPLE_FILES.length]!,
      line,
      textRange: { startLine: line, endLine: line, startOffset: 2, endOffset: 14 },
      severity: severities[index % severities.length]!,
      type
    }
  })
}

/**
 * The scenarios of a project's analyses, checked by project (projectKey, --project) rather than
 * by a report file: `projectScenario` gives them.
 */
export const PROJECT_SCENARIOS = [
  'project-commit',
  'project-newest',
  'project-branch-queued',
  'project-race',
  'project-task-failed',
  'project-task-failed-hidden',
  'project-main-task-failed',
  'project-no-revision',
  'project-unknown',
  'project-unknown-branch',
  'project-pull-request'
] as const

export const SCENARIOS = [
  'pending-success',
  'done',
  'gate-error',
  'gate-warn',
  'no-gate',
  'task-failed',
  'flaky',
  'slow',
  'sonarqube-8.9',
  'sonarqube-9.9',
  'sonarqube-10',
  'sonarqube-2025',
  'sonarcloud',
  'many-issues',
  'issues-forbidden',
  ...PROJECT_SCENARIOS
] as const

/** A full commit SHA made from a label, the same on every run: `commitSha('login-2')`. */
export function commitSha(label: string): string {
  return createHash('sha1').update(label).digest('hex')
}

/** The commits of the project scenarios' histories, by label. */
export const PROJECT_COMMITS = {
  main1: commitSha('main-1'),
  main2: commitSha('main-2'),
  main3: commitSha('main-3'),
  login1: commitSha('login-1'),
  login2: commitSha('login-2'),
  login3: commitSha('login-3'),
  pullRequestHead: commitSha('pull-request-42-head'),
  pullRequestMerge: commitSha('pull-request-42-merge')
} as const

/** The branch the project scenarios' analyses of a feature are of. */
export const FEATURE_BRANCH = 'feature/login'

/** A project scenario: what to check, and what the server holds and is about to get. */
export interface ProjectScenario {
  /**
   * What to ask for: the project, its branch or pull request (neither: the main branch), and the
   * commit whose analysis to wait for (none: the newest).
   */
  ask: { projectKey: string; branch?: string; pullRequest?: string; commit?: string }
  /** The project's analyses, oldest first: those done, then those still coming. */
  analyses: AnalysisScript[]
  /** The index in `analyses` of the analysis the check should read, when there is one. */
  expected?: number
}

const HOUR = 3_600_000

/**
 * The named project scenarios (PROJECT_SCENARIOS) of `projectKey`. Each starts from the same
 * history: two analyses of the main branch (two days and a day old), one of FEATURE_BRANCH (an
 * hour old) and one of pull request 42 (50 minutes old, of its merge commit), each with the
 * commit it recorded; then what is coming. Add them at once with `Simulator.addAnalyses`, so
 * analyses meant to land together do.
 */
export async function projectScenario(
  name: string,
  projectKey = 'demo-project'
): Promise<ProjectScenario> {
  const failingGate = JSON.parse(
    await readFile(path.join(FIXTURES, 'project_status-example.json'), 'utf8')
  ) as { projectStatus: Record<string, unknown> }
  const done = (script: Partial<AnalysisScript>): AnalysisScript => ({
    finishAfterMs: 0,
    taskStatus: 'SUCCESS',
    projectStatus: passingGate,
    projectKey,
    ...script
  })
  const history = (revisions: boolean): AnalysisScript[] =>
    [
      done({ revision: PROJECT_COMMITS.main1, scannedAgoMs: 48 * HOUR }),
      done({ revision: PROJECT_COMMITS.main2, scannedAgoMs: 24 * HOUR }),
      done({ branch: FEATURE_BRANCH, revision: PROJECT_COMMITS.login1, scannedAgoMs: HOUR }),
      done({
        pullRequest: '42',
        revision: PROJECT_COMMITS.pullRequestMerge,
        scannedAgoMs: HOUR - 600_000
      })
    ].map((script) => (revisions ? script : { ...script, revision: undefined }))
  const onTheBranch = { projectKey, branch: FEATURE_BRANCH, commit: PROJECT_COMMITS.login2 }
  // The commit's scan, submitted now: its task is queued, then in progress, then its analysis lands.
  const coming = (script: Partial<AnalysisScript> = {}): AnalysisScript => ({
    finishAfterMs: 3000,
    taskStatus: 'SUCCESS',
    projectStatus: passingGate,
    projectKey,
    branch: FEATURE_BRANCH,
    revision: PROJECT_COMMITS.login2,
    ...script
  })
  switch (name) {
    case 'project-commit':
      return { ask: onTheBranch, analyses: [...history(true), coming()], expected: 4 }
    case 'project-newest':
      // No commit: the main branch's newest, not the feature branch's newer one.
      return { ask: { projectKey }, analyses: history(true), expected: 1 }
    case 'project-branch-queued':
      // No commit: the branch's newest. Its scan is queued now (its gate fails where the branch's
      // earlier analysis, an hour old, passed), and a pull request's scan, queued with it, ends
      // later: only the branch's task is waited for.
      return {
        ask: { projectKey, branch: FEATURE_BRANCH },
        analyses: [
          ...history(true),
          coming({ projectStatus: failingGate.projectStatus }),
          coming({
            finishAfterMs: 20_000,
            branch: undefined,
            pullRequest: '42',
            revision: PROJECT_COMMITS.pullRequestMerge
          })
        ],
        expected: 4
      }
    case 'project-race':
      // A second push's scan, a second later, lands with the commit's: the newest is not the
      // commit's, and its gate fails where the commit's passes.
      return {
        ask: onTheBranch,
        analyses: [
          ...history(true),
          coming({ finishAfterMs: 2500, scannedAgoMs: 1000 }),
          coming({
            finishAfterMs: 2500,
            revision: PROJECT_COMMITS.login3,
            projectStatus: failingGate.projectStatus
          })
        ],
        expected: 4
      }
    case 'project-task-failed':
      return {
        ask: onTheBranch,
        analyses: [
          ...history(true),
          coming({
            finishAfterMs: 1500,
            taskStatus: 'FAILED',
            errorMessage: 'Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database'
          })
        ]
      }
    case 'project-task-failed-hidden':
      // The branch's task fails, and a task of the main branch (named, as Developer Edition names
      // it) ends at the same instant, added after it: the project's last task (api/ce/component's
      // current) is the main branch's, never the failed one.
      return {
        ask: onTheBranch,
        analyses: [
          ...history(true),
          coming({
            finishAfterMs: 1500,
            taskStatus: 'FAILED',
            errorMessage: 'Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database'
          }),
          coming({ finishAfterMs: 1500, branch: MAIN_BRANCH, revision: PROJECT_COMMITS.main3 })
        ]
      }
    case 'project-main-task-failed':
      // A push to the main branch, scanned without naming its branch (as on Community Edition,
      // where sonar.branch.name is refused): its tasks carry no branch.
      return {
        ask: { projectKey, branch: MAIN_BRANCH, commit: PROJECT_COMMITS.main3 },
        analyses: [
          ...history(true),
          coming({
            finishAfterMs: 1500,
            branch: undefined,
            revision: PROJECT_COMMITS.main3,
            taskStatus: 'FAILED',
            errorMessage: 'Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database'
          })
        ]
      }
    case 'project-no-revision':
      // Scans without SCM data: no analysis records its commit.
      return {
        ask: onTheBranch,
        analyses: [...history(false), coming({ revision: undefined })]
      }
    case 'project-unknown':
      return {
        ask: { ...onTheBranch, projectKey: `${projectKey}-unknown` },
        analyses: [...history(true), coming()]
      }
    case 'project-unknown-branch':
      return {
        ask: { ...onTheBranch, branch: 'no-such-branch' },
        analyses: [...history(true), coming()]
      }
    case 'project-pull-request':
      // The scan of a pull request's merge commit, queued now; its gate fails where the pull
      // request's earlier analysis (50 minutes old) passed. The server lists a pull request's
      // analyses only as its newest's date (api/project_pull_requests/list), with no commit.
      return {
        ask: { projectKey, pullRequest: '42', commit: PROJECT_COMMITS.pullRequestMerge },
        analyses: [
          ...history(true),
          coming({
            branch: undefined,
            pullRequest: '42',
            revision: PROJECT_COMMITS.pullRequestMerge,
            projectStatus: failingGate.projectStatus
          })
        ],
        expected: 4
      }
    default:
      throw new Error(`Unknown scenario "${name}": use ${SCENARIOS.join(', ')}.`)
  }
}

/** The named scenarios of the demo, the CI job and the tests. */
export async function scenario(name: string): Promise<AnalysisScript> {
  const failingGate = JSON.parse(
    await readFile(path.join(FIXTURES, 'project_status-example.json'), 'utf8')
  ) as { projectStatus: Record<string, unknown> }
  const taskExample = JSON.parse(
    await readFile(path.join(FIXTURES, 'task-example.json'), 'utf8')
  ) as {
    task: { warnings: string[] }
  }
  switch (name) {
    case 'pending-success':
      return { finishAfterMs: 2500, taskStatus: 'SUCCESS', projectStatus: passingGate }
    case 'done':
      return { finishAfterMs: 0, taskStatus: 'SUCCESS', projectStatus: passingGate }
    case 'gate-error':
      // As many blocker and critical issues as the gate's conditions count, and some others.
      return {
        finishAfterMs: 2500,
        taskStatus: 'SUCCESS',
        warnings: taskExample.task.warnings,
        projectStatus: failingGate.projectStatus,
        issues: [
          ...sampleIssues(14, ['BLOCKER']),
          ...sampleIssues(1, ['CRITICAL'], 15),
          ...sampleIssues(3, ['MAJOR', 'MINOR', 'INFO'], 16)
        ],
        // The failing gate's own coverage (project_status-example.json).
        measures: { new_coverage: 82.50562381034781, new_duplicated_lines_density: 3.5 },
        hotspots: sampleHotspots(7, SAMPLE_FILES)
      }
    case 'gate-warn':
      return {
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        projectStatus: { ...passingGate, status: 'WARN' }
      }
    case 'no-gate':
      return {
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        projectStatus: { status: 'NONE', conditions: [] }
      }
    case 'task-failed':
      return {
        finishAfterMs: 1500,
        taskStatus: 'FAILED',
        errorMessage: 'Fail to extract report AYhSC2-LY0CHkWJxvNA9 from database',
        projectStatus: passingGate
      }
    case 'flaky':
      return {
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        projectStatus: passingGate,
        failFirstRequests: 2
      }
    case 'slow':
      return { finishAfterMs: 120_000, taskStatus: 'SUCCESS', projectStatus: passingGate }
    // One per server generation, each with its own auth, reply shapes and report file.
    case 'sonarqube-8.9':
      return {
        finishAfterMs: 1500,
        taskStatus: 'SUCCESS',
        generation: '8.9',
        issues: [
          ...sampleIssues(4),
          ...sampleIssues(2, ['MAJOR'], 5).map((issue) => ({ ...issue, inNewCode: false }))
        ],
        branch: 'main',
        warnings: taskExample.task.warnings.slice(0, 1),
        projectStatus: passingGate
      }
    case 'sonarqube-9.9':
      return {
        finishAfterMs: 1500,
        taskStatus: 'SUCCESS',
        generation: '9.9',
        issues: [
          ...sampleIssues(4),
          ...sampleIssues(2, ['MAJOR'], 5).map((issue) => ({ ...issue, inNewCode: false }))
        ],
        branch: 'release-2.x',
        projectStatus: failingGate.projectStatus
      }
    case 'sonarqube-10':
      return {
        finishAfterMs: 1500,
        taskStatus: 'SUCCESS',
        generation: '10.x',
        issues: [
          ...sampleIssues(4),
          ...sampleIssues(2, ['MAJOR'], 5).map((issue) => ({ ...issue, inNewCode: false }))
        ],
        warnings: taskExample.task.warnings,
        projectStatus: passingGate
      }
    case 'sonarqube-2025':
      return {
        finishAfterMs: 1500,
        taskStatus: 'SUCCESS',
        generation: '2025.x',
        issues: [
          ...sampleIssues(4),
          ...sampleIssues(2, ['MAJOR'], 5).map((issue) => ({ ...issue, inNewCode: false }))
        ],
        projectStatus: modeOfQualitiesGate
      }
    case 'sonarcloud':
      return {
        finishAfterMs: 1500,
        taskStatus: 'SUCCESS',
        generation: 'cloud',
        issues: [
          ...sampleIssues(4),
          ...sampleIssues(2, ['MAJOR'], 5).map((issue) => ({ ...issue, inNewCode: false }))
        ],
        pullRequest: '42',
        warnings: taskExample.task.warnings.slice(1),
        projectStatus: { ...passingGate, caycStatus: 'compliant' }
      }
    case 'many-issues':
      // 1,200 new issues over three pages of 500, and older ones outside the new code period.
      return {
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        branch: 'main',
        projectStatus: passingGate,
        issues: [
          ...sampleIssues(1200),
          ...sampleIssues(30, ['MAJOR'], 1201).map((issue) => ({ ...issue, inNewCode: false }))
        ]
      }
    case 'issues-forbidden':
      return {
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        projectStatus: passingGate,
        issues: sampleIssues(3),
        issuesStatus: 403
      }
    default:
      throw new Error(
        (PROJECT_SCENARIOS as readonly string[]).includes(name)
          ? `Scenario "${name}" is a project's analyses, checked by project: use projectScenario.`
          : `Unknown scenario "${name}": use ${SCENARIOS.join(', ')}.`
      )
  }
}

/**
 * A monorepo's three analyses, one per project: one passes, one fails its gate, one is slow to
 * process (and passes). Each needs its own report file (`writeReportFile`).
 */
export async function monorepoScenario(): Promise<AnalysisScript[]> {
  const failing = await scenario('gate-error')
  return [
    {
      finishAfterMs: 1500,
      taskStatus: 'SUCCESS',
      projectStatus: passingGate,
      projectKey: 'shop-api'
    },
    { ...failing, projectKey: 'shop-web' },
    {
      finishAfterMs: 6000,
      taskStatus: 'SUCCESS',
      projectStatus: passingGate,
      projectKey: 'shop-reports',
      previousProcessingMs: 5000
    }
  ]
}

export interface SimulatorOptions {
  port?: number
  /** When set, every request must carry this token, in a scheme its analysis's generation takes. */
  token?: string
  /**
   * A token the server knows, of a user with the server's default permissions (Execute Analysis)
   * but without Browse on any project: refused with 403 where Browse is needed (NEEDS_BROWSE),
   * shown no issues by api/issues/search (recorded from 10.7).
   */
  forbiddenToken?: string
  /**
   * `community`: SonarQube Community Edition (Build), which analyses the main branch only: it has
   * no api/project_pull_requests/list (404, as for any unknown address), and its tasks name no
   * branch. Default: an edition with branches and pull requests.
   */
  edition?: 'community'
  /** When set, authenticated replies carry SonarQube-Authentication-Token-Expiration with it. */
  tokenExpiresAt?: string
  now?: () => number
  /**
   * api/qualitygates/project_status answers this status, as a server that no longer has it
   * would (SonarQube Cloud lists it as deprecated); the gate is then in api/measures/component.
   */
  projectStatusGone?: 404 | 410
}

/**
 * A running simulator.
 *
 * @example const sim = await Simulator.start({ token: 's3cret' }); const a = sim.addAnalysis(await scenario('done'))
 */
export class Simulator {
  readonly requests: RecordedRequest[] = []
  /** TCP connections accepted so far. */
  connections = 0
  private readonly analyses = new Map<string, Analysis>()
  private readonly answered = new Map<string, number>()
  private next = 1

  private constructor(
    private readonly server: Server,
    private readonly options: SimulatorOptions
  ) {}

  static async start(options: SimulatorOptions = {}): Promise<Simulator> {
    const server = createServer()
    const simulator = new Simulator(server, options)
    server.on('request', (request, response) => void simulator.handle(request, response))
    server.on('connection', () => simulator.connections++)
    // A port in use (EADDRINUSE) or refused (EACCES) rejects here, for the caller to say so.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    return simulator
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  private now(): number {
    return (this.options.now ?? Date.now)()
  }

  addAnalysis(script: AnalysisScript, now = this.now()): Analysis {
    const n = this.next++
    const analysis = {
      taskId: `AYTask${String(n).padStart(4, '0')}`,
      analysisId: `AYAnalysis${String(n).padStart(4, '0')}`,
      addedAt: now,
      finishesAt: now + script.finishAfterMs,
      order: n,
      script
    }
    this.analyses.set(analysis.taskId, analysis)
    this.analyses.set(analysis.analysisId, analysis)
    return analysis
  }

  /**
   * Several analyses added at one instant, in order (a project scenario's): two with the same
   * finishAfterMs land together, so no poll sees one without the other.
   *
   * @example const added = simulator.addAnalyses((await projectScenario('project-race')).analyses)
   */
  addAnalyses(scripts: readonly AnalysisScript[]): Analysis[] {
    const now = this.now()
    return scripts.map((script) => this.addAnalysis(script, now))
  }

  /** The report-task.txt a scanner would write for this analysis. */
  reportFile(analysis: Analysis): string {
    const { script } = analysis
    const projectKey = script.projectKey ?? 'demo-project'
    const traits = GENERATIONS[script.generation ?? '10.x']
    const branch = script.branch ? `&branch=${encodeURIComponent(script.branch)}` : ''
    // The scanner's order of keys; it ends lines with \n on every platform.
    return [
      ...(traits.organization ? [`organization=${traits.organization}`] : []),
      `projectKey=${projectKey}`,
      `serverUrl=${this.url}`,
      `serverVersion=${traits.serverVersion}`,
      ...(script.branch ? [`branch=${script.branch}`] : []),
      `dashboardUrl=${this.url}/dashboard?id=${projectKey}${branch}`,
      `ceTaskId=${analysis.taskId}`,
      `ceTaskUrl=${this.url}/api/ce/task?id=${analysis.taskId}`,
      ''
    ].join('\n')
  }

  async writeReportFile(analysis: Analysis, file: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, this.reportFile(analysis))
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url)
    this.requests.push({
      method: request.method ?? 'GET',
      url: url.pathname + url.search,
      authorization: request.headers.authorization,
      userAgent: request.headers['user-agent'],
      at: this.now()
    })
    const id = url.searchParams.get('id') ?? url.searchParams.get('analysisId') ?? ''
    const analysis =
      url.pathname === '/api/issues/search' ? this.analysisOfIssues(url) : this.analyses.get(id)
    // The project endpoints answer in the generation of the project's newest analysis.
    const project =
      url.pathname === '/api/project_analyses/search' ||
      url.pathname === '/api/project_branches/list' ||
      url.pathname === '/api/project_pull_requests/list'
        ? url.searchParams.get('project')
        : url.pathname === '/api/ce/component' || url.pathname === '/api/measures/component'
          ? url.searchParams.get('component')
          : url.pathname === '/api/hotspots/search'
            ? (url.searchParams.get('project') ?? url.searchParams.get('projectKey'))
            : url.pathname === '/api/qualitygates/project_status'
              ? url.searchParams.get('projectKey')
              : null
    const generation =
      analysis?.script.generation ??
      (project === null ? undefined : this.ofProject(project).at(-1)?.script.generation) ??
      '10.x'
    const traits = GENERATIONS[generation]
    const forbidden = this.carries(
      request.headers.authorization,
      this.options.forbiddenToken,
      traits.auth
    )
    const browseNeeded =
      NEEDS_BROWSE.has(url.pathname) &&
      !(url.pathname === '/api/measures/component' && traits.measuresWithoutBrowse)
    if (forbidden && browseNeeded) {
      return send(response, 403, { errors: [{ msg: 'Insufficient privileges' }] })
    }
    if (!forbidden && !this.authorised(request.headers.authorization, traits.auth)) {
      // As the server refuses a token it does not know: no body (recorded from 10.7).
      response.writeHead(401)
      return void response.end()
    }
    const headers: Record<string, string> =
      this.options.token && this.options.tokenExpiresAt
        ? { 'SonarQube-Authentication-Token-Expiration': this.options.tokenExpiresAt }
        : {}

    if (analysis) {
      const count = (this.answered.get(analysis.taskId) ?? 0) + 1
      this.answered.set(analysis.taskId, count)
      if (analysis.script.replyDelayMs) await sleep(analysis.script.replyDelayMs)
      if (count <= (analysis.script.failFirstRequests ?? 0)) {
        return send(response, 503, { errors: [{ msg: 'Service temporarily unavailable' }] })
      }
    }

    if (url.pathname === '/api/ce/task') {
      if (!analysis)
        return send(response, 404, { errors: [{ msg: `No activity found for task '${id}'` }] })
      const warningsAsked = (url.searchParams.get('additionalFields') ?? '')
        .split(',')
        .includes('warnings')
      const task = this.taskState(analysis, warningsAsked)
      return send(response, 200, { task }, headers)
    }
    if (url.pathname === '/api/qualitygates/project_status' && this.options.projectStatusGone) {
      const msg = `Unknown url : ${url.pathname}`
      return send(response, this.options.projectStatusGone, { errors: [{ msg }] })
    }
    if (url.pathname === '/api/measures/component') {
      const [status, body] = this.measures(url, generation)
      return send(response, status, body, status === 200 ? headers : {})
    }
    if (url.pathname === '/api/qualitygates/project_status' && project !== null) {
      const newest = this.newestOfScope(project, url.searchParams)
      if (!newest) {
        return send(response, 404, { errors: [{ msg: `Component '${project}' not found` }] })
      }
      return send(response, 200, { projectStatus: gateOf(newest.script, traits) }, headers)
    }
    if (
      url.pathname === '/api/project_pull_requests/list' &&
      this.options.edition === 'community'
    ) {
      return send(response, 404, { errors: [{ msg: `Unknown url : ${url.pathname}` }] })
    }
    if (url.pathname === '/api/project_pull_requests/list') {
      const [status, body] = this.listPullRequests(url)
      return send(response, status, body, status === 200 ? headers : {})
    }
    if (url.pathname === '/api/qualitygates/project_status') {
      if (!analysis || this.now() < analysis.finishesAt) {
        return send(response, 404, { errors: [{ msg: `Analysis with id '${id}' is not found` }] })
      }
      return send(response, 200, { projectStatus: gateOf(analysis.script, traits) }, headers)
    }
    if (url.pathname === '/api/ce/component') {
      const component = url.searchParams.get('component') ?? ''
      if (this.ofProject(component).length === 0) {
        const msg = PROJECT_ANALYSES[generation].unknownComponent(component)
        return send(response, 404, { errors: [{ msg }] })
      }
      return send(response, 200, this.componentActivity(component), headers)
    }
    if (url.pathname === '/api/project_analyses/search') {
      const [status, body] = this.searchAnalyses(url)
      return send(response, status, body, status === 200 ? headers : {})
    }
    if (url.pathname === '/api/project_branches/list') {
      const [status, body] = this.listBranches(url)
      return send(response, status, body, status === 200 ? headers : {})
    }
    if (url.pathname === '/api/issues/search') {
      // The search leaves out the projects the user may not browse: none of this one's.
      const [status, body] = this.searchIssues(url, analysis, forbidden)
      return send(response, status, body, headers)
    }
    if (url.pathname === '/api/hotspots/search') {
      const projectKey = project ?? ''
      const newest = this.newestOfScope(projectKey, url.searchParams)
      if (!newest) {
        return send(response, 404, { errors: [{ msg: `Project '${projectKey}' not found` }] })
      }
      const [status, body] = hotspotsReply(
        projectKey,
        newest.script.hotspots ?? [],
        url.searchParams
      )
      return send(response, status, body, headers)
    }
    if (url.pathname === '/api/metrics/search') {
      const page = Number(url.searchParams.get('p') ?? '1')
      const size = Number(url.searchParams.get('ps') ?? '100')
      const metrics = METRIC_DEFINITIONS.slice((page - 1) * size, page * size)
      return send(response, 200, { metrics, total: METRIC_DEFINITIONS.length, p: page, ps: size })
    }
    if (url.pathname === '/dashboard') {
      response.writeHead(200, { 'content-type': 'text/html' })
      return void response.end(
        `<h1>Dashboard of ${escapeHtml(url.searchParams.get('id') ?? '')}</h1>`
      )
    }
    return send(response, 404, { errors: [{ msg: `Unknown url : ${url.pathname}` }] })
  }

  /**
   * The latest analysis of the project the issues search names, by either parameter name: of the
   * branch or pull request it names, when that project has one.
   */
  private analysisOfIssues(url: URL): Analysis | undefined {
    const project =
      url.searchParams.get('componentKeys') ?? url.searchParams.get('components') ?? ''
    const ofProject = this.ofProject(project)
    const branch = url.searchParams.get('branch')
    const pullRequest = url.searchParams.get('pullRequest')
    const scope = pullRequest !== null ? { pullRequest } : branch !== null ? { branch } : undefined
    return (
      (scope && ofProject.filter(({ script }) => ofScope(script, scope)).at(-1)) ?? ofProject.at(-1)
    )
  }

  /** The analyses of a project, in the order they were added. */
  private ofProject(projectKey: string): Analysis[] {
    return [...new Set(this.analyses.values())].filter(
      (analysis) => (analysis.script.projectKey ?? 'demo-project') === projectKey
    )
  }

  /**
   * api/project_analyses/search as SonarQube answers it: the processed analyses of the project's
   * main branch, or of the branch it names, newest first, `ps` (at most 500) a page. A pull
   * request is named by `pullRequest` only where the generation reads it (no SonarQube Server
   * does: the main branch's come back). An unknown project, branch or pull request is a 404 in
   * the server's words; a branch or pull request exists from its first scan's submission on (the
   * server creates it then), before any of its analyses has landed.
   */
  private searchAnalyses(url: URL): [number, unknown] {
    const params = url.searchParams
    const project = params.get('project')
    if (!project) return [400, { errors: [{ msg: "The 'project' parameter is missing" }] }]
    const page = Number(params.get('p') ?? '1')
    const size = Number(params.get('ps') ?? '100')
    if (!(Number.isInteger(size) && size >= 1 && size <= 500)) {
      return [400, { errors: [{ msg: `'ps' value (${params.get('ps')}) must be less than 500` }] }]
    }
    if (!(Number.isInteger(page) && page >= 1)) {
      return [400, { errors: [{ msg: `'p' value (${params.get('p')}) must be greater than 0` }] }]
    }
    const ofProject = this.ofProject(project)
    const traits = PROJECT_ANALYSES[ofProject.at(-1)?.script.generation ?? '10.x']
    const branch = params.get('branch') ?? undefined
    const pullRequest = traits.pullRequestParameter
      ? (params.get('pullRequest') ?? undefined)
      : undefined
    if (branch !== undefined && pullRequest !== undefined) {
      return [400, { errors: [{ msg: 'Either branch or pull request can be provided, not both' }] }]
    }
    const scope = pullRequest !== undefined ? { pullRequest } : { branch: branch ?? MAIN_BRANCH }
    const ofItsScope = ofProject.filter(({ script }) => ofScope(script, scope))
    // The server looks the project up with the branch or pull request named: its words say which.
    const unknown =
      pullRequest !== undefined
        ? ofItsScope.length === 0 &&
          `Component '${project}' of pull request '${pullRequest}' not found`
        : branch !== undefined
          ? (ofProject.length === 0 || (ofItsScope.length === 0 && branch !== MAIN_BRANCH)) &&
            `Component '${project}' on branch '${branch}' not found`
          : ofProject.length === 0 && `Component key '${project}' not found`
    if (unknown) return [404, { errors: [{ msg: unknown }] }]
    // Only processed analyses are listed: a task still queued or running, or one that failed, has none.
    const landed = ofItsScope
      .filter(
        ({ script, finishesAt }) => script.taskStatus === 'SUCCESS' && this.now() >= finishesAt
      )
      .sort((a, b) => scannedAt(b) - scannedAt(a) || b.order - a.order)
    return [
      200,
      {
        paging: { pageIndex: page, pageSize: size, total: landed.length },
        analyses: landed.slice((page - 1) * size, page * size).map((analysis) => ({
          key: analysis.analysisId,
          date: sonarDate(scannedAt(analysis)),
          projectVersion: '1.0.0-SNAPSHOT',
          ...(analysis.script.revision ? { revision: analysis.script.revision } : {}),
          manualNewCodePeriodBaseline: false,
          ...(traits.detectedCI ? { detectedCI: 'Github Actions' } : {}),
          events: []
        }))
      }
    ]
  }

  /**
   * api/issues/search as the analysis's generation answers it: the project parameter and the
   * new-code parameter it does not know are ignored, as real servers ignore unknown parameters
   * (every project's issues, old ones too); ps over 500 and pages past the 10,000th result are
   * refused; rule names come with additionalFields=rules.
   */
  private searchIssues(
    url: URL,
    analysis: Analysis | undefined,
    noneBrowsed = false
  ): [number, unknown] {
    const generation = analysis?.script.generation ?? '10.x'
    const traits = ISSUE_SEARCH[generation]
    const params = url.searchParams
    if (analysis?.script.issuesStatus) {
      const status = analysis.script.issuesStatus
      return [status, { errors: [{ msg: status === 403 ? 'Insufficient privileges' : 'Error' }] }]
    }
    const page = Number(params.get('p') ?? '1')
    const size = Number(params.get('ps') ?? '100')
    if (!(size >= 1 && size <= 500)) {
      return [400, { errors: [{ msg: `'ps' value (${size}) must be less than 500` }] }]
    }
    if (!(page >= 1) || page * size > 10_000) {
      return [
        400,
        {
          errors: [
            { msg: `Can return only the first 10000 results. ${page * size}th result asked.` }
          ]
        }
      ]
    }
    // A pull request's issues are its own: new by definition. An unknown branch or pull
    // request is a 404, as the server answers.
    const pullRequest = params.get('pullRequest')
    const branch = params.get('branch')
    if (pullRequest !== null && analysis?.script.pullRequest !== pullRequest) {
      return [404, { errors: [{ msg: `Pull request '${pullRequest}' not found` }] }]
    }
    if (branch !== null && !(analysis && ofScope(analysis.script, { branch }))) {
      return [404, { errors: [{ msg: `Branch '${branch}' not found` }] }]
    }
    const reads = (name: string, trait: string) => trait === 'either' || trait === name
    const projectNamed = ['componentKeys', 'components'].some(
      (name) => params.has(name) && reads(name, traits.componentsParameter)
    )
    const newCodeOnly =
      pullRequest !== null ||
      ['sinceLeakPeriod', 'inNewCodePeriod'].some(
        (name) => params.get(name) === 'true' && reads(name, traits.newCodeParameter)
      )
    const analyses = noneBrowsed
      ? []
      : projectNamed
        ? analysis
          ? [analysis]
          : []
        : [...new Set(this.analyses.values())]
    const all = analyses.flatMap(({ script }) =>
      (script.issues ?? [])
        .filter((issue) => !newCodeOnly || issue.inNewCode !== false)
        .map((issue) => ({ issue, projectKey: script.projectKey ?? 'demo-project' }))
    )
    const slice = all.slice((page - 1) * size, page * size)
    const withRules = (params.get('additionalFields') ?? '').split(',').includes('rules')
    const paging = { pageIndex: page, pageSize: size, total: all.length }
    // The files of the page's issues, then the projects (recorded from 10.7).
    const files = new Map(
      slice.map(({ issue, projectKey }) => [
        `${projectKey}:${issue.path}`,
        {
          key: `${projectKey}:${issue.path}`,
          enabled: true,
          qualifier: 'FIL',
          name: issue.path.split('/').at(-1),
          longName: issue.path,
          path: issue.path
        }
      ])
    )
    const projects = new Map(
      slice.map(({ projectKey }) => [
        projectKey,
        { key: projectKey, enabled: true, qualifier: 'TRK', name: projectKey, longName: projectKey }
      ])
    )
    return [
      200,
      {
        ...(traits.topLevelTotal ? { total: all.length, p: page, ps: size } : {}),
        paging,
        effortTotal: 5 * all.length,
        issues: slice.map(({ issue, projectKey }) => issueShape(issue, projectKey, generation)),
        components: [...files.values(), ...projects.values()],
        ...(withRules
          ? {
              rules: [
                ...new Map(
                  slice.map(({ issue }) => [
                    issue.rule,
                    {
                      key: issue.rule,
                      name: issue.ruleName,
                      lang: issue.rule.split(':')[0],
                      status: 'READY',
                      langName: 'TypeScript'
                    }
                  ])
                ).values()
              ]
            }
          : {}),
        facets: []
      }
    ]
  }

  /**
   * api/project_branches/list: the project's branches (not its pull requests), each with its
   * newest analysis's date and gate status once one has landed; a branch exists from its first
   * scan's submission on. An unknown project is a 404 in the server's words.
   */
  private listBranches(url: URL): [number, unknown] {
    const project = url.searchParams.get('project')
    if (!project) return [400, { errors: [{ msg: "The 'project' parameter is missing" }] }]
    const ofProject = this.ofProject(project)
    if (ofProject.length === 0)
      return [404, { errors: [{ msg: `Project '${project}' not found` }] }]
    const traits = PROJECT_ANALYSES[ofProject.at(-1)?.script.generation ?? '10.x']
    const names = new Set(
      ofProject.flatMap(({ script }) =>
        script.pullRequest === undefined ? [script.branch ?? MAIN_BRANCH] : []
      )
    )
    names.delete(MAIN_BRANCH)
    // As the server's own example lists them: the main branch after the others.
    const branches = [...names, MAIN_BRANCH].map((name) => {
      const newest = ofProject
        .filter(
          ({ script, finishesAt }) =>
            ofScope(script, { branch: name }) &&
            script.taskStatus === 'SUCCESS' &&
            this.now() >= finishesAt
        )
        .sort((a, b) => scannedAt(b) - scannedAt(a) || b.order - a.order)[0]
      const gate = newest?.script.projectStatus['status']
      return {
        name,
        isMain: name === MAIN_BRANCH,
        type: 'BRANCH',
        ...(typeof gate === 'string' && gate !== 'NONE'
          ? { status: { qualityGateStatus: gate } }
          : { status: {} }),
        ...(newest ? { analysisDate: sonarDate(scannedAt(newest)) } : {}),
        excludedFromPurge: name === MAIN_BRANCH,
        ...(traits.branchId ? { branchId: uuidOf(`${project}:${name}`) } : {})
      }
    })
    return [200, { branches }]
  }

  /**
   * The newest processed analysis of the branch or pull request `params` name (the main branch's
   * without either), as api/qualitygates/project_status?projectKey= reads it.
   */
  private newestOfScope(project: string, params: URLSearchParams): Analysis | undefined {
    const pullRequest = params.get('pullRequest') ?? undefined
    const branch = params.get('branch') ?? undefined
    const scope = pullRequest !== undefined ? { pullRequest } : { branch: branch ?? MAIN_BRANCH }
    return this.ofProject(project)
      .filter(
        ({ script, finishesAt }) =>
          ofScope(script, scope) && script.taskStatus === 'SUCCESS' && this.now() >= finishesAt
      )
      .sort((a, b) => scannedAt(b) - scannedAt(a) || b.order - a.order)[0]
  }

  /**
   * api/measures/component: the gate's measures (gateMeasures), or the figures of the branch's or
   * pull request's newest analysis in its generation's shape (sonar-measures.ts).
   */
  private measures(url: URL, generation: Generation): [number, unknown] {
    const keys = (url.searchParams.get('metricKeys') ?? '').split(',').filter(Boolean)
    if (keys.includes('alert_status')) return this.gateMeasures(url)
    const component = url.searchParams.get('component') ?? ''
    const newest = this.newestOfScope(component, url.searchParams)
    if (!newest) return [404, { errors: [{ msg: `Component key '${component}' not found` }] }]
    const reply = measuresReply(
      generation,
      keys,
      newest.script.measures ?? {},
      url.searchParams.has('pullRequest')
    )
    if (Array.isArray(reply)) return reply
    return [200, { component: { key: component, name: component, qualifier: 'TRK', ...reply } }]
  }

  /**
   * api/measures/component with `metricKeys=alert_status,quality_gate_details`: the gate of the
   * branch's or pull request's newest analysis as its measures (QualityGateDetailsFormatter's
   * JSON text: `level`, `conditions` of `metric`, `op`, `error`, `actual`, `level`). An unknown
   * component is a 404.
   */
  private gateMeasures(url: URL): [number, unknown] {
    const component = url.searchParams.get('component') ?? ''
    const newest = this.newestOfScope(component, url.searchParams)
    if (!newest) return [404, { errors: [{ msg: `Component key '${component}' not found` }] }]
    const gate = newest.script.projectStatus
    const conditions = Array.isArray(gate['conditions'])
      ? (gate['conditions'] as Record<string, unknown>[])
      : []
    const details = {
      level: gate['status'],
      conditions: conditions.map((condition) => ({
        metric: condition['metricKey'],
        op: condition['comparator'],
        // The new code's conditions name its period (recorded from 10.7), once there is one.
        ...(String(condition['metricKey']).startsWith('new_') && !newest.script.firstOfProject
          ? { period: 1 }
          : {}),
        error: condition['errorThreshold'],
        actual: condition['actualValue'],
        level: condition['status']
      })),
      ignoredConditions: gate['ignoredConditions'] === true
    }
    // The component names the branch or pull request asked for, but not the main branch
    // (recorded from 10.7).
    const scope = Object.fromEntries(
      ['branch', 'pullRequest'].flatMap((name) => {
        const value = url.searchParams.get(name)
        return value === null || (name === 'branch' && value === MAIN_BRANCH) ? [] : [[name, value]]
      })
    )
    return [
      200,
      {
        component: {
          key: component,
          name: component,
          qualifier: 'TRK',
          ...scope,
          measures: [
            { metric: 'alert_status', value: gate['status'] },
            { metric: 'quality_gate_details', value: JSON.stringify(details) }
          ]
        }
      }
    ]
  }

  /**
   * api/project_pull_requests/list: every pull request of the project (the server creates one
   * with its first scan's submission), each with its newest processed analysis's date and gate
   * status, in the shape of the server's ListAction (no commit: the server records none it
   * shows). An unknown project is a 404.
   */
  private listPullRequests(url: URL): [number, unknown] {
    const project = url.searchParams.get('project')
    if (!project) return [400, { errors: [{ msg: "The 'project' parameter is missing" }] }]
    const ofProject = this.ofProject(project)
    if (ofProject.length === 0) {
      return [404, { errors: [{ msg: `Project '${project}' not found` }] }]
    }
    const keys = [
      ...new Set(
        ofProject.flatMap(({ script }) => (script.pullRequest ? [script.pullRequest] : []))
      )
    ]
    const pullRequests = keys.map((key) => {
      const newest = this.newestOfScope(project, new URLSearchParams({ pullRequest: key }))
      const gate = newest?.script.projectStatus['status']
      return {
        key,
        title: `Pull request ${key}`,
        branch: `feature/${key}`,
        base: MAIN_BRANCH,
        status: {
          ...(typeof gate === 'string' && gate !== 'NONE' ? { qualityGateStatus: gate } : {}),
          bugs: 0,
          vulnerabilities: 0,
          codeSmells: 0
        },
        ...(newest ? { analysisDate: sonarDate(scannedAt(newest)) } : {}),
        target: MAIN_BRANCH
      }
    })
    return [200, { pullRequests }]
  }

  /**
   * api/ce/component: the project's queued and running tasks, of every branch and pull request,
   * and its last finished one (`current`, of whichever branch or pull request it is): a task added
   * since the newest analysis was, once it has ended; else an earlier analysis that took
   * `previousProcessingMs` to process.
   */
  private componentActivity(component: string): Record<string, unknown> {
    const ofProject = this.ofProject(component)
    const latest = ofProject.at(-1)
    const now = this.now()
    const queue = ofProject
      .filter((analysis) => now < analysis.finishesAt)
      .map((analysis) => this.taskState(analysis, false))
    if (!latest) return { queue }
    const ended = ofProject
      .filter(({ finishesAt }) => finishesAt <= now && finishesAt >= latest.addedAt)
      .sort((a, b) => b.finishesAt - a.finishesAt || b.order - a.order)[0]
    if (ended) {
      return {
        queue,
        current: this.taskState(ended, false)
      }
    }
    // An earlier analysis, ended before the newest was added, in the task's own shape.
    const { script } = latest
    if (script.firstOfProject) return { queue }
    const executionTimeMs = Math.round(script.previousProcessingMs ?? script.finishAfterMs / 2)
    const executedAt = latest.addedAt - 60_000
    const previous: Analysis = {
      ...latest,
      taskId: 'AYPreviousTask',
      analysisId: 'AYPreviousAnalysis',
      addedAt: executedAt - executionTimeMs,
      finishesAt: executedAt,
      script: { ...script, finishAfterMs: executionTimeMs, taskStatus: 'SUCCESS', warnings: [] }
    }
    return { queue, current: this.taskState(previous, false) }
  }

  /** Whether the Authorization header carries the token in a scheme the generation takes. */
  private authorised(
    header: string | undefined,
    schemes: readonly ('basic' | 'bearer')[]
  ): boolean {
    return !this.options.token || this.carries(header, this.options.token, schemes)
  }

  /** Whether the Authorization header carries `token` in a scheme the generation takes. */
  private carries(
    header: string | undefined,
    token: string | undefined,
    schemes: readonly ('basic' | 'bearer')[]
  ): boolean {
    if (!token) return false
    return schemes.some((scheme) =>
      scheme === 'bearer'
        ? header === `Bearer ${token}`
        : header === `Basic ${Buffer.from(`${token}:`).toString('base64')}`
    )
  }

  /**
   * A task as api/ce/task and api/ce/component write it (the server's TaskFormatter): the
   * project's id, name and qualifier, who submitted it, its dates in the server's form, and, once
   * it ended, when and how; `warnings` (and, where the generation has them, `infoMessages`) when
   * asked (`warningsAsked`) or where the generation always sends them.
   */
  private taskState(analysis: Analysis, warningsAsked: boolean): Record<string, unknown> {
    const { script } = analysis
    const traits = GENERATIONS[script.generation ?? '10.x']
    const withWarnings = warningsAsked || traits.warningsAlways
    const projectKey = script.projectKey ?? 'demo-project'
    const remaining = analysis.finishesAt - this.now()
    // 9.9 sends the list empty when not asked for it (recorded).
    const messages = (warnings: readonly string[]) => ({
      ...(withWarnings ? { warnings } : script.generation === '9.9' ? { warnings: [] } : {}),
      ...(withWarnings && traits.infoMessages ? { infoMessages: [] } : {})
    })
    const base = {
      id: analysis.taskId,
      type: 'REPORT',
      componentId: uuidOf(projectKey),
      componentKey: projectKey,
      componentName: projectKey,
      componentQualifier: 'TRK',
      ...(script.branch && this.options.edition !== 'community'
        ? { branch: script.branch, branchType: 'BRANCH' }
        : {}),
      ...(script.pullRequest ? { pullRequest: script.pullRequest } : {})
    }
    const submitted = {
      submittedAt: sonarDate(analysis.finishesAt - script.finishAfterMs),
      submitterLogin: 'admin'
    }
    if (remaining > script.finishAfterMs / 2) {
      return { ...base, status: 'PENDING', ...submitted, ...messages([]) }
    }
    // In progress, the server says how long the task has been processing.
    const startedAt = analysis.finishesAt - script.finishAfterMs / 2
    if (remaining > 0) {
      return {
        ...base,
        status: 'IN_PROGRESS',
        ...submitted,
        startedAt: sonarDate(startedAt),
        executionTimeMs: Math.round(this.now() - startedAt),
        ...messages([])
      }
    }
    return {
      ...base,
      ...(script.taskStatus === 'SUCCESS' ? { analysisId: analysis.analysisId } : {}),
      status: script.taskStatus,
      ...submitted,
      startedAt: sonarDate(startedAt),
      executedAt: sonarDate(analysis.finishesAt),
      executionTimeMs: Math.max(1, script.finishAfterMs),
      ...(script.errorMessage ? { errorMessage: script.errorMessage } : {}),
      ...(script.errorType ? { errorType: script.errorType } : {}),
      hasScannerContext: true,
      warningCount: script.warnings?.length ?? 0,
      ...messages(script.warnings ?? [])
    }
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

/**
 * The gate reply of an analysis in its generation's shape; a project's first analysis has no new
 * code period, so no `period` or `periods` and no condition's `periodIndex`.
 */
function gateOf(
  script: AnalysisScript,
  traits: (typeof GENERATIONS)[Generation]
): Record<string, unknown> {
  const shaped = traits.gateShape(script.projectStatus)
  if (!script.firstOfProject) return shaped
  const conditions = Array.isArray(shaped['conditions']) ? shaped['conditions'] : []
  // 9.9 names its periods, none yet (recorded).
  return {
    ...without(shaped, 'period', 'periods'),
    ...('periods' in shaped ? { periods: [] } : {}),
    conditions: conditions.map((condition: Record<string, unknown>) =>
      without(condition, 'periodIndex')
    )
  }
}

/** Whether an analysis is of a branch (the main one: MAIN_BRANCH, or none named) or pull request. */
function ofScope(
  script: AnalysisScript,
  scope: { branch?: string | undefined; pullRequest?: string | undefined }
): boolean {
  if (scope.pullRequest !== undefined) return script.pullRequest === scope.pullRequest
  if (script.pullRequest !== undefined) return false
  return (script.branch ?? MAIN_BRANCH) === (scope.branch ?? MAIN_BRANCH)
}

/** A UUID made from a label, the same on every run. */
function uuidOf(label: string): string {
  const hex = commitSha(label)
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32)
  ].join('-')
}

/** When the analysis's scan ran: its date in the project's history. */
function scannedAt(analysis: Analysis): number {
  return analysis.addedAt - (analysis.script.scannedAgoMs ?? 0)
}

/** A date as SonarQube writes it: `2016-12-12T17:12:45+0000` (seconds, the zone's offset). */
export function sonarDate(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, '+0000')
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The command line's options, as `--help` lists them. */
export const USAGE = `Usage: npm run simulator -- [options]

Starts a simulated SonarQube server on 127.0.0.1, adds one analysis that plays a scenario,
optionally writes the report-task.txt a scanner would write for it, and serves until stopped
(Ctrl+C or SIGTERM). The project-* scenarios add a project's analyses instead (its history, each
with its commit, and what is coming), to check by project without a report file: it prints the
--project, --branch and --commit to check.

Options:
  --port <n>         port to listen on, 0 for any free one (default 9000)
  --scenario <name>  how the analysis behaves (default pending-success); one of:
${wrap(SCENARIOS.join(', '), 21, 96)}
  --report <file>    write the analysis's report-task.txt there (folders are created)
  --token <token>    accept only requests that carry this token (default: the SIMULATOR_TOKEN
                     environment variable; neither: no token is asked)
  -h, --help         show this help and exit

Then run the built action, or the command, against it, e.g.:
  npm run simulator -- --report .scannerwork/report-task.txt --token local-token
and in a second terminal, in the same folder (see docs/development.md, "Try it by hand"):
  SONAR_TOKEN=local-token npm run action:local -- --input initialDelayMs=500
  SONAR_TOKEN=local-token node dist/cli.js --initial-delay 500
or, by project (the analysis of the commit lands 3 s after the simulator starts):
  npm run simulator -- --scenario project-commit --token local-token
  SONAR_TOKEN=local-token node dist/cli.js --host http://127.0.0.1:9000 ${projectArguments({
    projectKey: 'demo-project',
    branch: FEATURE_BRANCH,
    commit: PROJECT_COMMITS.login2
  })}
`

/** The command's options that ask for what a project scenario asks for. */
function projectArguments(ask: ProjectScenario['ask']): string {
  return [
    `--project ${ask.projectKey}`,
    ...(ask.branch ? [`--branch ${ask.branch}`] : []),
    ...(ask.pullRequest ? [`--pull-request ${ask.pullRequest}`] : []),
    ...(ask.commit ? [`--commit ${ask.commit}`] : [])
  ].join(' ')
}

/** Text cut into lines of at most `width` characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line].map((each) => ' '.repeat(indent) + each).join('\n')
}

const COMMAND_OPTIONS = {
  port: { type: 'string', default: '9000' },
  scenario: { type: 'string', default: 'pending-success' },
  report: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false }
} as const

/** A mistake on the command line: one line on standard error, exit code 2. */
class UsageError extends Error {}

/**
 * The simulator as a program. Resolves with the exit code for a mistake or for `--help`, or with
 * undefined once it serves (the process then lives until a signal stops the server).
 */
export async function main(argv: string[]): Promise<number | undefined> {
  let simulator: Simulator
  let added: string
  try {
    const { values } = parseArgs({ args: argv, options: COMMAND_OPTIONS, allowPositionals: false })
    if (values.help) {
      process.stdout.write(USAGE)
      return 0
    }
    const port = Number(values.port)
    if (!/^\d+$/.test(values.port) || port > 65_535) {
      throw new UsageError(`--port is "${values.port}": it must be a whole number from 0 to 65535.`)
    }
    const report = values.report
    const byProject = (PROJECT_SCENARIOS as readonly string[]).includes(values.scenario)
    if (byProject && report) {
      throw new UsageError(
        `--report: scenario ${values.scenario} is checked by project, without a report file; leave --report out`
      )
    }
    const played = await (byProject ? projectScenario(values.scenario) : scenario(values.scenario))
      .then((one) => ('ask' in one ? one : { analyses: [one], ask: undefined }))
      .catch((error: Error) => {
        throw new UsageError(error.message)
      })
    const token = values.token ?? process.env['SIMULATOR_TOKEN']
    simulator = await Simulator.start({ port, token })
    const analyses = simulator.addAnalyses(played.analyses)
    if (played.ask) {
      added = `project ${played.ask.projectKey} (${analyses.length} analyses); check it${token ? ' with SONAR_TOKEN set to the token' : ''}: node dist/cli.js --host ${simulator.url} ${projectArguments(played.ask)}`
    } else {
      const [analysis] = analyses as [Analysis]
      if (report) await simulator.writeReportFile(analysis, report)
      added = `task ${analysis.taskId}${report ? `, report file ${report}` : ''}`
    }
  } catch (error) {
    const { message, code } = error as Error & { code?: string }
    if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS_')) {
      console.error(
        `sonar-simulator: ${message.replace(/\.?$/, '.')} Run it with --help for the options.`
      )
      return 2
    }
    console.error(
      `sonar-simulator: ${listenFailure(error as Error & { code?: string; port?: number })}`
    )
    return 1
  }
  console.log(`Simulator listening on ${simulator.url}; ${added}`)
  const stop = (): void => void simulator.stop().then(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  return undefined
}

/** A failure to start, in one line that says what to do. */
function listenFailure(error: Error & { code?: string; port?: number }): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${error.port} on 127.0.0.1 is in use (by another simulator?): stop what listens there, or choose another port with --port (0 picks a free one).`
    case 'EACCES':
      return `port ${error.port} on 127.0.0.1 may not be opened by this user: choose another port with --port (1024 and above, or 0 for a free one).`
    default:
      return `could not start: ${error.message}`
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const exitCode = await main(process.argv.slice(2))
  if (exitCode !== undefined) process.exitCode = exitCode
}
