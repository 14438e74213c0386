/**
 * A branch's or pull request's security hotspots still to review (`GET api/hotspots/search`,
 * Browse). Checked against the server's sources (hotspot/ws/SearchAction.java and
 * ws-hotspots.proto): public since 9.8 (internal from 8.1), the project named `projectKey` (10.2
 * renames it `project` and keeps `projectKey` as its deprecated name), new code asked with
 * `sinceLeakPeriod` before 9.5 and `inNewCodePeriod` from 9.5 (ignored for a pull request, whose
 * hotspots are all its own), `ps` at most 500.
 */
import { atLeast, type ServerKind } from './server-kind.js'
import { UnexpectedShape } from './types.js'
import { withScope, type IssueScope } from './issues.js'

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

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

const PROBABILITY = /^(HIGH|MEDIUM|LOW)$/

/** How many entries of a reply are read at most. */
const MAX_READ = 100

/**
 * Decodes the first page of `GET api/hotspots/search`: `{paging: {total}, hotspots: [{key,
 * component, message, line, vulnerabilityProbability}], components: [{key, path}]}`. A hotspot
 * without a key or message is left out; a reply without `hotspots` is not the server's.
 */
export function decodeHotspotsPage(body: unknown): HotspotsPage {
  const hotspots = isObject(body) ? body['hotspots'] : undefined
  if (!isObject(body) || !Array.isArray(hotspots)) {
    throw new UnexpectedShape('expected {"hotspots": [...]}')
  }
  const components = Array.isArray(body['components']) ? body['components'] : []
  const paths = new Map<string, string>()
  for (const component of components.slice(0, 100)) {
    if (!isObject(component)) continue
    const key = text(component['key'])
    const path = text(component['path'])
    if (key !== undefined && path !== undefined) paths.set(key, path)
  }
  // Asked for HOTSPOTS_LISTED: a longer reply is read no further than MAX_READ entries.
  const decoded = hotspots.slice(0, MAX_READ).flatMap((hotspot): Hotspot[] => {
    if (!isObject(hotspot)) return []
    const key = text(hotspot['key'])
    const message = text(hotspot['message'])
    if (!key || !message) return []
    const line = hotspot['line']
    const probability = text(hotspot['vulnerabilityProbability'])
    return [
      {
        key,
        message,
        path: paths.get(text(hotspot['component']) ?? ''),
        line:
          typeof line === 'number' && Number.isSafeInteger(line) && line >= 1 ? line : undefined,
        probability: probability && PROBABILITY.test(probability) ? probability : undefined
      }
    ]
  })
  const listed = decoded.slice(0, HOTSPOTS_LISTED)
  const paging = body['paging']
  const total = isObject(paging) ? paging['total'] : undefined
  return {
    hotspots: listed,
    total:
      typeof total === 'number' && Number.isSafeInteger(total) && total >= decoded.length
        ? total
        : decoded.length
  }
}
