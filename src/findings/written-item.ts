/**
 * `value` as an item of an indented array whose items start `indent` spaces in, as
 * JSON.stringify(report, null, 2) writes it there: what the writers hand their sink to fit, so
 * that it measures what the file holds.
 *
 * @example writtenItem({ a: 1 }, 2) // '  {\n    "a": 1\n  }'
 */
export function writtenItem(value: object, indent: number): string {
  const pad = ' '.repeat(indent)
  return `${pad}${JSON.stringify(value, null, 2).replaceAll('\n', `\n${pad}`)}`
}
