/**
 * The first value of a header as received. Node joins or drops repeated headers in
 * `req.headers`, so the spec's "first value" (4.3 rule 4) is read from `rawHeaders`.
 */
export function firstHeaderValue(rawHeaders: readonly string[], name: string): string | undefined {
  const wanted = name.toLowerCase()
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const key = rawHeaders[i] as string
    if (key.length === wanted.length && key.toLowerCase() === wanted) return rawHeaders[i + 1]
  }
  return undefined
}
