/** Order statistics and table printing for the benchmarks. */

/** The value at quantile `q` (0..1), nearest rank: always one of the samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.ceil(q * sorted.length) - 1
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

export function max(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : Math.max(...samples)
}

/** `12.3` for milliseconds, `-` for a missing figure. */
export function ms(value: number | undefined, digits = 1): string {
  return value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits)
}

/** Prints a Markdown table, so results paste straight into bench/README.md. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length))
  )
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(line(header))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  rows.forEach((row) => console.log(line(row)))
}

/**
 * The spread of a figure over several runs, `min–max` (one value when they agree), e.g.
 * `range([0.93, 0.91, 0.95], 2)` is `0.91–0.95`. `-` when there is no figure.
 */
export function range(samples: readonly number[], digits = 0): string {
  const values = samples.filter((value) => !Number.isNaN(value))
  if (values.length === 0) return '-'
  const low = Math.min(...values).toFixed(digits)
  const high = Math.max(...values).toFixed(digits)
  return low === high ? low : `${low}–${high}`
}
