/**
 * The server's Web API as the action reads it: the shapes of `api/ce/task` and
 * `api/qualitygates/project_status`, and the decoders that check a reply has them. Real servers
 * add fields (caycStatus, period, ignoredConditions...) and drop some (errorThreshold on old
 * warning-only conditions): unknown fields are ignored, missing optional ones stay undefined.
 */
import { idProblem } from '../identifier.js'
import { oneLine } from '../untrusted-text.js'

type TaskStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'CANCELED'

export interface Task {
  id: string
  /** A status this version does not know stays a plain string: the action keeps waiting. */
  status: TaskStatus | (string & {})
  analysisId: string | undefined
  errorMessage: string | undefined
  /** The kind of failure of a FAILED task (e.g. ANALYSIS_REPORT), beside its message. */
  errorType?: string | undefined
  /** Analysis warnings (missing blame information, deprecated properties...). */
  warnings: string[]
  componentKey: string | undefined
  /** The branch analysed, and its type (BRANCH, or LONG/SHORT on old servers). */
  branch?: string | undefined
  branchType?: string | undefined
  /** The pull request analysed (its key, the number on GitHub). */
  pullRequest?: string | undefined
  /** How long the server took to process the analysis report. */
  executionTimeMs?: number | undefined
}

type GateStatus = 'OK' | 'WARN' | 'ERROR' | 'NONE'

export interface Condition {
  status: string
  metricKey: string
  /** GT and LT on current servers; EQ and NE on old ones. */
  comparator: string | undefined
  errorThreshold: string | undefined
  warningThreshold: string | undefined
  actualValue: string | undefined
  periodIndex: number | undefined
  /** The server's own definition of the metric, when the action read it (api/metrics/search). */
  metric?: MetricDefinition
}

/** A metric as `api/metrics/search` defines it. */
export interface MetricDefinition {
  key: string
  /** The name the server's UI shows. */
  name: string
  /** INT, FLOAT, PERCENT, BOOL, STRING, MILLISEC, DATA, LEVEL, DISTRIB, RATING, WORK_DUR. */
  type: string
}

/** One page of `api/metrics/search`: its metrics, and how many there are in all. */
interface MetricsPage {
  metrics: MetricDefinition[]
  total: number
}

/** What the server counts as new code: `period` on 10.0+, the first of `periods` before and on SonarCloud. */
export interface NewCodePeriod {
  /** previous_version, days, date, version, reference_branch, PREVIOUS_VERSION... */
  mode: string
  /** When new code starts, as the server writes it. */
  date: string | undefined
  /** The mode's parameter: a number of days, a version, a branch. */
  parameter: string | undefined
}

export interface ProjectStatus {
  status: GateStatus | (string & {})
  conditions: Condition[]
  period?: NewCodePeriod | undefined
  /** Clean as You Code compliance of the gate (compliant, non-compliant, over-compliant). */
  caycStatus?: string | undefined
  /** true when the server ignored conditions on new code (too few new lines to judge). */
  ignoredConditions?: boolean | undefined
}

/** A reply that is JSON but not of the expected shape; the caller turns it into a user message. */
export class UnexpectedShape extends Error {}

export type Json = Record<string, unknown>

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined

/** A safe integer (a total the server counts), or undefined. */
export const safeInteger = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined

/** A whole number of at least 0 (a duration, a count, an offset), or undefined. */
export function optionalCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

/** A line number: a whole number of at least 1, or undefined. */
export const lineNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined

/**
 * Throws unless `body` is an object whose `key` is an array (`shape` says what was expected): a
 * reply without it is not the server's.
 */
export function expectList<K extends string>(
  body: unknown,
  key: K,
  shape = `{"${key}": [...]}`
): asserts body is Json & Record<K, unknown[]> {
  if (!isObject(body) || !Array.isArray(body[key])) {
    throw new UnexpectedShape(`expected ${shape}`)
  }
}

/**
 * The server's words for statuses, severities and types (PENDING, OK, MAJOR, CODE_SMELL...).
 * Anything else — new lines above all, which could smuggle workflow commands into the log — is
 * not a server's word.
 */
export const WORD = /^[A-Z][A-Z_]{0,39}$/

function statusWord(value: unknown, where: string): string {
  if (typeof value !== 'string' || !WORD.test(value)) {
    throw new UnexpectedShape(
      `${where} is ${typeof value === 'string' ? `"${oneLine(value, 60)}"` : oneLine(String(JSON.stringify(value)), 60)}, not a status word like OK or ERROR`
    )
  }
  return value
}

/** An id the server sends: one that cannot be an id means the reply is not a server's. */
function optionalId(value: unknown, where: string): string | undefined {
  const id = optionalString(value)
  if (id === undefined || id === '') return undefined
  const problem = idProblem(id)
  if (problem)
    throw new UnexpectedShape(`${where} "${oneLine(id, 60)}" ${problem}: it is not an id`)
  return id
}

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined

/** A branch name the server could have stored: 1 to 255 characters, none a control character. */
const branchName = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= 255 && /^[^\p{Cc}]+$/u.test(value)
    ? value
    : undefined

/** `api/system/status`'s reply: `{"id", "version", "status": "UP"}`. */
export function decodeSystemStatus(body: unknown): { status: string } {
  if (!isObject(body) || typeof body['status'] !== 'string') {
    throw new UnexpectedShape('expected {"status": ...}')
  }
  return { status: statusWord(body['status'], 'status') }
}

/** Decodes the body of `GET api/ce/task?id=`. */
export function decodeTask(body: unknown): Task {
  const task = isObject(body) ? body['task'] : undefined
  if (!isObject(task) || task['status'] === undefined) {
    throw new UnexpectedShape('expected {"task": {"status": ...}}')
  }
  return {
    id: optionalString(task['id']) ?? '',
    status: statusWord(task['status'], 'task.status'),
    analysisId: optionalId(task['analysisId'], 'task.analysisId'),
    errorMessage: optionalString(task['errorMessage']),
    errorType: optionalString(task['errorType']),
    warnings: Array.isArray(task['warnings'])
      ? task['warnings'].filter((w): w is string => typeof w === 'string')
      : [],
    componentKey: optionalString(task['componentKey']),
    branch: optionalString(task['branch']) || undefined,
    branchType: optionalString(task['branchType']) || undefined,
    pullRequest: optionalString(task['pullRequest']) || undefined,
    executionTimeMs: optionalCount(task['executionTimeMs'])
  }
}

/** Decodes the body of `GET api/qualitygates/project_status`. */
export function decodeProjectStatus(body: unknown): ProjectStatus {
  const projectStatus = isObject(body) ? body['projectStatus'] : undefined
  if (!isObject(projectStatus) || projectStatus['status'] === undefined) {
    throw new UnexpectedShape('expected {"projectStatus": {"status": ...}}')
  }
  const conditions = Array.isArray(projectStatus['conditions']) ? projectStatus['conditions'] : []
  const periods = projectStatus['periods']
  const ignored = projectStatus['ignoredConditions']
  return {
    status: statusWord(projectStatus['status'], 'projectStatus.status'),
    conditions: conditions.filter(isObject).map(decodeCondition),
    period: decodePeriod(
      projectStatus['period'] ?? (Array.isArray(periods) ? (periods[0] as unknown) : undefined)
    ),
    caycStatus: optionalString(projectStatus['caycStatus']) || undefined,
    ignoredConditions: typeof ignored === 'boolean' ? ignored : undefined
  }
}

function decodePeriod(period: unknown): NewCodePeriod | undefined {
  if (!isObject(period)) return undefined
  const mode = optionalString(period['mode'])
  if (!mode) return undefined
  return {
    mode,
    date: optionalString(period['date']) || undefined,
    parameter: optionalString(period['parameter']) || undefined
  }
}

function decodeCondition(condition: Json): Condition {
  const periodIndex = condition['periodIndex']
  return {
    status:
      condition['status'] === undefined
        ? 'NONE'
        : statusWord(condition['status'], 'a condition status'),
    metricKey: optionalString(condition['metricKey']) ?? 'unknown metric',
    comparator: optionalString(condition['comparator']),
    errorThreshold: optionalString(condition['errorThreshold']),
    warningThreshold: optionalString(condition['warningThreshold']),
    actualValue: optionalString(condition['actualValue']),
    periodIndex: typeof periodIndex === 'number' ? periodIndex : undefined
  }
}

/** Decodes a page of `GET api/metrics/search` (`{metrics, total, p, ps}`); odd entries are skipped. */
export function decodeMetricsPage(body: unknown): MetricsPage {
  expectList(body, 'metrics')
  return {
    metrics: body.metrics.filter(isObject).flatMap((metric) => {
      const [key, name, type] = [metric['key'], metric['name'], metric['type']]
      return typeof key === 'string' && typeof name === 'string' && typeof type === 'string'
        ? [{ key, name, type }]
        : []
    }),
    total: safeInteger(body['total']) ?? body.metrics.length
  }
}

const COMPONENT_SHAPE = '{"queue": [...], "current": {...}}'

/**
 * Decodes `GET api/ce/component` (`{queue: [...], current: {...}}`): how long the last finished
 * task (`current`) took to process, when it succeeded and says so.
 */
export function decodeLastProcessingMs(body: unknown): number | undefined {
  expectList(body, 'queue', COMPONENT_SHAPE)
  const current = body['current']
  if (!isObject(current) || current['status'] !== 'SUCCESS') return undefined
  return optionalCount(current['executionTimeMs'])
}

/** One analysis of a project's branch or pull request (`api/project_analyses/search`). */
export interface ProjectAnalysis {
  key: string
  /** When it ran, as the server wrote it (ISO 8601). */
  date: string
  /** The commit the scanner recorded; undefined for a scan without SCM data. */
  revision: string | undefined
}

/** The newest analyses first, as the server lists them. */
export interface ProjectAnalysesPage {
  analyses: ProjectAnalysis[]
  total: number
}

/** Decodes `GET api/project_analyses/search`: `{paging, analyses: [{key, date, revision}]}`. */
export function decodeProjectAnalyses(body: unknown): ProjectAnalysesPage {
  expectList(body, 'analyses')
  const analyses = body.analyses.flatMap((analysis, index): ProjectAnalysis[] => {
    if (!isObject(analysis)) return []
    const key = optionalId(analysis['key'], `analyses[${index}].key`)
    if (key === undefined) return []
    const revision = optionalString(analysis['revision'])
    return [
      {
        key,
        date: oneLine(optionalString(analysis['date']) ?? '', 60),
        revision:
          revision && /^[0-9a-f]{7,64}$/i.test(revision) ? revision.toLowerCase() : undefined
      }
    ]
  })
  const paging = body['paging']
  return {
    analyses,
    total: safeInteger(isObject(paging) ? paging['total'] : undefined) ?? analyses.length
  }
}

/** A background task of a project, queued, running or the last one done (`api/ce/component`). */
export interface ComponentTask {
  id: string
  status: string
  branch: string | undefined
  pullRequest: string | undefined
  errorMessage: string | undefined
  submittedAt: string | undefined
  /** How long it has been processing (running) or took (done), when the server says. */
  executionTimeMs: number | undefined
  /** The analysis a successful task made. */
  analysisId: string | undefined
}

/** The project's queued and running tasks, and the last one that ended. */
export interface ComponentTasks {
  queue: ComponentTask[]
  current: ComponentTask | undefined
}

/** Decodes `GET api/ce/component` whole: `{queue: [...], current: {...}}`. */
export function decodeComponentTasks(body: unknown): ComponentTasks {
  expectList(body, 'queue', COMPONENT_SHAPE)
  const task = (value: unknown, where: string): ComponentTask | undefined => {
    if (!isObject(value) || value['status'] === undefined) return undefined
    return {
      id: optionalId(value['id'], `${where}.id`) ?? '',
      status: statusWord(value['status'], `${where}.status`),
      branch: optionalString(value['branch']) || undefined,
      pullRequest: optionalString(value['pullRequest']) || undefined,
      errorMessage: optionalString(value['errorMessage']),
      submittedAt: optionalString(value['submittedAt']),
      executionTimeMs: optionalCount(value['executionTimeMs']),
      analysisId: optionalId(value['analysisId'], `${where}.analysisId`)
    }
  }
  return {
    queue: body.queue.flatMap((value, index) => task(value, `queue[${index}]`) ?? []),
    current: task(body['current'], 'current')
  }
}

/** Decodes `GET api/project_branches/list`: the names of the project's branches, main first. */
export function decodeBranchNames(body: unknown): string[] {
  expectList(body, 'branches')
  const branches = body.branches.filter(isObject)
  const named = (branch: Json) => (typeof branch['name'] === 'string' ? [branch['name']] : [])
  return [
    ...branches.filter((branch) => branch['isMain'] === true).flatMap(named),
    ...branches.filter((branch) => branch['isMain'] !== true).flatMap(named)
  ]
}

/** A pull request the server has analysed (`api/project_pull_requests/list`). */
export interface PullRequestOnServer {
  key: string
  /** The date of its newest analysis, when one has landed. */
  analysisDate: string | undefined
  /** The branch the server compares it with (its merge branch), when the server has it. */
  base?: string
  /** The target branch the scan named (9.x and later), which may be unknown to the server. */
  target?: string
}

/**
 * Decodes `GET api/project_pull_requests/list`: `{pullRequests: [{key, analysisDate, ...}]}`,
 * every pull request of the project in one unpaged reply (its size bounded by the transport).
 */
export function decodePullRequests(body: unknown): PullRequestOnServer[] {
  expectList(body, 'pullRequests')
  return body.pullRequests.filter(isObject).flatMap((pull): PullRequestOnServer[] => {
    const key = optionalString(pull['key'])
    if (!key) return []
    const date = optionalString(pull['analysisDate'])
    const [base, target] = [branchName(pull['base']), branchName(pull['target'])]
    return [
      {
        key,
        analysisDate: date ? oneLine(date, 60) : undefined,
        ...(base ? { base } : {}),
        ...(target ? { target } : {})
      }
    ]
  })
}

/**
 * Decodes `GET api/measures/component?metricKeys=alert_status,quality_gate_details` as the gate
 * of the branch's or pull request's latest analysis: `alert_status` is its status, and
 * `quality_gate_details` (a JSON string: `{level, conditions: [{metric, op, period?, error,
 * warning?, actual, level}], ignoredConditions}`) its conditions. No `alert_status`: the project
 * has no gate (NONE).
 */
export function decodeGateMeasures(body: unknown): ProjectStatus {
  const component = isObject(body) ? body['component'] : undefined
  if (!isObject(component) || !Array.isArray(component['measures'])) {
    throw new UnexpectedShape('expected {"component": {"measures": [...]}}')
  }
  const measures = component['measures'].filter(isObject)
  const value = (metric: string) =>
    optionalString(measures.find((measure) => measure['metric'] === metric)?.['value'])
  const status = value('alert_status')
  let details: unknown
  try {
    details = JSON.parse(value('quality_gate_details') ?? '{}')
  } catch {
    throw new UnexpectedShape('quality_gate_details is not JSON')
  }
  const conditions =
    isObject(details) && Array.isArray(details['conditions']) ? details['conditions'] : []
  const ignored = isObject(details) ? details['ignoredConditions'] : undefined
  return {
    status: status === undefined ? 'NONE' : statusWord(status, 'alert_status'),
    conditions: conditions.filter(isObject).map((condition) =>
      decodeCondition({
        status: condition['level'],
        metricKey: condition['metric'],
        comparator: condition['op'],
        errorThreshold: condition['error'],
        warningThreshold: condition['warning'],
        actualValue: condition['actual'],
        periodIndex: condition['period']
      })
    ),
    ignoredConditions: typeof ignored === 'boolean' ? ignored : undefined
  }
}
