/**
 * What the simulated server answers for an analysis's figures: `api/measures/component` (beside
 * the gate's own measures) and `api/hotspots/search`, in each generation's shape. Facts from the
 * server's sources (measure/ws/ComponentAction.java, MeasureDtoToWsMeasure.java,
 * hotspot/ws/SearchAction.java): a measure on new code has no top-level `value`, 8.x and 9.x give
 * it as `periods` and `period`, 10.0 and later as `period` alone; a metric the server does not
 * know is a 404 naming it; the accepted and fixed issue counts exist from 10.4, the fixed ones
 * on a pull request only, in its own `value`.
 */
import type { Generation } from './sonar-generations.js'

/** A security hotspot as the simulator keeps it. */
export interface SimulatedHotspot {
  key: string
  message: string
  path: string
  line: number
  probability: 'HIGH' | 'MEDIUM' | 'LOW'
}

/** An analysis's figures, by metric key; the server's defaults below fill what a script leaves out. */
export type SimulatedMeasures = Readonly<Record<string, number>>

export const DEFAULT_MEASURES: SimulatedMeasures = {
  new_coverage: 91.3,
  new_duplicated_lines_density: 0.4,
  coverage: 78.2,
  duplicated_lines_density: 2.1,
  new_accepted_issues: 1,
  pull_request_fixed_issues: 2
}

/** The metrics each generation knows of those the simulator serves (besides the gate's). */
const KNOWN: Record<Generation, readonly string[]> = {
  '8.9': ['new_coverage', 'new_duplicated_lines_density', 'coverage', 'duplicated_lines_density'],
  '9.9': ['new_coverage', 'new_duplicated_lines_density', 'coverage', 'duplicated_lines_density'],
  '10.x': Object.keys(DEFAULT_MEASURES),
  '2025.x': Object.keys(DEFAULT_MEASURES),
  // A guess, marked as one: the keys SonarSource's Azure DevOps extension asks the cloud for.
  cloud: Object.keys(DEFAULT_MEASURES)
}

/**
 * The `measures` of api/measures/component for `metricKeys`, or the 404 a server answers when it
 * does not know one of them.
 */
export function measuresReply(
  generation: Generation,
  metricKeys: readonly string[],
  measures: SimulatedMeasures,
  pullRequest: boolean
): [number, unknown] | { measures: unknown[] } {
  const known = new Set([...KNOWN[generation], 'alert_status', 'quality_gate_details'])
  const unknown = metricKeys.filter((key) => !known.has(key))
  if (unknown.length > 0) {
    return [
      404,
      { errors: [{ msg: `The following metric keys are not found: ${unknown.join(', ')}` }] }
    ]
  }
  const all = { ...DEFAULT_MEASURES, ...measures }
  return {
    measures: metricKeys.flatMap((metric): Record<string, unknown>[] => {
      const value = all[metric]
      // The fixed issues are counted on a pull request only.
      if (value === undefined || (metric === 'pull_request_fixed_issues' && !pullRequest)) return []
      const text = String(value)
      // Whether the value is the metric's best (10.x and later, recorded from 10.7).
      const best = bestValue(generation, metric, value)
      if (!metric.startsWith('new_')) return [{ metric, value: text, ...best }]
      const period = { index: 1, value: text, ...best }
      return generation === '8.9' || generation === '9.9' || generation === 'cloud'
        ? [{ metric, periods: [period], period }]
        : [{ metric, period }]
    })
  }
}

/** The metrics whose best value is 0 (the others served are percentages of coverage: 100). */
const BEST_AT_ZERO = /duplicated|issues/

/** `bestValue` of a measure where the generation writes it (recorded from 9.9, 10.7 and 26.9). */
function bestValue(generation: Generation, metric: string, value: number): { bestValue?: boolean } {
  if (generation === '8.9' || generation === 'cloud') return {}
  return { bestValue: value === (BEST_AT_ZERO.test(metric) ? 0 : 100) }
}

/**
 * api/hotspots/search's reply: the first `ps` of the hotspots to review, the project named by
 * `projectKey` (or `project` from 10.2), with `paging.total` and the files as `components`.
 */
export function hotspotsReply(
  projectKey: string,
  hotspots: readonly SimulatedHotspot[],
  params: URLSearchParams
): [number, unknown] {
  const size = Number(params.get('ps') ?? '100')
  const page = Number(params.get('p') ?? '1')
  if (!(size >= 1 && size <= 500) || !(page >= 1)) {
    return [400, { errors: [{ msg: `'ps' value (${params.get('ps')}) must be less than 500` }] }]
  }
  const slice = hotspots.slice((page - 1) * size, page * size)
  // Every field the server writes (recorded from 10.7); the files, then the project.
  return [
    200,
    {
      paging: { pageIndex: page, pageSize: size, total: hotspots.length },
      hotspots: slice.map((hotspot) => ({
        key: hotspot.key,
        component: `${projectKey}:${hotspot.path}`,
        project: projectKey,
        securityCategory: 'sql-injection',
        vulnerabilityProbability: hotspot.probability,
        status: 'TO_REVIEW',
        line: hotspot.line,
        message: hotspot.message,
        author: 'dev@example.com',
        creationDate: '2026-11-24T10:00:00+0000',
        updateDate: '2026-11-24T10:00:00+0000',
        textRange: {
          startLine: hotspot.line,
          endLine: hotspot.line,
          startOffset: 0,
          endOffset: 10
        },
        flows: [],
        ruleKey: 'typescript:S2077',
        messageFormattings: []
      })),
      components: [
        ...new Map(
          slice.map((hotspot) => [
            hotspot.path,
            {
              key: `${projectKey}:${hotspot.path}`,
              qualifier: 'FIL',
              name: hotspot.path.split('/').at(-1),
              longName: hotspot.path,
              path: hotspot.path
            }
          ])
        ).values(),
        ...(slice.length > 0
          ? [{ key: projectKey, qualifier: 'TRK', name: projectKey, longName: projectKey }]
          : [])
      ]
    }
  ]
}

/** `count` hotspots to review with deterministic keys, spread over the sample files. */
export function sampleHotspots(count: number, files: readonly string[]): SimulatedHotspot[] {
  const probabilities = ['HIGH', 'MEDIUM', 'LOW'] as const
  return Array.from({ length: count }, (_, index) => ({
    key: `AYHotspot${String(index + 1).padStart(4, '0')}`,
    message: `Make sure that formatting this SQL query is safe here (${index + 1}).`,
    path: files[index % files.length]!,
    line: 5 + index,
    probability: probabilities[index % probabilities.length]!
  }))
}
