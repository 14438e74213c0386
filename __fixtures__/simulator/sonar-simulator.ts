/**
 * A code-quality server simulator on loopback: answers `api/ce/task` and
 * `api/qualitygates/project_status` like SonarQube does, with scripted scenarios. It serves the
 * end-to-end tests, the demo, the benchmarks and the CI job that runs the action itself.
 *
 * As a program: `npm run simulator -- --port 9000 --scenario pending-success --report .scannerwork/report-task.txt`
 * starts it, writes a report file for one analysis and serves until stopped; `--help` lists the
 * options (USAGE below).
 */
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
  type Generation,
  type SimulatedIssue
} from './sonar-generations.js'

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
  /** api/issues/search answers with this status instead (403: a token without Browse). */
  issuesStatus?: number
}

export interface Analysis {
  taskId: string
  analysisId: string
  /** Epoch milliseconds at which the task ends. */
  finishesAt: number
  script: AnalysisScript
}

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

/** What api/metrics/search says of the metrics the scenarios use that the action has no words for. */
const METRIC_DEFINITIONS = [
  {
    key: 'new_software_quality_maintainability_issues',
    name: 'New Maintainability Issues',
    type: 'INT',
    domain: 'Maintainability'
  },
  {
    key: 'software_quality_maintainability_issues',
    name: 'Maintainability Issues',
    type: 'INT',
    domain: 'Maintainability'
  },
  { key: 'coverage', name: 'Coverage', type: 'PERCENT', domain: 'Coverage' }
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
  'issues-forbidden'
] as const

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
        ]
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
      throw new Error(`Unknown scenario "${name}": use ${SCENARIOS.join(', ')}.`)
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
  /** When set, authenticated replies carry SonarQube-Authentication-Token-Expiration with it. */
  tokenExpiresAt?: string
  now?: () => number
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

  addAnalysis(script: AnalysisScript): Analysis {
    const n = this.next++
    const analysis = {
      taskId: `AYTask${String(n).padStart(4, '0')}`,
      analysisId: `AYAnalysis${String(n).padStart(4, '0')}`,
      finishesAt: this.now() + script.finishAfterMs,
      script
    }
    this.analyses.set(analysis.taskId, analysis)
    this.analyses.set(analysis.analysisId, analysis)
    return analysis
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
    const traits = GENERATIONS[analysis?.script.generation ?? '10.x']
    if (!this.authorised(request.headers.authorization, traits.auth)) {
      return send(response, 401, { errors: [{ msg: 'Authentication required' }] })
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
      const task = this.taskState(analysis, traits.warningsAlways || warningsAsked)
      return send(response, 200, { task }, headers)
    }
    if (url.pathname === '/api/qualitygates/project_status') {
      if (!analysis || this.now() < analysis.finishesAt) {
        return send(response, 404, { errors: [{ msg: `Analysis with id '${id}' is not found` }] })
      }
      return send(
        response,
        200,
        { projectStatus: traits.gateShape(analysis.script.projectStatus) },
        headers
      )
    }
    if (url.pathname === '/api/ce/component') {
      return send(
        response,
        200,
        this.componentActivity(url.searchParams.get('component') ?? ''),
        headers
      )
    }
    if (url.pathname === '/api/issues/search') {
      const [status, body] = this.searchIssues(url, analysis)
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
    return send(response, 404, { errors: [{ msg: `Unknown url: ${url.pathname}` }] })
  }

  /** The latest analysis of the project the issues search names, by either parameter name. */
  private analysisOfIssues(url: URL): Analysis | undefined {
    const project =
      url.searchParams.get('componentKeys') ?? url.searchParams.get('components') ?? ''
    return [...new Set(this.analyses.values())]
      .filter((analysis) => (analysis.script.projectKey ?? 'demo-project') === project)
      .at(-1)
  }

  /**
   * api/issues/search as the analysis's generation answers it: the project parameter and the
   * new-code parameter it does not know are ignored, as real servers ignore unknown parameters
   * (every project's issues, old ones too); ps over 500 and pages past the 10,000th result are
   * refused; rule names come with additionalFields=rules.
   */
  private searchIssues(url: URL, analysis: Analysis | undefined): [number, unknown] {
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
    if (branch !== null && analysis?.script.branch !== branch) {
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
    const analyses = projectNamed
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
    return [
      200,
      {
        ...(traits.topLevelTotal ? { total: all.length, p: page, ps: size } : {}),
        paging,
        issues: slice.map(({ issue, projectKey }) => issueShape(issue, projectKey, generation)),
        components: [
          ...new Map(
            slice.map(({ issue, projectKey }) => [
              `${projectKey}:${issue.path}`,
              {
                key: `${projectKey}:${issue.path}`,
                qualifier: 'FIL',
                name: issue.path.split('/').at(-1),
                longName: issue.path,
                path: issue.path
              }
            ])
          ).values()
        ],
        ...(withRules
          ? {
              rules: [
                ...new Map(
                  slice.map(({ issue }) => [issue.rule, { key: issue.rule, name: issue.ruleName }])
                ).values()
              ]
            }
          : {})
      }
    ]
  }

  /**
   * api/ce/component: the project's queued tasks, and its last finished one, an earlier analysis
   * that took `previousProcessingMs` to process.
   */
  private componentActivity(component: string): Record<string, unknown> {
    const ofProject = [...new Set(this.analyses.values())].filter(
      (analysis) => (analysis.script.projectKey ?? 'demo-project') === component
    )
    const latest = ofProject.at(-1)
    const queue = ofProject
      .filter((analysis) => this.now() < analysis.finishesAt)
      .map((analysis) => this.taskState(analysis, false))
    if (!latest) return { queue }
    const { script } = latest
    return {
      queue,
      current: {
        id: 'AYPreviousTask',
        type: 'REPORT',
        componentKey: component,
        status: 'SUCCESS',
        analysisId: 'AYPreviousAnalysis',
        executionTimeMs: Math.round(script.previousProcessingMs ?? script.finishAfterMs / 2)
      }
    }
  }

  /** Whether the Authorization header carries the token in a scheme the generation takes. */
  private authorised(
    header: string | undefined,
    schemes: readonly ('basic' | 'bearer')[]
  ): boolean {
    const { token } = this.options
    if (!token) return true
    return schemes.some((scheme) =>
      scheme === 'bearer'
        ? header === `Bearer ${token}`
        : header === `Basic ${Buffer.from(`${token}:`).toString('base64')}`
    )
  }

  private taskState(analysis: Analysis, withWarnings: boolean): Record<string, unknown> {
    const { script } = analysis
    const remaining = analysis.finishesAt - this.now()
    const base = {
      id: analysis.taskId,
      type: 'REPORT',
      componentKey: script.projectKey ?? 'demo-project',
      ...(script.branch ? { branch: script.branch, branchType: 'BRANCH' } : {}),
      ...(script.pullRequest ? { pullRequest: script.pullRequest } : {}),
      submittedAt: new Date(analysis.finishesAt - script.finishAfterMs).toISOString()
    }
    if (remaining > script.finishAfterMs / 2) return { ...base, status: 'PENDING' }
    // In progress, the server says how long the task has been processing.
    const startedAt = analysis.finishesAt - script.finishAfterMs / 2
    if (remaining > 0) {
      return {
        ...base,
        status: 'IN_PROGRESS',
        startedAt: new Date(startedAt).toISOString(),
        executionTimeMs: Math.round(this.now() - startedAt)
      }
    }
    return {
      ...base,
      status: script.taskStatus,
      ...(script.taskStatus === 'SUCCESS' ? { analysisId: analysis.analysisId } : {}),
      ...(script.errorMessage ? { errorMessage: script.errorMessage } : {}),
      ...(script.errorType ? { errorType: script.errorType } : {}),
      executionTimeMs: Math.max(1, script.finishAfterMs),
      warningCount: script.warnings?.length ?? 0,
      ...(withWarnings ? { warnings: script.warnings ?? [] } : {})
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
(Ctrl+C or SIGTERM).

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
`

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
  let analysis: Analysis
  let report: string | undefined
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
    const script = await scenario(values.scenario).catch((error: Error) => {
      throw new UsageError(error.message)
    })
    report = values.report
    simulator = await Simulator.start({
      port,
      token: values.token ?? process.env['SIMULATOR_TOKEN']
    })
    analysis = simulator.addAnalysis(script)
    if (report) await simulator.writeReportFile(analysis, report)
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
  console.log(
    `Simulator listening on ${simulator.url}; task ${analysis.taskId}${report ? `, report file ${report}` : ''}`
  )
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
