import path from 'node:path'
import { readBoundedFile } from './bounded-file.js'
import { messageOf, ReportFileError } from './errors.js'
import { idProblem } from './identifier.js'
import { escapeInvisible, hideCredentials, oneLine, QUOTE_LIMITS } from './untrusted-text.js'
import { msg, place, setting, settingOrVariable, theSetting } from './words.js'

/**
 * What the scanner says about the analysis it submitted, from report-task.txt. Only the task id
 * is always there; which addresses the check needs depends on the host setting (see taskAddress).
 */
export interface ReportTask {
  /** The file it came from, as given or found (relative to the working directory). */
  file: string
  serverUrl: URL | undefined
  ceTaskUrl: URL | undefined
  /** ceTaskId, or else the `id` parameter of ceTaskUrl (all some scanners' fixtures hold). */
  ceTaskId: string
  dashboardUrl: URL | undefined
  projectKey: string | undefined
  serverVersion: string | undefined
  /** Written by scanners for SonarQube Cloud only. */
  organization: string | undefined
}

/** Where each scanner writes the file, in the order the action looks for it. */
export const DEFAULT_REPORT_LOCATIONS = [
  { file: '.scannerwork/report-task.txt', scanner: 'sonar-scanner CLI and the scan actions' },
  { file: 'target/sonar/report-task.txt', scanner: 'Maven' },
  { file: 'build/sonar/report-task.txt', scanner: 'Gradle' },
  { file: '.sonarqube/out/.sonar/report-task.txt', scanner: 'SonarScanner for .NET' }
] as const

/** The largest report file read. Real ones are under 1 KiB; this only stops a wrong file early. */
export const MAX_REPORT_BYTES = 64 * 1024

const WHERE_SCANNERS_WRITE = DEFAULT_REPORT_LOCATIONS.map(
  ({ file, scanner }) => `${file} (${scanner})`
).join(', ')

const POINT_AT_THE_REPORT = msg`Scanners write ${WHERE_SCANNERS_WRITE}; point ${setting('reportFile')} at that file, not at another one.`

/** Reads a file's text, or undefined when it does not exist. */
export type TextFileReader = (file: string) => Promise<string | undefined>

/**
 * Reads a report file, refusing anything that is not a small regular text file (see
 * readBoundedFile: a pipe or a device is refused at once, never waited on).
 */
export const readTextFile: TextFileReader = async (file) => {
  const read = await readBoundedFile(file, MAX_REPORT_BYTES)
  if (read.outcome === 'missing') return undefined
  if (read.outcome === 'unreadable') {
    throw new ReportFileError(
      msg`Cannot read the report file ${oneLine(file, QUOTE_LIMITS.long)}: ${oneLine(messageOf(read.error), QUOTE_LIMITS.long)}. Check ${theSetting('reportFile')}.`,
      { cause: read.error }
    )
  }
  if (read.outcome === 'not-a-file') {
    throw new ReportFileError(
      msg`Report file ${oneLine(file, QUOTE_LIMITS.long)} is ${read.kind}, not a regular file. ${POINT_AT_THE_REPORT}`
    )
  }
  if (read.outcome === 'too-large') {
    throw new ReportFileError(
      msg`Report file ${oneLine(file, QUOTE_LIMITS.long)} is larger than ${MAX_REPORT_BYTES / 1024} KiB, so it is not a scanner's report-task.txt (those are under 1 KiB). ${POINT_AT_THE_REPORT}`
    )
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes)
  } catch {
    throw notTextError(oneLine(file, QUOTE_LIMITS.long), 'it is not UTF-8 text')
  }
}

function notTextError(name: string, why: string): ReportFileError {
  return new ReportFileError(
    msg`Report file ${name} is not a text report file: ${why}. ${POINT_AT_THE_REPORT}`
  )
}

/**
 * Finds and parses report-task.txt: the given path, or else the first default location that
 * exists, relative to `cwd`.
 *
 * @example await loadReportFile(undefined, process.cwd()) // finds target/sonar/report-task.txt after Maven
 */
export async function loadReportFile(
  given: string | undefined,
  cwd: string,
  read: TextFileReader = readTextFile
): Promise<ReportTask> {
  const candidates = given ? [given] : DEFAULT_REPORT_LOCATIONS.map(({ file }) => file)
  for (const file of candidates) {
    try {
      const text = await read(path.resolve(cwd, file))
      if (text !== undefined) return parseReportFile(text, file)
    } catch (error) {
      if (error instanceof ReportFileError) error.file = file
      throw error
    }
  }
  throw new ReportFileError(
    given
      ? msg`Report file not found at ${oneLine(given, QUOTE_LIMITS.long)}. Scanners write it to ${WHERE_SCANNERS_WRITE}; set ${setting('reportFile')} to where yours is, and run this step after the analysis in the same job and working directory.`
      : msg`No report file found: looked for ${WHERE_SCANNERS_WRITE}. Run this step after the analysis in the same job and working directory, or set ${setting('reportFile')}.`
  )
}

/**
 * Parses the key=value text a scanner writes. Tolerates CRLF, a UTF-8 BOM, blank lines and `#`
 * comments; values keep any `=` they contain. Throws a ReportFileError naming the file and key.
 *
 * @example parseReportFile('serverUrl=https://sonar.example.com\n...', 'target/sonar/report-task.txt')
 */
export function parseReportFile(text: string, file: string): ReportTask {
  const name = oneLine(file, QUOTE_LIMITS.long)
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  lines.forEach((line, index) => {
    // Tab, CR and LF are the only control characters a text file has any business holding.
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.exec(line)
    if (control) {
      throw notTextError(
        name,
        `line ${index + 1} holds the control character ${escapeInvisible(control[0])}`
      )
    }
  })

  const values = new Map<string, string>()
  for (const rawLine of lines) {
    const line = rawLine.trim()
    if (line === '' || line.startsWith('#')) continue
    const separator = line.indexOf('=')
    if (separator <= 0) {
      throw new ReportFileError(
        msg`Report file ${name} has a line that is not key=value: "${oneLine(line, 80)}". ${POINT_AT_THE_REPORT}`
      )
    }
    values.set(line.slice(0, separator).trim(), line.slice(separator + 1).trim())
  }

  const value = (key: string): string | undefined => values.get(key) || undefined
  const url = (key: string): URL | undefined => {
    const text = value(key)
    return text === undefined ? undefined : httpUrl(name, key, text)
  }
  const id = (key: string, text: string | undefined): string | undefined => {
    const problem = text === undefined ? undefined : idProblem(text)
    if (problem) {
      throw new ReportFileError(
        msg`Report file ${name}: ${key} "${oneLine(text ?? '')}" ${problem}. The scanner never writes such a value: ${POINT_AT_THE_REPORT}`
      )
    }
    return text
  }

  const ceTaskUrl = url('ceTaskUrl')
  return {
    file,
    serverUrl: url('serverUrl'),
    ceTaskUrl,
    ceTaskId: taskId(
      name,
      id('ceTaskId', value('ceTaskId')),
      ceTaskUrl && id('the id in ceTaskUrl', ceTaskUrl.searchParams.get('id') || undefined)
    ),
    dashboardUrl: url('dashboardUrl'),
    projectKey: id('projectKey', value('projectKey')),
    serverVersion: value('serverVersion'),
    organization: value('organization')
  }
}

/** An http(s) address without credentials, or a ReportFileError that never shows them. */
function httpUrl(name: string, key: string, text: string): URL {
  if (!URL.canParse(text)) {
    throw new ReportFileError(
      `Report file ${name}: ${key} "${oneLine(hideCredentials(text), QUOTE_LIMITS.long)}" is not a URL.`
    )
  }
  const parsed = new URL(text)
  if (parsed.username || parsed.password) {
    throw new ReportFileError(
      msg`Report file ${name}: ${key} holds credentials (user:password@), which ${place('self')} never sends anywhere. Remove them from the address; the token goes in ${settingOrVariable('token')}.`
    )
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ReportFileError(
      `Report file ${name}: ${key} "${oneLine(text, QUOTE_LIMITS.long)}" must be an http:// or https:// address.`
    )
  }
  return parsed
}

/** The task to wait for: ceTaskId, or else the id ceTaskUrl asks for; both must agree. */
function taskId(name: string, fromKey: string | undefined, fromUrl: string | undefined): string {
  if (fromKey !== undefined && fromUrl !== undefined && fromKey !== fromUrl) {
    throw new ReportFileError(
      msg`Report file ${name}: ceTaskId "${oneLine(fromKey)}" and the id in ceTaskUrl "${oneLine(fromUrl)}" differ, so it is not clear which analysis task to wait for. The scanner writes the same id in both: ${POINT_AT_THE_REPORT}`
    )
  }
  const id = fromKey ?? fromUrl
  if (id === undefined) {
    throw new ReportFileError(
      msg`Report file ${name} has no ceTaskId and no ceTaskUrl with an id parameter: ${place('self')} needs serverUrl and ceTaskUrl (…/api/ce/task?id=<task id>), or ceTaskId with ${theSetting('host')} set. The scanner writes them with every analysis: make sure the file is the scanner's own report-task.txt (${WHERE_SCANNERS_WRITE}) from this run.`
    )
  }
  return id
}

/**
 * Where to ask for the report's task. With the host setting, the address is built from the host
 * and the file needs only the task id; without it, the file must give serverUrl and ceTaskUrl.
 *
 * @example taskAddress(report, settings.hostUrl) // { serverUrl, taskUrl: undefined } with a host
 */
export function taskAddress(
  report: ReportTask,
  host: URL | undefined
): { serverUrl: URL; taskUrl: URL | undefined } {
  // The host replaces the file's addresses entirely: they are never used, whatever they say.
  if (host) return { serverUrl: host, taskUrl: undefined }
  const needed = (key: 'serverUrl' | 'ceTaskUrl'): URL => {
    const url = report[key]
    if (!url) {
      throw new ReportFileError(
        msg`Report file ${oneLine(report.file, QUOTE_LIMITS.long)} has no ${key}. The scanner writes it with every analysis: make sure the file is the scanner's own report-task.txt (${WHERE_SCANNERS_WRITE}) from this run, or set ${theSetting('host')} to build the task address from the server's address.`
      )
    }
    return url
  }
  const serverUrl = needed('serverUrl')
  const taskUrl = needed('ceTaskUrl')
  // The address is asked as written: without the id, the server would not know which task.
  if (!taskUrl.searchParams.get('id')) {
    throw new ReportFileError(
      msg`Report file ${oneLine(report.file, QUOTE_LIMITS.long)}: ceTaskUrl has no id parameter, so it does not say which task to ask for; the scanner writes …/api/ce/task?id=<ceTaskId>. Point ${setting('reportFile')} at the scanner's own file, or set ${theSetting('host')} to build the task address from the server's address.`
    )
  }
  return { serverUrl, taskUrl }
}
