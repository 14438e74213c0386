import { SettingsError } from './errors.js'
import {
  FAIL_ON_ERROR,
  FAILING_STATUSES,
  type FailingStatus,
  type FailPolicy
} from './fail-policy.js'
import { idProblem } from './identifier.js'
import { hideCredentials, oneLine, QUOTE_LIMITS } from './untrusted-text.js'
import {
  msg,
  setting,
  SETTING_KEYS,
  settingOrVariable,
  settingsTitle,
  settingTitle,
  settingWithVariable,
  theSetting,
  type Names,
  type SettingKey
} from './words.js'

/**
 * What the check was asked to do, validated: the same for both edges. Each field is one setting
 * (its key in `src/words.ts`); the edges read them from their own inputs or options.
 */
export interface Settings {
  /**
   * Where the report files are (reportFile): paths or globs (`**` for any folders), one per
   * line, relative to the working directory. Empty: the first of the scanners' default locations
   * that exists.
   */
  reportFiles: string[]
  /** Token for the server (token); undefined: send no credentials (public projects). */
  token: string | undefined
  /** Overrides the report's serverUrl (host); the task address is then built from it. */
  hostUrl: URL | undefined
  /** PEM of an extra CA trusted for the check's requests only (rootCert). */
  rootCert: string | undefined
  /** Overall time-out in milliseconds, counted from the step's start (timeout, in seconds). */
  timeoutMs: number
  /** Wait before the first poll, in milliseconds (initialDelay). */
  initialWaitMs: number
  /** Wait between polls, in milliseconds (interval). */
  intervalMs: number
  /**
   * true when no interval was given: polls may then gather around the task's predicted end. A
   * given interval is honoured exactly.
   */
  adaptivePolling: boolean
  /** false: report a failed gate without failing the step (failStep). */
  failStep: boolean
  /**
   * The gate statuses that fail the step, ERROR always among them (failingStatuses); failStep
   * false wins: then nothing fails it.
   */
  policy: FailPolicy
  /** Check this compute-engine task instead of reading a report file (task). */
  taskId: string | undefined
  /** Skip the task and read the gate of this analysis directly (analysis). */
  analysisId: string | undefined
  /**
   * Check the analyses of these projects instead of a report file (project): the analysis of
   * `commit` on `branch` or `pullRequest`, or, without a commit, the newest one.
   */
  projectKeys: string[]
  /** The branch analysed (branch); none: the pull request's, or the project's main branch. */
  branch: string | undefined
  /** The pull request analysed (pullRequest), as the server keys it (GitHub's number). */
  pullRequest: string | undefined
  /**
   * The commit whose analysis to wait for (commit): a full SHA, or two (a pull request's head
   * and its merge commit: a scan of either is the run's); none: the newest analysis.
   */
  commits: string[]
  /**
   * From the run, never an input: the time before which no scan of this run can have started
   * (the pull request's last update, the triggering run's creation, the pipeline's). A pull
   * request's analyses record no commit the server shows, so its analysis is the newest one
   * made after this; none: its newest analysis, said to be unconfirmed.
   */
  since?: RunStart
  /**
   * From the command's edge, never an input of the action: the commit the run is about when the
   * analysis is found by its task or id (the command's commit setting without projects, the
   * commit it decorates). It never chooses the analysis; when the server records another commit
   * for it, one warning says so.
   */
  runCommit?: string
}

/** When the run's scan cannot have started before, and what says so (for the log). */
export interface RunStart {
  /** Epoch milliseconds. */
  at: number
  /** "the pull request's last update", "the pipeline's creation". */
  what: string
}

/**
 * A RunStart from a timestamp the platform gave (ISO 8601), or undefined when it is not one.
 *
 * @example runStart('2026-11-24T10:00:03Z', "the pipeline's creation") // { at: 1795514403000, what: ... }
 */
export function runStart(value: unknown, what: string): RunStart | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    return undefined
  }
  const at = Date.parse(value)
  return Number.isFinite(at) ? { at, what } : undefined
}

/**
 * Each setting's text as an edge read it: from its input or option, else from the environment
 * variable its names give (`withVariables`). Unset: undefined or ''.
 */
export type RawSettings = Partial<Record<SettingKey, string>>

export const DEFAULTS = {
  timeout: 60,
  initialDelay: 3000,
  interval: 1000,
  failStep: true
} as const

/** The most lines the report files may have (each a path or a glob). */
const MAX_REPORT_PATTERNS = 100

/** The most projects one step checks by key (as many analyses as report files may give). */
const MAX_PROJECTS = 50

/** The longest branch or pull-request name taken (the server keys them in 255 characters). */
export const MAX_BRANCH_LENGTH = 255

/**
 * Whether `text` is a full commit id, as scanners record it: 40 hex digits (SHA-1) or 64
 * (SHA-256), in either case.
 *
 * @example isFullSha('be6c75b85da526349c44e3978374c95e0b80a96d') // true
 */
export function isFullSha(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(text)
}

/**
 * Whether `name` can be a branch or pull request as the server keys it: at most
 * MAX_BRANCH_LENGTH characters, no control, format or line-separating character.
 */
export function isBranchName(name: string): boolean {
  return (
    name !== '' && name.length <= MAX_BRANCH_LENGTH && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)
  )
}

/**
 * The longest wait any setting may ask for: 5 days, the longest a job on a self-hosted runner
 * may run (GitHub-hosted jobs stop at 6 hours). Anything longer is a typo, and a timer past
 * 2^31 ms would overflow in Node and fire at once, turning the poll loop hot. The time-out is in
 * seconds, the waits in milliseconds.
 */
export const LIMITS = {
  timeout: 432_000,
  initialDelay: 432_000_000,
  interval: 432_000_000
} as const

/**
 * `raw` with each setting that was not given taken from its environment variable, when the
 * edge's names give it one (SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT…). A value given wins.
 *
 * @example withVariables({ host: '' }, ACTION_NAMES, { SONAR_HOST_URL: 'https://sonar.example' }) // { host: 'https://sonar.example' }
 */
export function withVariables(raw: RawSettings, names: Names, env: NodeJS.ProcessEnv): RawSettings {
  const filled: RawSettings = { ...raw }
  for (const key of SETTING_KEYS) {
    const variable = names.settings[key].variable
    if (variable && !raw[key]?.trim() && env[variable]?.trim()) filled[key] = env[variable]
  }
  return filled
}

/**
 * Turns the settings' text into Settings, or throws a SettingsError naming the setting that is
 * wrong (by key: each edge says it in its own words). Defaults apply here: the bundle may run
 * without the runner filling in action.yml's defaults.
 *
 * @example readSettings(withVariables({ timeout: '120' }, ACTION_NAMES, process.env))
 */
export function readSettings(raw: RawSettings): Settings {
  const text = (key: SettingKey): string | undefined => raw[key]?.trim() || undefined

  const hostUrl = optionalUrl(text('host'))
  const rootCert = optionalCertificate(text('rootCert'))
  const taskId = optionalId('task', text('task'))
  const analysisId = optionalId('analysis', text('analysis'))

  if (taskId && analysisId) {
    throw new SettingsError(
      msg`${settingsTitle('task')} and ${setting('analysis')} are both set: set one of them (${setting('analysis')} skips the task).`
    )
  }
  const projectKeys = projectKeyLines(raw.project ?? '')
  const reportFiles = reportPatterns(raw.reportFile ?? '')
  const needsHost = (['task', 'analysis', 'project'] as const).find((key) => text(key))
  if (needsHost && !hostUrl) {
    throw new SettingsError(
      msg`${settingTitle(needsHost)} needs the server address: set ${theSetting('host')} or the SONAR_HOST_URL environment variable.`
    )
  }
  const other = (['task', 'analysis', 'reportFile'] as const).find((key) => text(key))
  if (projectKeys.length > 0 && other) {
    throw new SettingsError(
      msg`${settingsTitle('project')} and ${setting(other)} are both set: give the projects whose analyses to check, or ${setting(other)}, not both.`
    )
  }
  const branch = nameSetting('branch', text('branch'))
  const pullRequest = nameSetting('pullRequest', text('pullRequest'))
  const commits = commitSetting(text('commit'))
  if (branch && pullRequest) {
    throw new SettingsError(
      msg`${settingsTitle('branch')} and ${setting('pullRequest')} are both set: an analysis is of a branch or of a pull request; give one.`
    )
  }
  const scoping = (['branch', 'pullRequest', 'commit'] as const).find((key) => text(key))
  if (scoping && projectKeys.length === 0) {
    throw new SettingsError(
      msg`${settingTitle(scoping)} is set without ${setting('project')}: it says which analysis of a project to check; give ${setting('project')} too.`
    )
  }

  return {
    reportFiles,
    // Trimmed like every setting: a secret pasted with a trailing newline still works.
    token: text('token'),
    hostUrl,
    rootCert,
    timeoutMs: integer(raw, 'timeout', { min: 1 }) * 1000,
    initialWaitMs: integer(raw, 'initialDelay', { min: 0 }),
    intervalMs: integer(raw, 'interval', { min: 1 }),
    adaptivePolling: !raw.interval?.trim(),
    failStep: booleanSetting(raw, 'failStep', DEFAULTS.failStep),
    policy: failPolicy(raw.failingStatuses ?? ''),
    taskId,
    analysisId,
    projectKeys,
    branch,
    pullRequest,
    commits
  }
}

/** A list setting's items: split at `separator`, each trimmed, the empty ones dropped. */
function listOf(raw: string, separator: RegExp): string[] {
  return raw
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** The project keys, one per line: each a key the server could have made. */
function projectKeyLines(raw: string): string[] {
  const keys = listOf(raw, /\r\n|\r|\n/)
  if (keys.length > MAX_PROJECTS) {
    throw new SettingsError(
      msg`${settingTitle('project')} has ${keys.length} lines: give at most ${MAX_PROJECTS} project keys, one per line.`
    )
  }
  for (const key of keys) {
    const problem = idProblem(key)
    if (problem) {
      throw new SettingsError(
        msg`${settingTitle('project')} has the line "${oneLine(key)}", which ${problem}: give the project's key as the server shows it (Project Information), one per line.`
      )
    }
  }
  return [...new Set(keys)]
}

/** A branch or pull-request name: one line, no control or invisible character. */
function nameSetting(key: 'branch' | 'pullRequest', value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!isBranchName(value)) {
    throw new SettingsError(
      msg`${settingTitle(key)} is "${oneLine(value)}": give the ${key === 'branch' ? 'branch' : 'pull request'} as the server names it (at most ${MAX_BRANCH_LENGTH} characters, no control characters)${key === 'pullRequest' ? ", GitHub's number for a pull request" : ''}.`
    )
  }
  return value
}

/**
 * The commit whose analysis to wait for: a full SHA-1 or SHA-256, as scanners record it. An
 * abbreviated one cannot be told apart from another's start, so it is refused, never guessed.
 */
function commitSetting(value: string | undefined): string[] {
  if (value === undefined) return []
  const shas = listOf(value, /[,\s]+/).map((sha) => sha.toLowerCase())
  if (!shas.every(isFullSha)) {
    throw new SettingsError(
      msg`${settingTitle('commit')} is "${oneLine(value)}": give the full commit SHA (40 hexadecimal characters, as git rev-parse HEAD prints it); an abbreviated one could match another commit's analysis.`
    )
  }
  if (shas.length > 2) {
    throw new SettingsError(
      msg`${settingTitle('commit')} has ${shas.length} commits: give one (or a pull request's head and merge commits).`
    )
  }
  return [...new Set(shas)]
}

/**
 * A file to write, relative to the working directory: one line, no control characters;
 * undefined when not given.
 */
export function fileSetting(raw: RawSettings, key: SettingKey): string | undefined {
  const value = raw[key]?.trim()
  if (!value) return undefined
  if (pathProblem(value)) {
    throw new SettingsError(
      msg`${settingTitle(key)} "${oneLine(value)}" is not a file path: give one path, relative to the working directory, e.g. sonar-issues.sarif.`
    )
  }
  return value
}

/** `true` or `false` in any case; `fallback` when not given. */
export function booleanSetting(raw: RawSettings, key: SettingKey, fallback: boolean): boolean {
  const value = (raw[key] ?? '').trim().toLowerCase()
  if (value === '') return fallback
  if (value === 'true') return true
  if (value === 'false') return false
  throw new SettingsError(
    msg`${settingTitle(key)} is "${oneLine(value)}": it must be true or false.`
  )
}

/** The input's non-empty lines, each trimmed: paths or globs of report files. */
function reportPatterns(raw: string): string[] {
  const lines = listOf(raw, /\r\n|\r|\n/)
  if (lines.length > MAX_REPORT_PATTERNS) {
    throw new SettingsError(
      msg`${settingTitle('reportFile')} has ${lines.length} lines: give at most ${MAX_REPORT_PATTERNS} paths or globs (one glob such as **/report-task.txt finds every analysis in the workspace).`
    )
  }
  for (const line of lines) {
    const problem =
      pathProblem(line) ?? (line.startsWith('!') ? 'exclusions (!) are not supported' : undefined)
    if (problem) {
      throw new SettingsError(
        msg`${settingTitle('reportFile')} has the line "${oneLine(line)}": ${problem}. Give paths or globs of report-task.txt files relative to the working directory, one per line.`
      )
    }
  }
  return lines
}

/** Why `path` (a file or a report glob) cannot be used, or undefined. */
function pathProblem(path: string): string | undefined {
  if (path.length > 1000) return 'it is longer than 1,000 characters'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it holds a control character'
  return undefined
}

function optionalUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined
  const host = settingWithVariable('host')
  if (!URL.canParse(value)) {
    throw new SettingsError(
      msg`${host} "${oneLine(hideCredentials(value))}" is not a URL: give the server's address, e.g. https://sonarcloud.io or https://sonar.example.com.`
    )
  }
  const url = new URL(value)
  if (url.username || url.password) {
    throw new SettingsError(
      msg`${host} must not contain credentials: pass the token in ${settingOrVariable('token')}.`
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingsError(
      msg`${host} must start with https:// or http://, not ${oneLine(url.protocol)}//.`
    )
  }
  // API paths are appended to the address: a query or fragment would end up in the middle.
  // The value is not quoted: a query is where a token pasted by mistake would be.
  if (/[?#]/.test(url.href)) {
    throw new SettingsError(
      msg`${host} must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar.`
    )
  }
  return url
}

function optionalCertificate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!value.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SettingsError(
      msg`${settingWithVariable('rootCert')} is not a PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (the CA certificate itself, not a file path).`
    )
  }
  return value
}

function optionalId(key: 'task' | 'analysis', value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const problem = idProblem(value)
  if (problem) {
    const where =
      key === 'task'
        ? 'the ceTaskId of report-task.txt, or the id of the task on the server'
        : "the analysisId of a finished task (the server's api/ce/task answer)"
    throw new SettingsError(
      msg`${settingTitle(key)} "${oneLine(value)}" ${problem}: give ${where}.`
    )
  }
  return value
}

/**
 * The statuses that fail the step: ERROR, WARN and NONE, separated by commas or lines, in any
 * case; empty: ERROR alone. ERROR must be among them: a policy without it would let a failed
 * gate pass, which is what failStep false says plainly.
 */
function failPolicy(raw: string): FailPolicy {
  const words = listOf(raw, /[,\r\n]/)
  if (words.length === 0) return FAIL_ON_ERROR
  for (const word of words) {
    if (!(FAILING_STATUSES as readonly string[]).includes(word.toUpperCase())) {
      throw new SettingsError(
        msg`${settingTitle('failingStatuses')} has "${oneLine(word, QUOTE_LIMITS.short)}": give the gate statuses that fail the step, separated by commas, from ${FAILING_STATUSES.join(', ')} (NONE: a project without a gate, or a status no server sends); default ERROR.`
      )
    }
  }
  const policy = new Set(words.map((word) => word.toUpperCase() as FailingStatus))
  if (!policy.has('ERROR')) {
    throw new SettingsError(
      msg`${settingTitle('failingStatuses')} is "${oneLine(raw.trim(), QUOTE_LIMITS.short)}": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see ${setting('failStep')}.`
    )
  }
  return policy
}

/** A whole number between `min` and its limit; its default when not given. */
function integer(raw: RawSettings, key: keyof typeof LIMITS, { min }: { min: number }): number {
  const value = (raw[key] ?? '').trim()
  const [fallback, max] = [DEFAULTS[key], LIMITS[key]]
  if (value === '') return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new SettingsError(
      msg`${settingTitle(key)} is "${oneLine(value)}": it must be a whole number from ${min} to ${max} (at most 5 days, the longest a job may run on a self-hosted runner); default ${fallback}.`
    )
  }
  return Number(value)
}
