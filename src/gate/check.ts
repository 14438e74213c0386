import type { Clock } from '../clock.js'
import { ServerRequestError } from '../errors.js'
import type { Log } from '../log.js'
import { loadReportFile, readTextFile, taskAddress, type TextFileReader } from '../report-file.js'
import { isKnownMetric } from '../report/wording.js'
import type { Settings } from '../settings.js'
import { SonarClient } from '../sonar/client.js'
import { serverBase } from '../sonar/origin.js'
import { serverKind, type ServerKind } from '../sonar/server-kind.js'
import { tokenExpiryWarning } from '../sonar/token-expiration.js'
import type { Condition, MetricDefinition, NewCodePeriod } from '../sonar/types.js'
import { evaluateConditions, type EvaluatedCondition } from './evaluate.js'
import { seconds, waitForTask, type FinishedTask } from './wait-for-task.js'

/** The SonarSource action's output values, for drop-in compatibility. */
export type QualityGateStatus = 'PASSED' | 'WARN' | 'FAILED' | 'NONE'

/** Everything the action learned: what its outputs, summary and verdict are made of. */
export interface GateResult {
  /** projectStatus.status as the server sent it: OK, WARN, ERROR or NONE. */
  status: string
  qualityGateStatus: QualityGateStatus
  analysisId: string
  taskId: string | undefined
  /** The server the gate was read from (its href): only its origin's addresses are linked. */
  serverUrl: string
  dashboardUrl: string | undefined
  projectKey: string | undefined
  conditions: EvaluatedCondition[]
  /** Warnings of the finished analysis task (missing blame information...). */
  taskWarnings: string[]
  elapsedMs: number
  /** The branch analysed and its type, as the task says (unknown with the analysisId input). */
  branch?: string
  branchType?: string
  /** The pull request analysed, as the task says. */
  pullRequest?: string
  /** What the server counts as new code for this gate. */
  period?: NewCodePeriod
  /** Clean as You Code compliance of the gate, when the server says. */
  caycStatus?: string
  /** true when the server ignored conditions on new code (too few new lines). */
  ignoredConditions?: boolean
}

export interface CheckDependencies {
  cwd: string
  clock: Clock
  /** Clock time the step started: the overall time-out counts from here. */
  startedAt: number
  log: Log
  userAgent: string
  readFile?: TextFileReader
  random?: () => number
}

/** Where to look: the server, and either a task to wait for or an analysis to read at once. */
type Target = {
  serverUrl: URL
  /** Which server it is, as far as the report file says. */
  kind: ServerKind
  dashboardUrl: string | undefined
  projectKey: string | undefined
} & (
  | { wait: 'task'; taskId: string; taskUrl: URL | undefined }
  | { wait: 'analysis'; analysisId: string }
)

/**
 * The whole check: find the analysis (report file, taskId or analysisId), wait for its task,
 * read its quality gate and re-evaluate the conditions. Throws an ActionError on any failure;
 * an ERROR gate is a result, not an exception: the caller decides whether it fails the job.
 *
 * @example const result = await checkQualityGate(readSettings(core.getInput, process.env), deps)
 */
export async function checkQualityGate(
  settings: Settings,
  deps: CheckDependencies
): Promise<GateResult> {
  const { clock, startedAt, log } = deps
  const target = await resolveTarget(settings, deps)
  const client = new SonarClient({
    serverUrl: target.serverUrl,
    token: settings.sonarToken,
    rootCert: settings.sonarRootCert,
    userAgent: deps.userAgent,
    kind: target.kind,
    onTokenExpiration: (expiresAt) => {
      const warning = tokenExpiryWarning(expiresAt, clock.now())
      if (warning) log.warning(warning)
    },
    clock,
    deadline: startedAt + settings.pollingTimeoutMs,
    random: deps.random,
    onRetry: (message) => log.info(message)
  })

  try {
    return await readGate(target, client, settings, deps)
  } finally {
    client.close()
  }
}

async function readGate(
  target: Target,
  client: SonarClient,
  settings: Settings,
  deps: CheckDependencies
): Promise<GateResult> {
  let finished: FinishedTask | undefined
  let analysisId: string
  if (target.wait === 'task') {
    finished = await waitFor(target, client, settings, deps)
    analysisId = finished.analysisId
  } else {
    analysisId = target.analysisId
  }
  const projectKey = target.projectKey ?? finished?.componentKey

  const gate = await client.getProjectStatus(analysisId)
  const conditions = await withServerMetrics(gate.conditions, client, deps.log)
  return {
    status: gate.status,
    qualityGateStatus: toQualityGateStatus(gate.status),
    analysisId,
    taskId: target.wait === 'task' ? target.taskId : undefined,
    serverUrl: target.serverUrl.href,
    dashboardUrl: target.dashboardUrl ?? dashboardFor(target.serverUrl, projectKey),
    projectKey,
    conditions: evaluateConditions(conditions),
    taskWarnings: finished?.warnings ?? [],
    elapsedMs: deps.clock.now() - deps.startedAt,
    branch: finished?.branch,
    branchType: finished?.branchType,
    pullRequest: finished?.pullRequest,
    period: gate.period,
    caycStatus: gate.caycStatus,
    ignoredConditions: gate.ignoredConditions
  }
}

/**
 * The conditions, each with the server's definition of its metric when the action does not know
 * the metric itself (custom metrics, software quality metrics...): its name and value type, read
 * once from api/metrics/search. A token that may not read them (403) changes nothing: the keys
 * are shown; any other failure says so in one line. The verdict never waits on a retry for this.
 */
async function withServerMetrics(
  conditions: Condition[],
  client: SonarClient,
  log: Log
): Promise<Condition[]> {
  if (conditions.every(({ metricKey }) => isKnownMetric(metricKey))) return conditions
  let definitions: MetricDefinition[]
  try {
    definitions = await client.getMetrics()
  } catch (error) {
    if (!(error instanceof ServerRequestError && error.status === 403)) {
      log.info(
        `Metric names could not be read, so metric keys are shown: ${(error as Error).message}`
      )
    }
    return conditions
  }
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  return conditions.map((condition) => {
    const metric = byKey.get(condition.metricKey)
    return metric ? { ...condition, metric } : condition
  })
}

async function resolveTarget(settings: Settings, deps: CheckDependencies): Promise<Target> {
  const host = settings.sonarHostUrl
  const manual = { dashboardUrl: undefined, projectKey: undefined }
  const known = (server: URL) => ({ serverUrl: server, kind: serverKind(server) })
  if (host && settings.analysisId) {
    return { wait: 'analysis', ...known(host), analysisId: settings.analysisId, ...manual }
  }
  if (host && settings.taskId) {
    return { wait: 'task', ...known(host), taskId: settings.taskId, taskUrl: undefined, ...manual }
  }
  const report = await loadReportFile(
    settings.scanMetadataReportFile,
    deps.cwd,
    deps.readFile ?? readTextFile
  )
  // With sonarHostUrl set, the task address is built from it, never taken from the file.
  const { serverUrl, taskUrl } = taskAddress(report, host)
  return {
    wait: 'task',
    serverUrl,
    kind: serverKind(serverUrl, report),
    taskId: report.ceTaskId,
    taskUrl,
    dashboardUrl: report.dashboardUrl?.href,
    projectKey: report.projectKey
  }
}

/** Waits for the target's task, its polls logged in one collapsed group. */
async function waitFor(
  target: Target & { wait: 'task' },
  client: SonarClient,
  settings: Settings,
  { clock, startedAt, log }: CheckDependencies
): Promise<FinishedTask> {
  log.startGroup(`Waiting for analysis task ${target.taskId}`)
  try {
    const taskUrl = target.taskUrl ?? client.taskUrl(target.taskId)
    // Any failure (a token without Browse on the project...) leaves the fixed cadence.
    const { projectKey } = target
    const readPreviousProcessingMs =
      settings.adaptivePolling && projectKey
        ? () => client.getPreviousProcessingMs(projectKey).catch(() => undefined)
        : undefined
    return await waitForTask({
      fetchTask: () => client.getTask(taskUrl, target.taskId),
      clock,
      startedAt,
      deadline: startedAt + settings.pollingTimeoutMs,
      initialDelayMs: settings.initialDelayMs,
      pollingIntervalMs: settings.pollingIntervalMs,
      onPoll: (task, elapsedMs) => log.info(`${task.status} after ${seconds(elapsedMs)}`),
      readPreviousProcessingMs,
      onPrediction: ({ endsAt, earlyMs, lateMs }) =>
        log.info(
          `The project's previous analysis predicts the end at about ${seconds(endsAt - startedAt)}: polling closer together from ${seconds(endsAt - earlyMs - startedAt)} to ${seconds(endsAt + lateMs - startedAt)}.`
        )
    })
  } finally {
    log.endGroup()
  }
}

/**
 * The SonarSource action's `quality-gate-status` for a gate status. A status this action does
 * not know (FAILED, say, which no server sends for a gate) is NONE: only ERROR fails.
 *
 * @example toQualityGateStatus('ERROR') // 'FAILED'
 */
export function toQualityGateStatus(status: string): QualityGateStatus {
  switch (status) {
    case 'OK':
      return 'PASSED'
    case 'WARN':
      return 'WARN'
    case 'ERROR':
      return 'FAILED'
    default:
      return 'NONE'
  }
}

function dashboardFor(server: URL, projectKey: string | undefined): string | undefined {
  if (!projectKey) return undefined
  return new URL(`dashboard?id=${encodeURIComponent(projectKey)}`, serverBase(server)).href
}
