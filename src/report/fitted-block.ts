import type { Fitted } from '../fit.js'
import type { Sink } from '../sink.js'

/** How an HTML block of lines is fitted (see fittedBlock). */
interface BlockOptions {
  /** The line that opens the block: `<ul>`, a table's head. */
  open: string
  /** The line that closes it: `</ul>`. */
  close: string
  /** The line that stands for the lines left out (`<li>… and 3 more</li>`); none without it. */
  tail?: (leftOut: number) => string
  /** How many there are past the lines given (a count limit, issues not read): the tail counts them. */
  more?: number
  /** The room for the block, in the sink's unit. */
  limit: number
}

/**
 * An HTML block (a list, a table) through the sink: `open`, the first `lines` that fit in
 * `limit`, the tail for the rest, `close`, each on its own line. The frame and the tail are
 * always written whole, however little room there is, so the block stays well-formed HTML: the
 * page's writer keeps the page's own bound.
 *
 * @example fittedBlock(sink, items, { open: '<ul>', close: '</ul>', tail: (n) => `<li>… and ${n} more</li>`, limit: 10_000 }).text
 */
export function fittedBlock(sink: Sink, lines: readonly string[], options: BlockOptions): Fitted {
  const { open, close, tail, more = 0, limit } = options
  const own = (line: string): string => `\n${line}`
  const widestTail = tail && lines.length + more > 0 ? own(tail(lines.length + more)) : ''
  const frame = sink.size(sink.text(`${open}${widestTail}${own(close)}`))
  return sink.fit(lines.map(own), {
    head: open,
    foot: own(close),
    separator: '',
    ...(tail ? { tail: (leftOut: number) => own(tail(leftOut)) } : {}),
    more,
    limit: Math.max(limit, frame)
  })
}
