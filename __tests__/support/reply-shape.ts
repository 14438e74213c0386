/**
 * The structure of a JSON reply, to hold one server's replies to another's (the simulator's to a
 * real server's recorded ones): each field's path with its JSON types, and the values of the
 * fields that name a state or a kind (ENUM_FIELDS). Literal values are not compared.
 */

/** Fields whose values are words from a fixed set: their values are compared too. */
export const ENUM_FIELDS = new Set([
  'status',
  'type',
  'severity',
  'comparator',
  'mode',
  'caycStatus',
  'qualifier',
  'softwareQuality',
  'cleanCodeAttribute',
  'cleanCodeAttributeCategory',
  'issueStatus',
  'vulnerabilityProbability',
  'category',
  'resolution',
  'scope',
  'valueType',
  'health'
])

export interface Shape {
  /** Each field's path (`issues[].impacts[].severity`) and the JSON types it was seen with. */
  types: Map<string, Set<string>>
  /** The values each enum-like field was seen with. */
  values: Map<string, Set<string>>
}

/** A date as SonarQube writes it (DateUtils.formatDateTime): 2025-01-15T10:00:00+0000. */
const SONAR_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/
/** Any other ISO 8601 date-time (2025-01-15T10:00:00.000Z). */
const OTHER_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d/

/** The JSON type of a value; a date's string by its form, which decoders depend on. */
const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'string' && SONAR_DATE.test(value)
        ? 'date'
        : typeof value === 'string' && OTHER_DATE.test(value)
          ? 'other-date'
          : typeof value

/** The shape of a reply: every array's elements merged under `path[]`. */
export function shapeOf(reply: unknown): Shape {
  const shape: Shape = { types: new Map(), values: new Map() }
  const walk = (value: unknown, at: string, field: string): void => {
    const types = shape.types.get(at) ?? new Set<string>()
    types.add(typeOf(value))
    shape.types.set(at, types)
    if (Array.isArray(value)) {
      for (const item of value) walk(item, `${at}[]`, field)
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, at ? `${at}.${key}` : key, key)
    } else if (typeof value === 'string' && ENUM_FIELDS.has(field)) {
      const values = shape.values.get(at) ?? new Set<string>()
      values.add(value)
      shape.values.set(at, values)
    }
  }
  walk(reply, '', '')
  return shape
}

/** The path that holds `at`: `issues[]` for `issues[].key`, `''` for a top-level field. */
function parentOf(at: string): string {
  if (at.endsWith('[]')) return at.slice(0, -2)
  const dot = at.lastIndexOf('.')
  return dot < 0 ? '' : at.slice(0, dot)
}

/** Whether the path held a value with fields or elements in this shape (its contents are known). */
function seenInside(shape: Shape, at: string): boolean {
  if (at === '') return true
  return [...shape.types.keys()].some((other) => other !== at && parentOf(other) === at)
}

/**
 * How `actual` differs from `expected`, in words, one line each: a field missing or extra where
 * both show what holds it, a field of other JSON types, an enum-like field with a value
 * `expected` never showed and `known` does not list. Empty when they agree.
 *
 * @param known more values each enum-like field may take (by path), beyond those `expected` shows
 */
export function shapeDifferences(
  expected: Shape,
  actual: Shape,
  known: Record<string, readonly string[]> = {}
): string[] {
  const differences: string[] = []
  for (const [at, types] of expected.types) {
    const parent = parentOf(at)
    const got = actual.types.get(at)
    if (got === undefined) {
      if (seenInside(actual, parent)) differences.push(`missing ${at} (${[...types].join('|')})`)
      continue
    }
    const theirs = [...got].filter((type) => !(type === 'array' && types.has('array')))
    const odd = theirs.filter((type) => !types.has(type))
    if (odd.length > 0) {
      differences.push(`${at} is ${[...got].join('|')}, the server sends ${[...types].join('|')}`)
    }
  }
  for (const [at, types] of actual.types) {
    if (expected.types.has(at)) continue
    if (seenInside(expected, parentOf(at))) {
      differences.push(`extra ${at} (${[...types].join('|')})`)
    }
  }
  for (const [at, values] of actual.values) {
    // A field the server did not show (in an empty list) is not judged by its values.
    if (!expected.types.has(at) && known[at] === undefined) continue
    const allowed = new Set([...(expected.values.get(at) ?? []), ...(known[at] ?? [])])
    const odd = [...values].filter((value) => !allowed.has(value))
    if (odd.length > 0) {
      differences.push(
        `${at} = ${odd.join(', ')}, the server sends ${[...allowed].join(', ') || 'none'}`
      )
    }
  }
  return differences
}
