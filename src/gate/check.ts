import type { Clock } from '../clock.js'
import type { Log } from '../log.js'
import { loadReportFile, readTextFile, type TextFileReader } from '../report-file.js'
import type { Settings } from '../settings.js'
import { SonarClient } from '../sonar/client.js'
import { serverBase } from '../sonar/origin.js'
import { evaluateConditions, type EvaluatedCondition } from './evaluate.js'
import { seconds, waitForTask } from './wait-for-task.js'

/** The SonarSource action's output values, for drop-in compatibility. */
export type QualityGateStatus = 'PASSED' | 'WARN' | 'FAILED' | 'NONE'

/** Everything the action learned: what its outputs, summary and verdict are made of. */
export interface GateResult {
  /** projectStatus.status as the server sent it: OK, WARN, ERROR or NONE. */
  status: string
  qualityGateStatus: QualityGateStatus
  analysisId: string
  taskId: string | undefined
  dashboardUrl: string | undefined
  projectKey: string | undefined
  conditions: EvaluatedCondition[]
  /** The conditions exactly as the server sent them. */
  rawConditions: unknown[]
  /** Warnings of the finished analysis task (missing blame information...). */
  taskWarnings: string[]
  elapsedMs: number
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

/** Where to look: the server, and the task to wait for or the analysis to read directly. */
interface Target {
  serverUrl: URL
  task: { id: string; url: URL | undefined } | undefined
  analysisId: string | undefined
  dashboardUrl: string | undefined
  projectKey: string | undefined
}

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
    clock,
    deadline: startedAt + settings.pollingTimeoutMs,
    random: deps.random,
    onRetry: (message) => log.info(message)
  })

  let analysisId = target.analysisId
  let taskWarnings: string[] = []
  let projectKey = target.projectKey
  if (target.task) {
    const { id } = target.task
    const url = target.task.url ?? client.taskUrl(id)
    log.startGroup(`Waiting for analysis task ${id}`)
    try {
      const task = await waitForTask({
        fetchTask: () => client.getTask(url, id),
        clock,
        startedAt,
        deadline: startedAt + settings.pollingTimeoutMs,
        initialDelayMs: settings.initialDelayMs,
        pollingIntervalMs: settings.pollingIntervalMs,
        onPoll: (task, elapsedMs) => log.info(`${task.status} after ${seconds(elapsedMs)}`)
      })
      analysisId = task.analysisId
      taskWarnings = task.warnings
      projectKey ??= task.componentKey
    } finally {
      log.endGroup()
    }
  }
  if (analysisId === undefined) throw new Error('unreachable: a target has a task or an analysis')

  const gate = await client.getProjectStatus(analysisId)
  return {
    status: gate.status,
    qualityGateStatus: toQualityGateStatus(gate.status),
    analysisId,
    taskId: target.task?.id,
    dashboardUrl: target.dashboardUrl ?? dashboardFor(target.serverUrl, projectKey),
    projectKey,
    conditions: evaluateConditions(gate.conditions),
    rawConditions: gate.rawConditions,
    taskWarnings,
    elapsedMs: clock.now() - startedAt
  }
}

async function resolveTarget(settings: Settings, deps: CheckDependencies): Promise<Target> {
  const host = settings.sonarHostUrl
  if (host && settings.analysisId) {
    return {
      serverUrl: host,
      task: undefined,
      analysisId: settings.analysisId,
      dashboardUrl: undefined,
      projectKey: undefined
    }
  }
  if (host && settings.taskId) {
    return {
      serverUrl: host,
      task: { id: settings.taskId, url: undefined },
      analysisId: undefined,
      dashboardUrl: undefined,
      projectKey: undefined
    }
  }
  const report = await loadReportFile(
    settings.scanMetadataReportFile,
    deps.cwd,
    deps.readFile ?? readTextFile
  )
  return {
    serverUrl: host ?? report.serverUrl,
    // With sonarHostUrl set, the task address is built from it, never taken from the file.
    task: { id: report.ceTaskId, url: host ? undefined : report.ceTaskUrl },
    analysisId: undefined,
    dashboardUrl: report.dashboardUrl?.href,
    projectKey: report.projectKey
  }
}

function toQualityGateStatus(status: string): QualityGateStatus {
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
