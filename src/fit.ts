/**
 * The one fitting routine for every bounded destination (the job summary's tables and lists,
 * the pull-request comment, the outputs, the result files): parts in order, most important
 * first, as many as fit in a byte limit, then a tail that says how many were left out.
 */

export interface FitOptions {
  /** The most the text may take (in `size`s: UTF-8 bytes by default), head, tail and foot included. */
  limit: number
  /** Written before the parts, always (a table's opening, a list's `<ul>`). */
  head?: string
  /** Written after the parts and the tail, always (`</ul>`). */
  foot?: string
  /** Written between two parts, and between the last part and the tail (default: a line feed). */
  separator?: string
  /** What stands for the parts left out: `… and 3 more`; none when it returns ''. */
  tail?: (leftOut: number) => string
  /**
   * How many more there are than the parts given (past a count limit, or never read): the tail
   * counts them with the parts left out, and is written even when every part fits.
   */
  more?: number
  /** How a text is measured: UTF-8 bytes (default), or UTF-16 units for a limit in characters. */
  size?: (text: string) => number
}

/**
 * The parts to fit, in order: an array, or a list that makes each part only when fitting reaches
 * it (`partsOf`), so that a server's 100,000 conditions cost only those that fit.
 */
export interface Parts {
  readonly length: number
  at(index: number): string | undefined
}

/**
 * `items` as parts, each made by `part` when fitting reaches it.
 *
 * @example fitParts(partsOf(conditions, (condition) => JSON.stringify(condition)), { limit, head: '[', foot: ']', separator: ',' })
 */
export function partsOf<T>(items: readonly T[], part: (item: T) => string): Parts {
  return {
    length: items.length,
    at: (index) => (index >= 0 && index < items.length ? part(items[index]!) : undefined)
  }
}

export interface Fitted {
  text: string
  /** How many parts are in the text: always the first ones. */
  shown: number
  /** How many parts did not fit, with the `more` there are: the count the tail gave. */
  leftOut: number
}

/** UTF-8 bytes: what most destinations limit. */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text)

/** UTF-16 code units: what GitHub's comment and check-run limits count. */
export const characters = (text: string): number => text.length

/**
 * `head`, then the first parts that fit, then `tail(leftOut)` when any were left out, then
 * `foot`, within `limit`. When not even the frame fits, the text is the frame cut to the limit
 * (never inside a character).
 *
 * @example fitParts(['<li>a</li>', '<li>b</li>'], { limit: 30, head: '<ul>', foot: '</ul>', tail: (n) => `<li>${n} more</li>` })
 */
export function fitParts(parts: Parts, options: FitOptions): Fitted {
  const {
    limit,
    head = '',
    foot = '',
    separator = '\n',
    tail = () => '',
    more = 0,
    size: bytes = utf8Bytes
  } = options
  const frame = bytes(head) + bytes(foot)
  const tailOf = (count: number): string => {
    const leftOut = parts.length - count + more
    return leftOut > 0 ? tail(leftOut) : ''
  }
  // Each part is made once, when the loop reaches it; the text is made of those.
  const made: string[] = []
  const text = (count: number): string => {
    const tailText = tailOf(count)
    const shown = [...made.slice(0, count), ...(tailText === '' ? [] : [tailText])]
    return `${head}${shown.join(separator)}${foot}`
  }

  // The bytes of the first `count` parts and their separators, grown one part at a time: one
  // pass, whatever the number of parts, and it stops at the first part that does not fit.
  let used = 0
  let best = -1
  for (let count = 0; count <= parts.length; count++) {
    if (count > 0) {
      const part = parts.at(count - 1) ?? ''
      made.push(part)
      used += bytes(part) + (count > 1 ? bytes(separator) : 0)
    }
    if (frame + used > limit) break
    const tailText = tailOf(count)
    const tailBytes = tailText === '' ? 0 : bytes(tailText) + (count > 0 ? bytes(separator) : 0)
    if (frame + used + tailBytes <= limit) best = count
  }
  if (best < 0) {
    const frameOnly = text(0)
    const cutText = bytes === characters ? frameOnly.slice(0, limit) : cutToBytes(frameOnly, limit)
    return { text: cutText, shown: 0, leftOut: parts.length + more }
  }
  return { text: text(best), shown: best, leftOut: parts.length - best + more }
}

/** `text` cut to at most `limit` bytes of UTF-8, never inside a character. */
export function cutToBytes(text: string, limit: number): string {
  const encoded = Buffer.from(text)
  if (encoded.byteLength <= limit) return text
  let end = Math.max(0, limit)
  // Back up over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--
  return encoded.subarray(0, end).toString()
}
