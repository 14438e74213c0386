import type { Log } from './log.js'
import type { RunStart, Settings } from './settings.js'
import { oneLine } from './untrusted-text.js'

/**
 * Which analysis a run is about, as its platform says (the action's event, the command's CI):
 * its branch or pull request, the commits a scan of it may have recorded (none: the newest
 * analysis), and for a pull request when its scan can have started at the earliest.
 */
export interface RunScope {
  branch?: string
  pullRequest?: string
  commits: string[]
  since?: RunStart
  /** Where the facts came from, for the log: "the pull_request event", "GitLab CI". */
  from: string
}

/**
 * The settings with the run's scope taken, and one line of the log that says which analysis
 * will be checked and who said so (`request`: what the platform calls a pull request).
 *
 * @example settings = takeRunScope(settings, { pullRequest: '42', commits: [sha], from: 'GitLab CI' }, log, 'merge request')
 */
export function takeRunScope<S extends Settings>(
  settings: S,
  run: RunScope,
  log: Log,
  request = 'pull request'
): S {
  const where =
    run.pullRequest !== undefined
      ? ` on ${request} ${oneLine(run.pullRequest)}`
      : run.branch !== undefined
        ? ` on branch ${oneLine(run.branch)}`
        : ''
  // A pull request's analyses record no commit the server shows: its newest is the one.
  const which =
    run.pullRequest !== undefined
      ? `the newest analysis${where}${run.since ? ` made after ${run.since.what}` : ''}`
      : run.commits.length > 0
        ? `the analysis of ${shortShas(run.commits)}${where}`
        : `the newest analysis${where || ' of the main branch'}`
  log.info(`Checking ${which}, as ${run.from} says.`)
  return {
    ...settings,
    branch: run.branch,
    pullRequest: run.pullRequest,
    commits: run.commits,
    ...(run.since ? { since: run.since } : {})
  }
}

/** Commits as the log shows them: `abc1234`, or `abc1234 or def5678`. */
export function shortShas(commits: readonly string[]): string {
  return commits.map((sha) => sha.slice(0, 7)).join(' or ')
}
