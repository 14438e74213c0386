import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { ReportFileError } from './errors.js'

/** What the scanner says about the analysis it submitted, from report-task.txt. */
export interface ReportTask {
  /** The file it came from, as given or found (relative to the working directory). */
  file: string
  serverUrl: URL
  ceTaskUrl: URL
  ceTaskId: string
  dashboardUrl: URL | undefined
  projectKey: string | undefined
  serverVersion: string | undefined
}

/** Where each scanner writes the file, in the order the action looks for it. */
export const DEFAULT_REPORT_LOCATIONS = [
  { file: '.scannerwork/report-task.txt', scanner: 'sonar-scanner CLI and the scan actions' },
  { file: 'target/sonar/report-task.txt', scanner: 'Maven' },
  { file: 'build/sonar/report-task.txt', scanner: 'Gradle' },
  { file: '.sonarqube/out/.sonar/report-task.txt', scanner: 'SonarScanner for .NET' }
] as const

const WHERE_SCANNERS_WRITE = DEFAULT_REPORT_LOCATIONS.map(
  ({ file, scanner }) => `${file} (${scanner})`
).join(', ')

/** Reads a file's text, or undefined when it does not exist. */
export type TextFileReader = (file: string) => Promise<string | undefined>

export const readTextFile: TextFileReader = async (file) => {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ReportFileError(
      `Cannot read the report file ${file}: ${(error as Error).message}. Check the scanMetadataReportFile input.`
    )
  }
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
    const text = await read(path.resolve(cwd, file))
    if (text !== undefined) return parseReportFile(text, file)
  }
  throw new ReportFileError(
    given
      ? `Report file not found at ${given}. Scanners write it to ${WHERE_SCANNERS_WRITE}; set scanMetadataReportFile to where yours is, and run this step after the analysis in the same job and working directory.`
      : `No report file found: looked for ${WHERE_SCANNERS_WRITE}. Run this step after the analysis in the same job and working directory, or set scanMetadataReportFile.`
  )
}

/**
 * Parses the key=value text a scanner writes. Tolerates CRLF, a UTF-8 BOM, blank lines and `#`
 * comments; values keep any `=` they contain. Throws a ReportFileError naming the file and key.
 *
 * @example parseReportFile('serverUrl=https://sonar.example.com\n...', 'target/sonar/report-task.txt')
 */
export function parseReportFile(text: string, file: string): ReportTask {
  const values = new Map<string, string>()
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = rawLine.trim()
    if (line === '' || line.startsWith('#')) continue
    const separator = line.indexOf('=')
    if (separator <= 0) {
      throw new ReportFileError(
        `Report file ${file} has a line that is not key=value: "${line.slice(0, 80)}". Scanners write ${WHERE_SCANNERS_WRITE}; point scanMetadataReportFile at that file, not at another one.`
      )
    }
    values.set(line.slice(0, separator).trim(), line.slice(separator + 1).trim())
  }

  const required = (key: string): string => {
    const value = values.get(key)
    if (!value) {
      throw new ReportFileError(
        `Report file ${file} has no ${key}. The scanner writes it with every analysis: make sure the file is the scanner's own report-task.txt (${WHERE_SCANNERS_WRITE}) from this run.`
      )
    }
    return value
  }
  const url = (key: string, value: string): URL => {
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      throw new ReportFileError(`Report file ${file}: ${key} "${value}" is not a URL.`)
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new ReportFileError(
        `Report file ${file}: ${key} "${value}" must be an http:// or https:// address.`
      )
    }
    return parsed
  }
  const dashboard = values.get('dashboardUrl')

  return {
    file,
    serverUrl: url('serverUrl', required('serverUrl')),
    ceTaskUrl: url('ceTaskUrl', required('ceTaskUrl')),
    ceTaskId: required('ceTaskId'),
    dashboardUrl: dashboard ? url('dashboardUrl', dashboard) : undefined,
    projectKey: values.get('projectKey') || undefined,
    serverVersion: values.get('serverVersion') || undefined
  }
}
