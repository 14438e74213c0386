import { stat } from 'node:fs/promises'
import path from 'node:path'
import { asError, ReportFileError } from '../errors.js'
import type { Log } from '../log.js'
import {
  loadReportFile,
  readTextFile,
  taskAddress,
  type ReportTask,
  type TextFileReader
} from '../report-file.js'
import { redactSecrets, tokenForms } from '../secrets.js'
import type { RunStart, Settings } from '../settings.js'
import { scopeWords, type AnalysisScope } from '../sonar/client.js'
import { serverBase } from '../sonar/origin.js'
import { serverKind, type ServerKind } from '../sonar/server-kind.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { msg, setting } from '../words.js'

/** Where to look: the server, and either a task to wait for or an analysis to read at once. */
export type Target = {
  serverUrl: URL
  /** Which server it is, as far as the report file says. */
  kind: ServerKind
  dashboardUrl: string | undefined
  projectKey: string | undefined
  /** The report file it came from (relative to the working directory); none for an input's id. */
  reportFile?: string
} & (
  | { wait: 'task'; taskId: string; taskUrl: URL | undefined }
  | { wait: 'analysis'; analysisId: string }
  | {
      /** The analysis of a commit (or the newest) on a project's branch or pull request. */
      wait: 'commit'
      projectKey: string
      on: AnalysisScope
      /** Its full SHA, or a pull request's head and merge commits; none: the newest analysis. */
      commits: string[]
      /** For a pull request: the newest analysis made after this is the run's. */
      since?: RunStart
    }
)

/** One analysis to check, or why its report file could not be used. */
type FoundTarget =
  { source: string; target: Target } | { source: string; projectKey: undefined; error: Error }

/**
 * The files a glob matches, relative to `cwd`, in a stable order; at most `limit` of them (one
 * more tells the caller there were too many).
 */
export type FileFinder = (pattern: string, cwd: string, limit: number) => Promise<string[]>

export interface TargetSources {
  cwd: string
  log: Log
  readFile?: TextFileReader
  /** Expands the globs of the report files setting; without one, every line is a path. */
  findFiles?: FileFinder
}

/** The most analyses one step checks: a glob matching more is too wide. */
export const MAX_ANALYSES = 50

/** Characters that make a report files line a glob rather than a path. */
const GLOB_CHARACTERS = /[*?[]/

/**
 * The analyses to check: the analysis or task asked for by its id, or else the report files the
 * report files setting's lines name or match (the first default location when it is empty).
 * A file found twice, or two files for the same task, are checked once. A report file that
 * cannot be used is returned with its error, so the others are still checked; finding no file
 * at all throws a ReportFileError that names every line.
 *
 * @example await findTargets(settings, { cwd: process.cwd(), log, findFiles })
 */
export async function findTargets(
  settings: Settings,
  sources: TargetSources
): Promise<FoundTarget[]> {
  const host = settings.hostUrl
  const known = (server: URL) => ({ serverUrl: server, kind: serverKind(server) })
  const manual = { dashboardUrl: undefined, projectKey: undefined }
  const { analysisId, taskId } = settings
  if (host && analysisId) {
    const target: Target = { wait: 'analysis', ...known(host), analysisId, ...manual }
    return [{ source: `analysis ${oneLine(analysisId)}`, target }]
  }
  if (host && taskId) {
    const target: Target = { wait: 'task', ...known(host), taskId, taskUrl: undefined, ...manual }
    return [{ source: `task ${oneLine(taskId)}`, target }]
  }
  if (host && settings.projectKeys.length > 0) {
    const on = { branch: settings.branch, pullRequest: settings.pullRequest }
    return settings.projectKeys.map((projectKey) => ({
      source: `${projectKey}${scopeWords(on)}`,
      target: {
        wait: 'commit',
        ...known(host),
        projectKey,
        on,
        commits: settings.commits,
        ...(settings.since ? { since: settings.since } : {}),
        dashboardUrl: undefined
      }
    }))
  }

  // A report file that quotes the token loses it before anything is made of its values.
  const read = reportTextWithoutToken(sources.readFile ?? readTextFile, settings.token)
  if (settings.reportFiles.length === 0) {
    const report = await loadReportFile(undefined, sources.cwd, read)
    return [{ source: report.file, target: reportTarget(report, host) }]
  }

  const files = await reportFiles(settings.reportFiles, sources)
  const found = await Promise.all(
    files.map(async (file): Promise<FoundTarget> => {
      try {
        return {
          source: file,
          target: reportTarget(await loadReportFile(file, sources.cwd, read), host)
        }
      } catch (error) {
        return { source: file, projectKey: undefined, error: asError(error) }
      }
    })
  )
  return withoutRepeatedTasks(found, sources.log)
}

/** The report's target: its task on its server (or on the host setting, when set). */
function reportTarget(report: ReportTask, host: URL | undefined): Target {
  // With the host setting, the task address is built from it, never taken from the file.
  const { serverUrl, taskUrl } = taskAddress(report, host)
  return {
    wait: 'task',
    serverUrl,
    kind: serverKind(serverUrl, report),
    taskId: report.ceTaskId,
    taskUrl,
    dashboardUrl: report.dashboardUrl?.href,
    projectKey: report.projectKey,
    reportFile: report.file
  }
}

/**
 * The files the lines name: a path as it is (a missing one is reported as missing), a glob
 * expanded, unless a file has that very name (`reports[1]/report-task.txt`). Each file once, in
 * the order of the lines; at most MAX_ANALYSES.
 */
async function reportFiles(lines: readonly string[], sources: TargetSources): Promise<string[]> {
  const files = new Map<string, string>()
  for (const line of lines) {
    const matches =
      GLOB_CHARACTERS.test(line) && sources.findFiles && !(await exists(sources.cwd, line))
        ? await sources.findFiles(line, sources.cwd, MAX_ANALYSES + 1)
        : [line]
    if (matches.length === 0) sources.log.info(`No report file matches ${shown(line)}.`)
    for (const file of matches) {
      const key = path.resolve(sources.cwd, file)
      if (!files.has(key)) files.set(key, file)
    }
    if (files.size > MAX_ANALYSES) {
      throw new ReportFileError(
        msg`${setting('reportFile')} matches more than ${MAX_ANALYSES} report files (${shown(line)} among them): one step checks at most ${MAX_ANALYSES} analyses. Narrow the globs, e.g. services/*/target/sonar/report-task.txt rather than **/report-task.txt, which also finds copies in dependencies.`
      )
    }
  }
  // One path that is missing keeps its own message (where scanners write the file); several
  // lines of which none finds a file are named together.
  const found = [...files.values()]
  const nothing =
    files.size === 0 ||
    (lines.length > 1 &&
      !(await Promise.all(found.map((file) => exists(sources.cwd, file)))).some(Boolean))
  if (nothing) {
    throw new ReportFileError(
      msg`No report file matches ${setting('reportFile')}: ${lines.map(shown).join(', ')} (relative to ${shown(sources.cwd)}). Run this step after the analyses, in the same job and working directory; scanners write report-task.txt in .scannerwork/, target/sonar/, build/sonar/ or .sonarqube/out/.sonar/.`
    )
  }
  return found
}

/** Two report files for the same task on the same server: the first is kept, the other logged. */
function withoutRepeatedTasks(found: FoundTarget[], log: Log): FoundTarget[] {
  const seen = new Map<string, string>()
  return found.filter((entry) => {
    if (!('target' in entry) || entry.target.wait !== 'task') return true
    const key = `${serverBase(entry.target.serverUrl).href} ${entry.target.taskId}`
    const first = seen.get(key)
    if (first === undefined) {
      seen.set(key, entry.source)
      return true
    }
    log.info(
      `${shown(entry.source)} is for the same task as ${shown(first)} (${oneLine(entry.target.taskId)}): it is checked once.`
    )
    return false
  })
}

async function exists(cwd: string, file: string): Promise<boolean> {
  try {
    await stat(path.resolve(cwd, file))
    return true
  } catch {
    return false
  }
}

function shown(text: string): string {
  return `"${oneLine(text, QUOTE_LIMITS.long)}"`
}

/** `read`, with every form of the token removed from the text it returns. */
function reportTextWithoutToken(read: TextFileReader, token: string | undefined): TextFileReader {
  const forms = token ? tokenForms(token) : []
  if (forms.length === 0) return read
  return async (file) => {
    const text = await read(file)
    return text === undefined ? undefined : redactSecrets(text, forms)
  }
}
