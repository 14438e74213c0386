import { saidOf, ServerRequestError } from '../errors.js'
import type { AnalysisScope } from '../sonar/client.js'
import type { HotspotsPage } from '../sonar/hotspots.js'
import type { IssueScope } from '../sonar/issues.js'
import type { MeasureValues } from '../sonar/measures.js'
import type { PullRequestOnServer } from '../sonar/types.js'
import { msg, type Said, joined } from '../words.js'

/** The measures of new code a verdict shows: coverage and duplicated lines. */
export const NEW_CODE_MEASURES = ['new_coverage', 'new_duplicated_lines_density'] as const

/** The same figures over the whole code, for a pull request's target branch. */
export const OVERALL_MEASURES = ['coverage', 'duplicated_lines_density'] as const

/**
 * The issues of the new code that were accepted, and those a pull request fixes: counted by
 * recent servers only (an older one refuses the unknown metric), so asked on their own.
 */
export const ISSUE_COUNT_MEASURES = {
  branch: ['new_accepted_issues'],
  pullRequest: ['new_accepted_issues', 'pull_request_fixed_issues']
} as const

/** Coverage and duplicated lines, in percent, where the server has them. */
export interface CodeFigures {
  coverage: number | undefined
  duplication: number | undefined
}

/** Why a part of what changed is missing. */
interface Unread {
  unread: Said
  /**
   * The server refused a user token (403): its user may not browse the project. The server then
   * hides the project's issues from it too, answering none rather than refusing.
   */
  browseRefused?: true
}

/** What changed with an analysis, beside its verdict; each part read on its own. */
export interface WhatChanged {
  /** Coverage and duplicated lines on new code (a pull request's code), or why not. */
  newCode: CodeFigures | Unread
  /** For a pull request: its target branch's figures over the whole code, when known. */
  target?: { branch: string; figures: CodeFigures | { unread: Said } } | { unread: Said }
  /** The security hotspots still to review (the first few and the count), or why not. */
  hotspots: HotspotsPage | Unread
  /**
   * Issues of the new code accepted (won't fix), and for a pull request the issues it fixes,
   * where the server counts them; undefined where it does not.
   */
  issues?: { accepted: number | undefined; fixed: number | undefined }
}

/** What the read needs of the server. */
export interface WhatChangedSource {
  getMeasures(
    projectKey: string,
    on: AnalysisScope,
    metricKeys: readonly string[]
  ): Promise<MeasureValues>
  getHotspots(projectKey: string, scope: IssueScope): Promise<HotspotsPage>
  getPullRequests(projectKey: string): Promise<PullRequestOnServer[]>
}

/**
 * What changed with the analysis of `on`: the new code's coverage and duplication, for a pull
 * request its target branch's (the branch the server compares it with, read from its list of
 * pull requests), the hotspots to review, and the issues accepted and fixed where the server
 * counts them. Three to five requests, read at once (the target's after its name) and never
 * tried again; a failure is one line in its part, never a different verdict.
 *
 * @example const changed = await readWhatChanged(client, 'shop', { pullRequest: '42' })
 */
export async function readWhatChanged(
  server: WhatChangedSource,
  projectKey: string,
  on: AnalysisScope
): Promise<WhatChanged> {
  const pullRequest = on.pullRequest
  const [newCode, target, hotspots, issues] = await Promise.all([
    figures(server.getMeasures(projectKey, on, NEW_CODE_MEASURES), 'new_'),
    pullRequest === undefined ? undefined : targetOf(server, projectKey, pullRequest),
    unreadOr(server.getHotspots(projectKey, issueScope(on)), 'hotspots'),
    issueCounts(server, projectKey, on)
  ])
  return {
    newCode,
    ...(target ? { target } : {}),
    hotspots,
    ...(issues ? { issues } : {})
  }
}

/**
 * The issues of an analysis: a pull request's when it is of one, else the branch's new code.
 *
 * @example issueScope({ pullRequest: '42' }) // { kind: 'pull-request', pullRequest: '42' }
 */
export function issueScope(on: AnalysisScope): IssueScope {
  return on.pullRequest !== undefined
    ? { kind: 'pull-request', pullRequest: on.pullRequest }
    : { kind: 'new-code', branch: on.branch }
}

/**
 * The pull request's target branch (the server's `base`, the branch it compares with, else the
 * `target` the scanner named) and its overall figures; undefined when the server names none.
 */
async function targetOf(
  server: WhatChangedSource,
  projectKey: string,
  pullRequest: string
): Promise<WhatChanged['target']> {
  const pulls = await unreadOr(
    server.getPullRequests(projectKey).then((list) => ({ list })),
    "pull request's target branch"
  )
  if ('unread' in pulls) return pulls
  const pull = pulls.list.find(({ key }) => key === pullRequest)
  const branch = pull?.base ?? pull?.target
  if (branch === undefined) return undefined
  const read = server.getMeasures(projectKey, { branch }, OVERALL_MEASURES)
  return { branch, figures: await figures(read, '') }
}

/** The counts the server keeps of accepted and fixed issues; undefined where it keeps none. */
async function issueCounts(
  server: WhatChangedSource,
  projectKey: string,
  on: AnalysisScope
): Promise<WhatChanged['issues']> {
  const metrics =
    on.pullRequest === undefined ? ISSUE_COUNT_MEASURES.branch : ISSUE_COUNT_MEASURES.pullRequest
  try {
    const values = await server.getMeasures(projectKey, on, metrics)
    const count = (metric: string) => {
      const value = values.get(metric)
      return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined
    }
    const counts = {
      accepted: count('new_accepted_issues'),
      fixed: count('pull_request_fixed_issues')
    }
    return counts.accepted === undefined && counts.fixed === undefined ? undefined : counts
  } catch {
    // A server before these metrics refuses them: it does not count them, which is no failure.
    return undefined
  }
}

async function figures(
  read: Promise<MeasureValues>,
  prefix: 'new_' | ''
): Promise<CodeFigures | { unread: Said }> {
  const values = await unreadOr(read, 'measures')
  if ('unread' in values) return values
  return {
    coverage: percent(values.get(`${prefix}coverage`)),
    duplication: percent(values.get(`${prefix}duplicated_lines_density`))
  }
}

/** A percentage the server could have written: 0 to 100. */
function percent(value: number | undefined): number | undefined {
  return value !== undefined && value >= 0 && value <= 100 ? value : undefined
}

/** The read's value, or one line that says why it is missing (403: the token may not browse). */
async function unreadOr<T extends object>(read: Promise<T>, what: string): Promise<T | Unread> {
  try {
    return await read
  } catch (error) {
    if (error instanceof ServerRequestError && error.status === 403) {
      return error.analysisToken
        ? {
            unread: `The token may not read the ${what} (403): it is ${error.analysisToken}, and SonarQube refuses analysis tokens what needs Browse. A user token (squ_…) of a user with Browse shows them.`
          }
        : {
            unread: `The token may not read the ${what} (403): they need the Browse permission.`,
            browseRefused: true
          }
    }
    return { unread: msg`The ${what} could not be read: ${saidOf(error)}` }
  }
}

/**
 * A percentage as a verdict shows it: one decimal at most.
 *
 * @example percentWords(85.46) // '85.5%'
 */
export function percentWords(value: number): string {
  return `${Number(value.toFixed(1))}%`
}

/**
 * A difference of percentages, signed, in points.
 *
 * @example pointsWords(-1.84) // '−1.8 points'
 */
export function pointsWords(difference: number): string {
  const rounded = Number(difference.toFixed(1))
  if (rounded === 0) return 'no change'
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded)} points`
}

/**
 * What changed in one line of the log: "What changed: coverage on new code 85.5% (main 78.2%),
 * duplicated lines on new code 1.2% (main 3%), 2 security hotspots to review, 2 issues accepted,
 * 3 fixed." Server text (the target branch) is quoted by the log's gate.
 */
export function whatChangedLine(changed: WhatChanged): Said {
  const { newCode, target, hotspots, issues } = changed
  const against =
    target && !('unread' in target) && !('unread' in target.figures) ? target : undefined
  const figure = (name: string, which: keyof CodeFigures) => {
    if ('unread' in newCode) return undefined
    const value = newCode[which]
    const theirs = against && !('unread' in against.figures) ? against.figures[which] : undefined
    const own = value === undefined ? 'not computed' : percentWords(value)
    return `${name} on new code ${own}${theirs === undefined ? '' : ` (${against!.branch} ${percentWords(theirs)})`}`
  }
  const parts = [
    'unread' in newCode ? newCode.unread : undefined,
    figure('coverage', 'coverage'),
    figure('duplicated lines', 'duplication'),
    target && 'unread' in target ? target.unread : undefined,
    'unread' in hotspots
      ? hotspots.unread
      : `${hotspots.total} security ${hotspots.total === 1 ? 'hotspot' : 'hotspots'} to review`,
    issues?.accepted === undefined
      ? undefined
      : `${issues.accepted} ${issues.accepted === 1 ? 'issue' : 'issues'} accepted`,
    issues?.fixed === undefined ? undefined : `${issues.fixed} fixed`
  ]
  return msg`What changed: ${joined(
    parts.filter((part) => part !== undefined),
    ', '
  )}.`
}
