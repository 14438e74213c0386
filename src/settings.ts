import { SettingsError } from './errors.js'
import {
  FAIL_ON_ERROR,
  FAILING_STATUSES,
  type FailingStatus,
  type FailPolicy
} from './fail-policy.js'
import { idProblem } from './identifier.js'
import { hideCredentials, oneLine, QUOTE_LIMITS } from './untrusted-text.js'

/** What the action was asked to do, validated. Keys follow action.yml's input names. */
export interface Settings {
  /**
   * Where the report files are: paths or globs (`**` for any folders), one per line, relative to
   * the working directory. Empty: the first of the scanners' default locations that exists.
   */
  scanMetadataReportFile: string[]
  /** Token for the server; undefined: send no credentials (public projects). */
  sonarToken: string | undefined
  /** Overrides the report's serverUrl; the task address is then built from it. */
  sonarHostUrl: URL | undefined
  /** PEM of an extra CA trusted for this action's requests only. */
  sonarRootCert: string | undefined
  /** Overall time-out in milliseconds, counted from the step's start. */
  pollingTimeoutMs: number
  /** Wait before the first poll, in milliseconds. */
  initialDelayMs: number
  /** Wait between polls, in milliseconds. */
  pollingIntervalMs: number
  /**
   * true when pollingIntervalMs was not given: polls may then gather around the task's predicted
   * end. A given interval is honoured exactly.
   */
  adaptivePolling: boolean
  /** false: report an ERROR gate without failing the job. */
  failOnError: boolean
  /**
   * The gate statuses that fail the step (ERROR always among them); failOnError false wins:
   * then nothing fails it.
   */
  failOn: FailPolicy
  /** Check this compute-engine task instead of reading a report file. */
  taskId: string | undefined
  /** Skip the task and read the gate of this analysis directly. */
  analysisId: string | undefined
  /** Comment each project's verdict on the pull request the workflow runs for. */
  pullRequestComment: boolean
  /** Token for GitHub's API: the pull-request comment, the check run, the pull request's lines. */
  githubToken: string | undefined
  /** Annotate the new issues on the diff (the summary and files list them either way). */
  annotateIssues: boolean
  /** One check run per project carrying every new issue as an annotation. */
  issuesCheckRun: boolean
  /** Where to write the new issues as SARIF 2.1.0; undefined: nowhere. */
  sarifFile: string | undefined
}

/** Reads one input by its action.yml name; returns '' when unset, like `core.getInput`. */
export type InputReader = (name: string) => string

export const DEFAULTS = {
  pollingTimeoutSec: 60,
  initialDelayMs: 3000,
  pollingIntervalMs: 1000,
  failOnError: true,
  pullRequestComment: false,
  annotateIssues: true,
  issuesCheckRun: false
} as const

/** The most lines scanMetadataReportFile may have (each a path or a glob). */
export const MAX_REPORT_PATTERNS = 100

/**
 * The longest wait any input may ask for: 5 days, the longest a job on a self-hosted runner may
 * run (GitHub-hosted jobs stop at 6 hours). Anything longer is a typo, and a timer past 2^31 ms
 * would overflow in Node and fire at once, turning the poll loop hot.
 */
export const LIMITS = {
  pollingTimeoutSec: 432_000,
  initialDelayMs: 432_000_000,
  pollingIntervalMs: 432_000_000
} as const

/** The settings a message may name, by their action.yml input names. */
export type NamedSetting = keyof typeof ACTION_INPUTS.names

/**
 * How error messages name the settings: the action names its inputs ("Input pollingIntervalMs
 * is …"), the command its options ("Option --interval is …"). A setting named undefined has no
 * name of its own there (the command takes the token from SONAR_TOKEN only): messages then name
 * its environment variable alone.
 */
export interface SettingNames {
  /** What one of them is called, capitalised: "Input", "Option". */
  kind: string
  names: Record<NamedSetting, string | undefined>
}

/** The action's names: action.yml's inputs. */
export const ACTION_INPUTS = {
  kind: 'Input',
  names: {
    scanMetadataReportFile: 'scanMetadataReportFile',
    sonarToken: 'sonarToken',
    sonarHostUrl: 'sonarHostUrl',
    sonarRootCert: 'sonarRootCert',
    pollingTimeoutSec: 'pollingTimeoutSec',
    initialDelayMs: 'initialDelayMs',
    pollingIntervalMs: 'pollingIntervalMs',
    failOnError: 'failOnError',
    failOn: 'failOn',
    taskId: 'taskId',
    analysisId: 'analysisId',
    pullRequestComment: 'pullRequestComment',
    annotateIssues: 'annotateIssues',
    issuesCheckRun: 'issuesCheckRun',
    sarifFile: 'sarifFile'
  }
} as const satisfies { kind: string; names: Record<string, string> }

/**
 * Turns the step's inputs and environment into Settings, or throws a SettingsError naming the
 * input that is wrong. Defaults apply here too: the bundle may run without the runner filling
 * in action.yml's defaults. `names` says how messages name each setting (the command passes its
 * options); the action's messages name its inputs.
 *
 * @example readSettings(core.getInput, process.env)
 */
export function readSettings(
  input: InputReader,
  env: NodeJS.ProcessEnv,
  names: SettingNames = ACTION_INPUTS
): Settings {
  const named = namer(names)
  const text = (name: string, envName?: string): string | undefined => {
    const value = input(name).trim() || (envName ? env[envName]?.trim() : undefined)
    return value ? value : undefined
  }

  const sonarHostUrl = optionalUrl(text('sonarHostUrl', 'SONAR_HOST_URL'), named)
  const sonarRootCert = optionalCertificate(text('sonarRootCert', 'SONAR_ROOT_CERT'), named)
  const taskId = optionalId('taskId', text('taskId'), named)
  const analysisId = optionalId('analysisId', text('analysisId'), named)

  if (taskId && analysisId) {
    throw new SettingsError(
      `${names.kind}s ${named.bare('taskId')} and ${named.bare('analysisId')} are both set: set one of them (${named.bare('analysisId')} skips the task).`
    )
  }
  for (const name of ['taskId', 'analysisId'] as const) {
    if ((name === 'taskId' ? taskId : analysisId) && !sonarHostUrl) {
      throw new SettingsError(
        `${named.setting(name)} needs the server address: set the ${named.bare('sonarHostUrl')} ${names.kind.toLowerCase()} or the SONAR_HOST_URL environment variable.`
      )
    }
  }

  const pullRequestComment = boolean(
    input,
    'pullRequestComment',
    DEFAULTS.pullRequestComment,
    named
  )
  const githubToken = text('githubToken', 'GITHUB_TOKEN')
  const sarifFile = optionalFile(text('sarifFile'), 'sarifFile', named)
  return {
    scanMetadataReportFile: reportPatterns(input('scanMetadataReportFile'), named),
    // Trimmed like every input: a secret pasted with a trailing newline still works.
    sonarToken: text('sonarToken', 'SONAR_TOKEN'),
    sonarHostUrl,
    sonarRootCert,
    pollingTimeoutMs: integer(input, 'pollingTimeoutSec', { min: 1 }, named) * 1000,
    initialDelayMs: integer(input, 'initialDelayMs', { min: 0 }, named),
    pollingIntervalMs: integer(input, 'pollingIntervalMs', { min: 1 }, named),
    adaptivePolling: input('pollingIntervalMs').trim() === '',
    failOnError: boolean(input, 'failOnError', DEFAULTS.failOnError, named),
    failOn: failPolicy(input('failOn'), named),
    taskId,
    analysisId,
    pullRequestComment,
    githubToken,
    annotateIssues: boolean(input, 'annotateIssues', DEFAULTS.annotateIssues, named),
    issuesCheckRun: boolean(input, 'issuesCheckRun', DEFAULTS.issuesCheckRun, named),
    sarifFile
  }
}

/** A file to write, relative to the working directory: one line, no control characters. */
function optionalFile(
  value: string | undefined,
  name: 'sarifFile',
  named: Namer
): string | undefined {
  if (value === undefined) return undefined
  // eslint-disable-next-line no-control-regex
  if (value.length > 1000 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new SettingsError(
      `${named.setting(name)} "${oneLine(value)}" is not a file path: give one path, relative to the working directory, e.g. sonar-issues.sarif.`
    )
  }
  return value
}

/** How messages name a setting, from SettingNames. */
interface Namer {
  /** "Input taskId", "Option --task-id". */
  setting(name: NamedSetting): string
  /** "taskId", "--task-id"; the setting's own key when it has no name there. */
  bare(name: NamedSetting): string
  /** "sonarHostUrl (or SONAR_HOST_URL)"; "SONAR_TOKEN" alone for a setting without a name. */
  withVariable(name: NamedSetting, variable: string): string
  /** "sonarToken or SONAR_TOKEN"; "SONAR_TOKEN" alone for a setting without a name. */
  orVariable(name: NamedSetting, variable: string): string
}

function namer({ kind, names }: SettingNames): Namer {
  return {
    setting: (name) => `${kind} ${names[name] ?? name}`,
    bare: (name) => names[name] ?? name,
    withVariable: (name, variable) => {
      const own = names[name]
      return own ? `${own} (or ${variable})` : variable
    },
    orVariable: (name, variable) => {
      const own = names[name]
      return own ? `${own} or ${variable}` : variable
    }
  }
}

/** The input's non-empty lines, each trimmed: paths or globs of report files. */
function reportPatterns(raw: string, named: Namer): string[] {
  const lines = raw
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  if (lines.length > MAX_REPORT_PATTERNS) {
    throw new SettingsError(
      `${named.setting('scanMetadataReportFile')} has ${lines.length} lines: give at most ${MAX_REPORT_PATTERNS} paths or globs (one glob such as **/report-task.txt finds every analysis in the workspace).`
    )
  }
  for (const line of lines) {
    const problem = patternProblem(line)
    if (problem) {
      throw new SettingsError(
        `${named.setting('scanMetadataReportFile')} has the line "${oneLine(line)}": ${problem}. Give paths or globs of report-task.txt files relative to the working directory, one per line.`
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

function optionalUrl(value: string | undefined, named: Namer): URL | undefined {
  if (value === undefined) return undefined
  const host = named.withVariable('sonarHostUrl', 'SONAR_HOST_URL')
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
      `${host} must not contain credentials: pass the token in ${named.orVariable('sonarToken', 'SONAR_TOKEN')}.`
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

function optionalCertificate(value: string | undefined, named: Namer): string | undefined {
  if (value === undefined) return undefined
  if (!value.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SettingsError(
      `${named.withVariable('sonarRootCert', 'SONAR_ROOT_CERT')} is not a PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (the CA certificate itself, not a file path).`
    )
  }
  return value
}

function optionalId(
  name: 'taskId' | 'analysisId',
  value: string | undefined,
  named: Namer
): string | undefined {
  if (value === undefined) return undefined
  const problem = idProblem(value)
  if (problem) {
    const where =
      name === 'taskId'
        ? 'the ceTaskId of report-task.txt, or the id of the task on the server'
        : "the analysisId of a finished task (the server's api/ce/task answer)"
    throw new SettingsError(`${named.setting(name)} "${oneLine(value)}" ${problem}: give ${where}.`)
  }
  return value
}

/**
 * The statuses that fail the step: ERROR, WARN and NONE, separated by commas or lines, in any
 * case; empty: ERROR alone. ERROR must be among them: a policy without it would let a failed
 * gate pass, which is what failOnError false says plainly.
 */
function failPolicy(raw: string, named: Namer): FailPolicy {
  const words = raw
    .split(/[,\r\n]/)
    .map((word) => word.trim())
    .filter((word) => word !== '')
  if (words.length === 0) return FAIL_ON_ERROR
  const allowed = FAILING_STATUSES.join(', ')
  for (const word of words) {
    if (!(FAILING_STATUSES as readonly string[]).includes(word.toUpperCase())) {
      throw new SettingsError(
        `${named.setting('failOn')} has "${oneLine(word, QUOTE_LIMITS.short)}": give the gate statuses that fail the step, separated by commas, from ${allowed} (NONE: a project without a gate, or a status no server sends); default ERROR.`
      )
    }
  }
  const policy = new Set(words.map((word) => word.toUpperCase() as FailingStatus))
  if (!policy.has('ERROR')) {
    throw new SettingsError(
      `${named.setting('failOn')} is "${oneLine(raw.trim(), QUOTE_LIMITS.short)}": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see ${named.bare('failOnError')}.`
    )
  }
  return policy
}

/** A whole-number input between `min` and its limit; its default when empty. */
function integer(
  input: InputReader,
  name: keyof typeof LIMITS,
  { min }: { min: number },
  named: Namer
): number {
  const raw = input(name).trim()
  const [fallback, max] = [DEFAULTS[name], LIMITS[name]]
  if (raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new SettingsError(
      `${named.setting(name)} is "${oneLine(raw)}": it must be a whole number from ${min} to ${max} (at most 5 days, the longest a job may run on a self-hosted runner); default ${fallback}.`
    )
  }
  return Number(raw)
}

function boolean(
  input: InputReader,
  name: 'failOnError' | 'pullRequestComment' | 'annotateIssues' | 'issuesCheckRun',
  fallback: boolean,
  named: Namer
): boolean {
  const raw = input(name).trim().toLowerCase()
  if (raw === '') return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw new SettingsError(`${named.setting(name)} is "${oneLine(raw)}": it must be true or false.`)
}
