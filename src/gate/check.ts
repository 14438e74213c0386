import { ServerRequestError, saidOf } from '../errors.js'
import type { Log } from '../log.js'
import { isKnownMetric } from '../sonar/metrics.js'
import type { Settings } from '../settings.js'
import { scopeWords, SonarClient, type AnalysisScope } from '../sonar/client.js'
import { serverBase } from '../sonar/origin.js'
import { tokenExpiryWarning } from '../sonar/token-expiration.js'
import type { Condition, MetricDefinition, NewCodePeriod, ProjectStatus } from '../sonar/types.js'
import { oneLine } from '../untrusted-text.js'
import { msg, setting, settingTitle, theSetting, type Said } from '../words.js'
import { evaluateConditions, type EvaluatedCondition } from './evaluate.js'
import { readNewIssues, type NewIssues } from './new-issues.js'
import { issueScope, readWhatChanged, whatChangedLine, type WhatChanged } from './what-changed.js'
import type { Target } from './targets.js'
import { shortShas } from '../run-scope.js'
import type { FoundAnalysis } from './analysis-sightings.js'
import { waitForAnalysis } from './wait-for-analysis.js'
import { seconds, waitForTask, type FinishedTask, type WaitClock } from './wait-for-task.js'
import { lookupTable } from '../lookup-table.js'

/** The SonarSource action's output values, for drop-in compatibility. */
type QualityGateStatus = 'PASSED' | 'WARN' | 'FAILED' | 'NONE'

/** Everything the action learned: what its outputs, summary and verdict are made of. */
export interface GateResult {
  /** projectStatus.status as the server sent it: OK, WARN, ERROR or NONE. */
  status: string
  qualityGateStatus: QualityGateStatus
  /** undefined for a pull request's analysis the server did not name (its gate read by the pull request). */
  analysisId: string | undefined
  taskId: string | undefined
  /** The server the gate was read from (its href): only its origin's addresses are linked. */
  serverUrl: string
  dashboardUrl: string | undefined
  projectKey: string | undefined
  conditions: EvaluatedCondition[]
  /** Warnings of the finished analysis task (missing blame information...). */
  taskWarnings: string[]
  elapsedMs: number
  /** The branch analysed and its type, as the task says (unknown when an analysis is checked by its id). */
  branch?: string
  branchType?: string
  /** The pull request analysed, as the task says. */
  pullRequest?: string
  /**
   * The analysis found by project (its date and commit), and whether it is the newest of its
   * branch or pull request; undefined when it came from a task or was asked for by its id.
   */
  analysis?: { date: string; revision: string | undefined; newest: boolean; basis?: string }
  /** true when the gate was read from the measures, the server having no project_status (readGate). */
  gateFromMeasures?: boolean
  /** What the server counts as new code for this gate. */
  period?: NewCodePeriod
  /** Clean as You Code compliance of the gate, when the server says. */
  caycStatus?: string
  /** true when the server ignored conditions on new code (too few new lines). */
  ignoredConditions?: boolean
  /** The analysis's open new issues, read after the verdict; undefined when the project is unknown. */
  newIssues?: NewIssues
  /** What changed with the analysis, read beside the new issues; undefined when the project is unknown. */
  whatChanged?: WhatChanged
}

export interface CheckDependencies extends WaitClock {
  log: Log
  userAgent: string
  random?: () => number
  /**
   * Where an issue's file is in the checkout, for the target's analysis: the repository path of
   * a path relative to its base directory, or undefined. Without it no finding has a file.
   */
  locateFiles?: (target: Target) => (serverPath: string) => string | undefined
}

/**
 * The client for a target's server: the token only to its origin, the overall deadline, the
 * token's expiry and the retries reported in the log. Several targets on one server share it,
 * and with it one kept-alive connection.
 */
export function clientFor(
  target: Target,
  settings: Settings,
  deps: CheckDependencies
): SonarClient {
  const { clock, deadline, log } = deps
  return new SonarClient({
    serverUrl: target.serverUrl,
    token: settings.token,
    rootCert: settings.rootCert,
    userAgent: deps.userAgent,
    kind: target.kind,
    onTokenExpiration: (expiresAt) => {
      const warning = tokenExpiryWarning(expiresAt, clock.now())
      if (warning) log.warning(warning)
    },
    clock,
    deadline,
    random: deps.random,
    onRetry: (message) => log.info(message),
    projectKeyFrom: projectKeyFrom(target)
  })
}

/**
 * Where a target's project key came from, as a message asks to check it: the project setting
 * (the client's default) for a project's analysis; else what the user gave, the report file or
 * the task or analysis whose project it is.
 */
function projectKeyFrom(target: Target): Said | undefined {
  if (target.wait === 'commit') return undefined
  // Several report files on one server share a client: the words name none of them.
  if (target.reportFile !== undefined) return 'the projectKey of the report file'
  return target.wait === 'task' ? theSetting('task') : theSetting('analysis')
}

/**
 * The check of one analysis: wait for its task (unless the target is an analysis already), read
 * its quality gate and re-evaluate the conditions. Throws an ExplainedError on any failure; an
 * ERROR gate is a result, not an exception: the caller decides whether it fails the job.
 *
 * @example const result = await checkTarget(target, clientFor(target, settings, deps), settings, deps)
 */
export async function checkTarget(
  target: Target,
  client: SonarClient,
  settings: Settings,
  deps: CheckDependencies
): Promise<GateResult> {
  const finished =
    target.wait === 'task' ? await waitFor(target, client, settings, deps) : undefined
  const found =
    target.wait === 'commit' ? await waitForCommit(target, client, settings, deps) : undefined
  const analysisId =
    target.wait === 'analysis' ? target.analysisId : (finished?.analysisId ?? found?.key)
  const projectKey = target.projectKey ?? finished?.componentKey
  // The branch or pull request: as the task says, or as the settings asked for.
  const on =
    target.wait === 'commit'
      ? target.on
      : { branch: finished?.branch, pullRequest: finished?.pullRequest }

  const { gate, fromMeasures } = await readGate(client, analysisId, {
    projectKey,
    on,
    newest: found?.newest,
    log: deps.log
  })
  const conditions = await withServerMetrics(gate.conditions, client, deps.log)
  const { newIssues, whatChanged } = projectKey
    ? await readBesideTheGate(client, target, settings, deps, { projectKey, on, analysisId })
    : {}
  return {
    status: gate.status,
    qualityGateStatus: toQualityGateStatus(gate.status),
    analysisId,
    taskId: target.wait === 'task' ? target.taskId : undefined,
    serverUrl: target.serverUrl.href,
    dashboardUrl: target.dashboardUrl ?? dashboardFor(target.serverUrl, projectKey, on),
    projectKey,
    conditions: evaluateConditions(conditions),
    taskWarnings: finished?.warnings ?? [],
    elapsedMs: deps.clock.now() - deps.startedAt,
    branch: on.branch,
    branchType: finished?.branchType,
    pullRequest: on.pullRequest,
    ...(found
      ? {
          analysis: {
            date: found.date,
            revision: found.revision,
            newest: found.newest,
            ...(found.basis ? { basis: found.basis } : {})
          }
        }
      : {}),
    ...(fromMeasures ? { gateFromMeasures: true } : {}),
    period: gate.period,
    caycStatus: gate.caycStatus,
    ignoredConditions: gate.ignoredConditions,
    newIssues,
    ...(whatChanged ? { whatChanged } : {})
  }
}

/**
 * What the check reads once the gate is known, all at once: none changes the verdict, and each
 * failure is a line of its own. The new issues, unknown rather than none when the token may not
 * see them; what changed; and a warning when the analysis is not of the run's commit.
 */
async function readBesideTheGate(
  client: SonarClient,
  target: Target,
  settings: Settings,
  deps: CheckDependencies,
  analysis: { projectKey: string; on: AnalysisScope; analysisId: string | undefined }
): Promise<{ newIssues: NewIssues | undefined; whatChanged: WhatChanged | undefined }> {
  const { projectKey, on, analysisId } = analysis
  const [readIssues, whatChanged] = await Promise.all([
    readNewIssues(client, projectKey, issueScope(on), {
      serverUrl: target.serverUrl,
      branch: on.branch,
      pullRequest: on.pullRequest,
      locate: deps.locateFiles?.(target) ?? (() => undefined)
    }),
    readWhatChanged(client, projectKey, on),
    target.wait !== 'commit' && settings.runCommit && analysisId
      ? warnOfAnotherCommit(client, { projectKey, on, analysisId }, settings.runCommit, deps.log)
      : undefined
  ])
  const newIssues = unlessHidden(readIssues, whatChanged)
  if (newIssues) deps.log.info(newIssuesLine(newIssues))
  if (whatChanged) deps.log.info(whatChangedLine(whatChanged))
  return { newIssues, whatChanged }
}

/**
 * The analysis's gate from api/qualitygates/project_status (by its key; a pull request's analysis
 * the server did not name, by the pull request, whose newest it is); where the server answers that
 * with 404 or 410 (an endpoint gone), from the measures of the branch's or pull request's latest
 * analysis, but only when that is this analysis (known from the wait, or asked of a branch), and
 * said in the log. Any other failure, or an analysis that is not the latest, keeps the server's
 * refusal.
 */
async function readGate(
  client: SonarClient,
  analysisId: string | undefined,
  about: {
    projectKey: string | undefined
    on: AnalysisScope
    newest: boolean | undefined
    log: Log
  }
): Promise<{ gate: ProjectStatus; fromMeasures: boolean }> {
  const { projectKey, on, log } = about
  try {
    const gate =
      analysisId !== undefined
        ? await client.getProjectStatus(analysisId)
        : await client.getScopeStatus(projectKey ?? '', on)
    return { gate, fromMeasures: false }
  } catch (error) {
    const gone =
      error instanceof ServerRequestError && (error.status === 404 || error.status === 410)
    if (!gone || !projectKey) throw error
    const newest =
      about.newest ??
      (on.pullRequest === undefined &&
        (await client.getProjectAnalyses(projectKey, on).then(
          (page) => page.analyses[0]?.key === analysisId,
          () => false
        )))
    if (!newest) throw error
    const gate = await client.getGateMeasures(projectKey, on)
    log.info(
      `api/qualitygates/project_status answered ${error.status}: the gate is read from the measures of ${oneLine(projectKey)}${scopeWords(on)}, whose latest analysis is this one.`
    )
    return { gate, fromMeasures: true }
  }
}

/**
 * One warning when the server records another commit for the analysis than the one the run
 * names (Settings.runCommit): read from its branch's newest analyses, when it is among them (a
 * pull request's analyses record none the server shows). Any failure to read them says nothing:
 * the check goes on as it is.
 */
async function warnOfAnotherCommit(
  client: SonarClient,
  analysis: { projectKey: string; on: AnalysisScope; analysisId: string },
  commit: string,
  log: Log
): Promise<void> {
  const { projectKey, on, analysisId } = analysis
  if (on.pullRequest !== undefined) return
  const page = await client.getProjectAnalyses(projectKey, on).catch(() => undefined)
  const revision = page?.analyses.find(({ key }) => key === analysisId)?.revision
  if (!revision || commit.startsWith(revision)) return
  log.warning(
    msg`${settingTitle('commit')} names commit ${commit.slice(0, 7)}, but the server records ${revision.slice(0, 7)} for the analysis checked, ${oneLine(analysisId)} of ${oneLine(projectKey)}${scopeWords(on)}: the verdict is that commit's. Check ${setting('commit')}, or leave it out to take the CI's commit.`
  )
}

/** Waits for the commit's analysis (or takes the newest), in one collapsed group of the log. */
async function waitForCommit(
  target: Target & { wait: 'commit' },
  client: SonarClient,
  settings: Settings,
  { clock, startedAt, deadline, log }: CheckDependencies
): Promise<FoundAnalysis> {
  // A pull request's analyses record no commit the server shows: its newest is the one.
  const what =
    target.commits.length > 0 && target.on.pullRequest === undefined
      ? `the analysis of ${shortShas(target.commits)}`
      : 'the newest analysis'
  log.startGroup(`Waiting for ${what} of ${oneLine(target.projectKey)}${scopeWords(target.on)}`)
  try {
    const found = await waitForAnalysis({
      server: client,
      projectKey: target.projectKey,
      on: target.on,
      commits: target.commits,
      ...(target.since ? { since: target.since } : {}),
      clock,
      startedAt,
      deadline,
      intervalMs: settings.intervalMs,
      adaptive: settings.adaptivePolling,
      log
    })
    if (found.basis) {
      log.info(
        `Taking the newest analysis of ${oneLine(target.projectKey)}${scopeWords(target.on)}, ${found.date}: ${found.basis}.`
      )
      return found
    }
    const revision = found.revision
      ? ` of ${found.revision.slice(0, 7)}`
      : ', which records no commit'
    log.info(
      `Analysis ${oneLine(found.key ?? '')}${revision}, ${found.date}${found.newest ? '' : ' (a newer analysis of it has landed since)'}.`
    )
    return found
  } finally {
    log.endGroup()
  }
}

/** What was read, in one line: the count, and where the count goes past what was read. */
function newIssuesLine(newIssues: NewIssues): Said {
  if (!newIssues.read) return newIssues.reason
  const { findings, total, requests } = newIssues
  const shown = findings.length < total ? `; the first ${findings.length} are shown` : ''
  return `New issues: ${total}${shown} (${requests} ${requests === 1 ? 'request' : 'requests'}).`
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
      log.info(msg`Metric names could not be read, so metric keys are shown: ${saidOf(error)}`)
    }
    return conditions
  }
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  return conditions.map((condition) => {
    const metric = byKey.get(condition.metricKey)
    return metric ? { ...condition, metric } : condition
  })
}

/** Waits for the target's task, its polls logged in one collapsed group. */
async function waitFor(
  target: Target & { wait: 'task' },
  client: SonarClient,
  settings: Settings,
  { clock, startedAt, deadline, log }: CheckDependencies
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
      taskId: target.taskId,
      fetchTask: () => client.getTask(taskUrl, target.taskId),
      clock,
      startedAt,
      deadline,
      initialWaitMs: settings.initialWaitMs,
      intervalMs: settings.intervalMs,
      onPoll: (task, elapsedMs) => log.info(`${oneLine(task.status)} after ${seconds(elapsedMs)}`),
      readPreviousProcessingMs,
      serverNotUp: () => serverNotUp(client),
      onOutage: (words) => log.info(words),
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
 * The new issues as read, unless the server hid them: it answers a user who may not browse the
 * project no issues rather than a refusal (SonarQube 9.9, 10.7 and 26.9 alike), so none read
 * beside a measures or hotspots read refused to the same user token (403) is not known to be none.
 */
function unlessHidden(
  newIssues: NewIssues | undefined,
  whatChanged: WhatChanged | undefined
): NewIssues | undefined {
  if (!newIssues?.read || newIssues.total > 0 || !whatChanged) return newIssues
  const refused = [whatChanged.newCode, whatChanged.hotspots].some(
    (part) => 'unread' in part && part.browseRefused
  )
  if (!refused) return newIssues
  return {
    read: false,
    reason:
      "New issues: not known. The server answered none, but it hides a project's issues from a user who may not browse it, and it refused this token the project's measures or hotspots (HTTP 403). Give the token's user the Browse permission on the project to see them."
  }
}

/**
 * Whether the server says it is not up: api/system/status answers another status than UP (STARTING,
 * DB_MIGRATION_RUNNING...), 5xx or nothing. A 4xx says nothing of it (a proxy that blocks the
 * address): then it is taken to be up, and the task is asked for.
 */
async function serverNotUp(client: SonarClient): Promise<boolean> {
  try {
    return (await client.getSystemStatus()) !== 'UP'
  } catch (error) {
    return error instanceof ServerRequestError && (error.noReply || (error.status ?? 0) >= 500)
  }
}

/**
 * The SonarSource action's `quality-gate-status` for a gate status. A status this action does
 * not know (FAILED, say, which no server sends for a gate) is NONE: only ERROR fails.
 *
 * @example toQualityGateStatus('ERROR') // 'FAILED'
 */
export function toQualityGateStatus(status: string): QualityGateStatus {
  return QUALITY_GATE_STATUS[status] ?? 'NONE'
}

const QUALITY_GATE_STATUS = lookupTable<QualityGateStatus>({
  OK: 'PASSED',
  WARN: 'WARN',
  ERROR: 'FAILED'
})

function dashboardFor(
  server: URL,
  projectKey: string | undefined,
  on: AnalysisScope
): string | undefined {
  if (!projectKey) return undefined
  const url = new URL('dashboard', serverBase(server))
  url.searchParams.set('id', projectKey)
  if (on.pullRequest) url.searchParams.set('pullRequest', on.pullRequest)
  else if (on.branch) url.searchParams.set('branch', on.branch)
  return url.href
}
