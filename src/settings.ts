import { SettingsError } from './errors.js'
import { idProblem } from './identifier.js'
import { hideCredentials, oneLine } from './untrusted-text.js'

/** What the action was asked to do, validated. Keys follow action.yml's input names. */
export interface Settings {
  /** Path of report-task.txt; undefined: search the scanners' default locations. */
  scanMetadataReportFile: string | undefined
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
  /** Check this compute-engine task instead of reading a report file. */
  taskId: string | undefined
  /** Skip the task and read the gate of this analysis directly. */
  analysisId: string | undefined
}

/** Reads one input by its action.yml name; returns '' when unset, like `core.getInput`. */
export type InputReader = (name: string) => string

export const DEFAULTS = {
  pollingTimeoutSec: 60,
  initialDelayMs: 3000,
  pollingIntervalMs: 1000,
  failOnError: true
} as const

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

/**
 * Turns the step's inputs and environment into Settings, or throws a SettingsError naming the
 * input that is wrong. Defaults apply here too: the bundle may run without the runner filling
 * in action.yml's defaults.
 *
 * @example readSettings(core.getInput, process.env)
 */
export function readSettings(input: InputReader, env: NodeJS.ProcessEnv): Settings {
  const text = (name: string, envName?: string): string | undefined => {
    const value = input(name).trim() || (envName ? env[envName]?.trim() : undefined)
    return value ? value : undefined
  }

  const sonarHostUrl = optionalUrl(text('sonarHostUrl', 'SONAR_HOST_URL'))
  const sonarRootCert = optionalCertificate(text('sonarRootCert', 'SONAR_ROOT_CERT'))
  const taskId = optionalId('taskId', text('taskId'))
  const analysisId = optionalId('analysisId', text('analysisId'))

  if (taskId && analysisId) {
    throw new SettingsError(
      'Inputs taskId and analysisId are both set: set one of them (analysisId skips the task).'
    )
  }
  for (const [name, value] of [
    ['taskId', taskId],
    ['analysisId', analysisId]
  ] as const) {
    if (value && !sonarHostUrl) {
      throw new SettingsError(
        `Input ${name} needs the server address: set the sonarHostUrl input or the SONAR_HOST_URL environment variable.`
      )
    }
  }

  return {
    scanMetadataReportFile: text('scanMetadataReportFile'),
    // Trimmed like every input: a secret pasted with a trailing newline still works.
    sonarToken: text('sonarToken', 'SONAR_TOKEN'),
    sonarHostUrl,
    sonarRootCert,
    pollingTimeoutMs: integer(input, 'pollingTimeoutSec', { min: 1 }) * 1000,
    initialDelayMs: integer(input, 'initialDelayMs', { min: 0 }),
    pollingIntervalMs: integer(input, 'pollingIntervalMs', { min: 1 }),
    adaptivePolling: input('pollingIntervalMs').trim() === '',
    failOnError: boolean(input, 'failOnError', DEFAULTS.failOnError),
    taskId,
    analysisId
  }
}

function optionalUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new SettingsError(
      `sonarHostUrl (or SONAR_HOST_URL) "${oneLine(hideCredentials(value))}" is not a URL: give the server's address, e.g. https://sonarcloud.io or https://sonar.example.com.`
    )
  }
  if (url.username || url.password) {
    throw new SettingsError(
      'sonarHostUrl (or SONAR_HOST_URL) must not contain credentials: pass the token in sonarToken or SONAR_TOKEN.'
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingsError(
      `sonarHostUrl (or SONAR_HOST_URL) must start with https:// or http://, not ${oneLine(url.protocol)}//.`
    )
  }
  // API paths are appended to the address: a query or fragment would end up in the middle.
  // The value is not quoted: a query is where a token pasted by mistake would be.
  if (/[?#]/.test(url.href)) {
    throw new SettingsError(
      "sonarHostUrl (or SONAR_HOST_URL) must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar."
    )
  }
  return url
}

function optionalCertificate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!value.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SettingsError(
      'sonarRootCert (or SONAR_ROOT_CERT) is not a PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (the CA certificate itself, not a file path).'
    )
  }
  return value
}

function optionalId(name: 'taskId' | 'analysisId', value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const problem = idProblem(value)
  if (problem) {
    const where =
      name === 'taskId'
        ? 'the ceTaskId of report-task.txt, or the id of the task on the server'
        : "the analysisId of a finished task (the server's api/ce/task answer)"
    throw new SettingsError(`Input ${name} "${oneLine(value)}" ${problem}: give ${where}.`)
  }
  return value
}

/** A whole-number input between `min` and its limit; its default when empty. */
function integer(input: InputReader, name: keyof typeof LIMITS, { min }: { min: number }): number {
  const raw = input(name).trim()
  const [fallback, max] = [DEFAULTS[name], LIMITS[name]]
  if (raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new SettingsError(
      `Input ${name} is "${oneLine(raw)}": it must be a whole number from ${min} to ${max} (at most 5 days, the longest a job may run on a self-hosted runner); default ${fallback}.`
    )
  }
  return Number(raw)
}

function boolean(input: InputReader, name: string, fallback: boolean): boolean {
  const raw = input(name).trim().toLowerCase()
  if (raw === '') return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw new SettingsError(`Input ${name} is "${oneLine(raw)}": it must be true or false.`)
}
