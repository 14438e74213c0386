/**
 * A lookup table for keys that come from a server or a file: it has no prototype, so no key
 * reaches Object.prototype's members (`constructor`, `toString`, `valueOf`, `__proto__`...),
 * which a plain object literal would hand back as a function.
 *
 * @example lookupTable({ compliant: 'compliant' })['valueOf'] // undefined
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries))
}
