/**
 * How many bytes a value takes inside a report written with JSON.stringify(report, null, 2): what
 * the writers count against their size limits before they add an item.
 */

/**
 * The bytes of `value` as an item of an indented array whose items start `indent` spaces in,
 * with the comma and line break after it.
 *
 * @example writtenBytes({ a: 1 }, 2) // 20: '  {\n    "a": 1\n  },\n'
 */
export function writtenBytes(value: object, indent: number): number {
  const text = JSON.stringify(value, null, 2)
  let lines = 1
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++
  return Buffer.byteLength(text) + indent * lines + 2
}
