/**
 * A value as it is written inside a report made with JSON.stringify(report, null, 2): what the
 * writers hand their sink to fit, so that it measures what the file holds.
 */

/**
 * `value` as an item of an indented array whose items start `indent` spaces in: every line of it
 * indented, as JSON.stringify writes it there.
 *
 * @example writtenItem({ a: 1 }, 2) // '  {\n    "a": 1\n  }'
 */
export function writtenItem(value: object, indent: number): string {
  const pad = ' '.repeat(indent)
  return `${pad}${JSON.stringify(value, null, 2).replaceAll('\n', `\n${pad}`)}`
}
