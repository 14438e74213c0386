import { asError, saidOf } from '../errors.js'
import { analysisBaseDir, locator, type FileCheck } from '../findings/locate.js'
import type { Log } from '../log.js'
import type { Settings } from '../settings.js'
import { serverBase } from '../sonar/origin.js'
import type { SonarClient } from '../sonar/client.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { checkTarget, clientFor, type CheckDependencies } from './check.js'
import type { AnalysisOutcome } from './outcome.js'
import { findTargets, type Target, type TargetSources } from './targets.js'
import { msg } from '../words.js'

export type AnalysesDependencies = CheckDependencies &
  Omit<TargetSources, 'log'> & {
    /**
     * The repository's root, which findings' files are relative to (the workspace on a runner);
     * without it findings have no file.
     */
    repoRoot?: string
    /** Whether a path is a file of the checkout (tests pass their own). */
    fileExists?: FileCheck
  }

/**
 * The whole check, for every analysis the settings name: each is waited for and read at the same
 * time under the one overall time-out, with one client (and one kept-alive connection) per
 * server. One analysis that cannot be read does not lose the others' verdicts: each outcome says
 * what became of its analysis. Throws only when there is nothing to check (no report file).
 *
 * With one analysis the log is written as it happens; with several, each analysis's lines are
 * kept and written in one group, named for its project, when it is done, so they never mix.
 *
 * @example const outcomes = await checkQualityGates(readSettings(core.getInput, process.env), deps)
 */
export async function checkQualityGates(
  settings: Settings,
  deps: AnalysesDependencies
): Promise<AnalysisOutcome[]> {
  const found = await findTargets(settings, deps)
  const { repoRoot } = deps
  const locateFiles =
    repoRoot === undefined
      ? undefined
      : (target: Target) =>
          locator(analysisBaseDir(target.reportFile, deps.cwd), repoRoot, deps.fileExists)
  const clients = new Map<string, SonarClient>()
  const clientOf = ({ target }: { target: Target }): SonarClient => {
    const key = serverBase(target.serverUrl).href
    let client = clients.get(key)
    if (!client) {
      client = clientFor(target, settings, deps)
      clients.set(key, client)
    }
    return client
  }

  const several = found.length > 1
  if (several) {
    deps.log.info(
      `Checking ${found.length} analyses at once: ${found.map(({ source }) => oneLine(source, QUOTE_LIMITS.long)).join(', ')}.`
    )
  }
  try {
    return await Promise.all(
      found.map(async (entry): Promise<AnalysisOutcome> => {
        const group = several ? groupedLog(deps.log) : undefined
        const projectKey = 'target' in entry ? entry.target.projectKey : undefined
        try {
          if (!('target' in entry)) throw entry.error
          const result = await checkTarget(entry.target, clientOf(entry), settings, {
            ...deps,
            log: group ?? deps.log,
            locateFiles
          })
          return { read: true, source: entry.source, result }
        } catch (error) {
          const failure = asError(error)
          group?.info(msg`The gate could not be read: ${saidOf(failure)}`)
          return {
            read: false,
            source: entry.source,
            projectKey,
            message: saidOf(failure),
            error: failure
          }
        } finally {
          group?.writeAs(projectKey ?? entry.source)
        }
      })
    )
  } finally {
    for (const client of clients.values()) client.close()
  }
}

/**
 * A Log that keeps its lines and writes them, in one group, when `writeAs` is called: groups
 * cannot nest or interleave in the runner's log, so a group asked for inside becomes a line.
 */
function groupedLog(log: Log): Log & { writeAs(title: string): void } {
  const lines: Array<() => void> = []
  return {
    info: (message) => lines.push(() => log.info(message)),
    warning: (message) => lines.push(() => log.warning(message)),
    notice: (message) => lines.push(() => log.notice(message)),
    startGroup: (name) => lines.push(() => log.info(name)),
    endGroup: () => {},
    writeAs(title) {
      log.startGroup(`Analysis of ${oneLine(title, QUOTE_LIMITS.long)}`)
      try {
        for (const line of lines.splice(0)) line()
      } finally {
        log.endGroup()
      }
    }
  }
}
