/**
 * A branch's or pull request's security hotspots still to review (`GET api/hotspots/search`,
 * Browse). Checked against the server's sources (hotspot/ws/SearchAction.java and
 * ws-hotspots.proto): public since 9.8 (internal from 8.1), the project named `projectKey` (10.2
 * renames it `project` and keeps `projectKey` as its deprecated name), new code asked with
 * `sinceLeakPeriod` before 9.5 and `inNewCodePeriod` from 9.5 (ignored for a pull request, whose
 * hotspots are all its own), `ps` at most 500.
 */
import { atLeast, type ServerKind } from './server-kind.js'
import { expectList, isObject, lineNumber, safeInteger, text } from './types.js'
import { byKey, withScope, type IssueScope } from './issues.js'

/** How many hotspots a verdict names: the first few; the count says the rest. */
const HOTSPOTS_LISTED = 5

/** A hotspot to review, as a verdict names it. */
export interface Hotspot {
  key: string
  message: string
  /** The file's path in the project, when the reply names its component. */
  path: string | undefined
  line: number | undefined
  /** HIGH, MEDIUM or LOW. */
  probability: string | undefined
}

/** The first hotspots to review, and how many there are in all. */
export interface HotspotsPage {
  hotspots: Hotspot[]
  total: number
}

/**
 * The query of the first page: the hotspots to review of the project's branch (its new code) or
 * pull request, in the parameter names of the server's generation.
 *
 * @example hotspotsQuery('shop', { kind: 'new-code', branch: 'main' }, { cloud: false, version: [9, 4] }).toString()
 * // 'projectKey=shop&status=TO_REVIEW&ps=5&p=1&branch=main&sinceLeakPeriod=true'
 */
export function hotspotsQuery(
  projectKey: string,
  scope: IssueScope,
  kind: ServerKind
): URLSearchParams {
  const query = new URLSearchParams({
    projectKey,
    status: 'TO_REVIEW',
    ps: String(HOTSPOTS_LISTED),
    p: '1'
  })
  const olderThan95 = kind.version !== undefined && !atLeast(kind, 9, 5)
  return withScope(query, scope, olderThan95 ? 'sinceLeakPeriod' : 'inNewCodePeriod')
}

const PROBABILITY = /^(HIGH|MEDIUM|LOW)$/

/** How many entries of a reply are read at most. */
const MAX_READ = 100

/**
 * Decodes the first page of `GET api/hotspots/search`: `{paging: {total}, hotspots: [{key,
 * component, message, line, vulnerabilityProbability}], components: [{key, path}]}`. A hotspot
 * without a key or message is left out; a reply without `hotspots` is not the server's.
 */
export function decodeHotspotsPage(body: unknown): HotspotsPage {
  expectList(body, 'hotspots')
  const components = Array.isArray(body['components']) ? body['components'] : []
  const paths = byKey(components.slice(0, MAX_READ), 'path')
  // Asked for HOTSPOTS_LISTED: a longer reply is read no further than MAX_READ entries.
  const decoded = body.hotspots.slice(0, MAX_READ).flatMap((hotspot): Hotspot[] => {
    if (!isObject(hotspot)) return []
    const key = text(hotspot['key'])
    const message = text(hotspot['message'])
    if (!key || !message) return []
    const probability = text(hotspot['vulnerabilityProbability'])
    return [
      {
        key,
        message,
        path: paths.get(text(hotspot['component']) ?? ''),
        line: lineNumber(hotspot['line']),
        probability: probability && PROBABILITY.test(probability) ? probability : undefined
      }
    ]
  })
  const paging = body['paging']
  const total = safeInteger(isObject(paging) ? paging['total'] : undefined)
  // Never fewer than were read.
  return {
    hotspots: decoded.slice(0, HOTSPOTS_LISTED),
    total: Math.max(total ?? 0, decoded.length)
  }
}
