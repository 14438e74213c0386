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
  SETTING_KEYS,
  setting,
  settingOrVariable,
  settingTitle,
  settingsTitle,
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
export const MAX_REPORT_PATTERNS = 100

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
      `${settingsTitle('task')} and ${setting('analysis')} are both set: set one of them (${setting('analysis')} skips the task).`
    )
  }
  for (const key of ['task', 'analysis'] as const) {
    if ((key === 'task' ? taskId : analysisId) && !hostUrl) {
      throw new SettingsError(
        `${settingTitle(key)} needs the server address: set ${theSetting('host')} or the SONAR_HOST_URL environment variable.`
      )
    }
  }

  return {
    reportFiles: reportPatterns(raw.reportFile ?? ''),
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
    analysisId
  }
}

/**
 * A file to write, relative to the working directory: one line, no control characters;
 * undefined when not given.
 */
export function fileSetting(raw: RawSettings, key: SettingKey): string | undefined {
  const value = raw[key]?.trim()
  if (!value) return undefined
  // eslint-disable-next-line no-control-regex
  if (value.length > 1000 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new SettingsError(
      `${settingTitle(key)} "${oneLine(value)}" is not a file path: give one path, relative to the working directory, e.g. sonar-issues.sarif.`
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
  throw new SettingsError(`${settingTitle(key)} is "${oneLine(value)}": it must be true or false.`)
}

/** The input's non-empty lines, each trimmed: paths or globs of report files. */
function reportPatterns(raw: string): string[] {
  const lines = raw
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  if (lines.length > MAX_REPORT_PATTERNS) {
    throw new SettingsError(
      `${settingTitle('reportFile')} has ${lines.length} lines: give at most ${MAX_REPORT_PATTERNS} paths or globs (one glob such as **/report-task.txt finds every analysis in the workspace).`
    )
  }
  for (const line of lines) {
    const problem = patternProblem(line)
    if (problem) {
      throw new SettingsError(
        `${settingTitle('reportFile')} has the line "${oneLine(line)}": ${problem}. Give paths or globs of report-task.txt files relative to the working directory, one per line.`
      )
    }
  }
  return lines
}

/** Why a report path or glob cannot be used, or undefined. */
function patternProblem(line: string): string | undefined {
  if (line.length > 1000) return 'it is longer than 1,000 characters'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(line)) return 'it holds a control character'
  if (line.startsWith('!')) return 'exclusions (!) are not supported'
  return undefined
}

function optionalUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined
  const host = settingWithVariable('host')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new SettingsError(
      `${host} "${oneLine(hideCredentials(value))}" is not a URL: give the server's address, e.g. https://sonarcloud.io or https://sonar.example.com.`
    )
  }
  if (url.username || url.password) {
    throw new SettingsError(
      `${host} must not contain credentials: pass the token in ${settingOrVariable('token')}.`
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingsError(
      `${host} must start with https:// or http://, not ${oneLine(url.protocol)}//.`
    )
  }
  // API paths are appended to the address: a query or fragment would end up in the middle.
  // The value is not quoted: a query is where a token pasted by mistake would be.
  if (/[?#]/.test(url.href)) {
    throw new SettingsError(
      `${host} must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar.`
    )
  }
  return url
}

function optionalCertificate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!value.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SettingsError(
      `${settingWithVariable('rootCert')} is not a PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (the CA certificate itself, not a file path).`
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
    throw new SettingsError(`${settingTitle(key)} "${oneLine(value)}" ${problem}: give ${where}.`)
  }
  return value
}

/**
 * The statuses that fail the step: ERROR, WARN and NONE, separated by commas or lines, in any
 * case; empty: ERROR alone. ERROR must be among them: a policy without it would let a failed
 * gate pass, which is what failStep false says plainly.
 */
function failPolicy(raw: string): FailPolicy {
  const words = raw
    .split(/[,\r\n]/)
    .map((word) => word.trim())
    .filter((word) => word !== '')
  if (words.length === 0) return FAIL_ON_ERROR
  const allowed = FAILING_STATUSES.join(', ')
  for (const word of words) {
    if (!(FAILING_STATUSES as readonly string[]).includes(word.toUpperCase())) {
      throw new SettingsError(
        `${settingTitle('failingStatuses')} has "${oneLine(word, QUOTE_LIMITS.short)}": give the gate statuses that fail the step, separated by commas, from ${allowed} (NONE: a project without a gate, or a status no server sends); default ERROR.`
      )
    }
  }
  const policy = new Set(words.map((word) => word.toUpperCase() as FailingStatus))
  if (!policy.has('ERROR')) {
    throw new SettingsError(
      `${settingTitle('failingStatuses')} is "${oneLine(raw.trim(), QUOTE_LIMITS.short)}": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see ${setting('failStep')}.`
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
      `${settingTitle(key)} is "${oneLine(value)}": it must be a whole number from ${min} to ${max} (at most 5 days, the longest a job may run on a self-hosted runner); default ${fallback}.`
    )
  }
  return Number(value)
}
