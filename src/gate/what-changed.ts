import { messageOf, ServerRequestError } from '../errors.js'
import type { AnalysisScope } from '../sonar/client.js'
import type { HotspotsPage } from '../sonar/hotspots.js'
import type { IssueScope } from '../sonar/issues.js'
import type { MeasureValues } from '../sonar/measures.js'

/** The measures of new code a verdict shows: coverage and duplicated lines. */
export const NEW_CODE_MEASURES = ['new_coverage', 'new_duplicated_lines_density'] as const

/** The same figures over the whole code, for a pull request's target branch. */
export const OVERALL_MEASURES = ['coverage', 'duplicated_lines_density'] as const

/** Coverage and duplicated lines, in percent, where the server has them. */
export interface CodeFigures {
  coverage: number | undefined
  duplication: number | undefined
}

/** What changed with an analysis, beside its verdict; each part read on its own. */
export interface WhatChanged {
  /** Coverage and duplicated lines on new code (a pull request's code), or why not. */
  newCode: CodeFigures | { unread: string }
  /** For a pull request: its target branch's figures over the whole code, when known. */
  target?: { branch: string; figures: CodeFigures | { unread: string } }
  /** The security hotspots still to review (the first few and the count), or why not. */
  hotspots: HotspotsPage | { unread: string }
}

/** What the read needs of the server. */
export interface WhatChangedSource {
  getMeasures(
    projectKey: string,
    on: AnalysisScope,
    metricKeys: readonly string[]
  ): Promise<MeasureValues>
  getHotspots(projectKey: string, scope: IssueScope): Promise<HotspotsPage>
}

/**
 * What changed with the analysis of `on`: the new code's coverage and duplication, for a pull
 * request its target branch's, and the hotspots to review. Two or three requests, read at once
 * and never tried again; a failure is one line in its part, never a different verdict.
 *
 * @example const changed = await readWhatChanged(client, 'shop', { pullRequest: '42' }, 'main')
 */
export async function readWhatChanged(
  server: WhatChangedSource,
  projectKey: string,
  on: AnalysisScope,
  targetBranch: string | undefined
): Promise<WhatChanged> {
  const scope: IssueScope =
    on.pullRequest !== undefined
      ? { kind: 'pull-request', pullRequest: on.pullRequest }
      : { kind: 'new-code', branch: on.branch }
  const [newCode, target, hotspots] = await Promise.all([
    figures(server.getMeasures(projectKey, on, NEW_CODE_MEASURES), 'new_'),
    on.pullRequest !== undefined && targetBranch !== undefined
      ? figures(server.getMeasures(projectKey, { branch: targetBranch }, OVERALL_MEASURES), '')
      : undefined,
    unreadOr(server.getHotspots(projectKey, scope), 'hotspots')
  ])
  return {
    newCode,
    ...(target && targetBranch !== undefined
      ? { target: { branch: targetBranch, figures: target } }
      : {}),
    hotspots
  }
}

async function figures(
  read: Promise<MeasureValues>,
  prefix: 'new_' | ''
): Promise<CodeFigures | { unread: string }> {
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
async function unreadOr<T extends object>(
  read: Promise<T>,
  what: string
): Promise<T | { unread: string }> {
  try {
    return await read
  } catch (error) {
    if (error instanceof ServerRequestError && error.status === 403) {
      return {
        unread: `The token may not read the ${what} (403): they need the Browse permission.`
      }
    }
    return { unread: `The ${what} could not be read: ${messageOf(error)}` }
  }
}
