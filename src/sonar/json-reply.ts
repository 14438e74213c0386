/**
 * A reply body as JSON, or the reason it is not: compressed, empty, an HTML page, nested too
 * deep, cut off, or other text. Each reason has its own words, so a user knows whether to look at
 * a proxy, the server address or the network.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { oneLine } from '../untrusted-text.js'
import { setting, msg, type Said, textOf } from '../words.js'

/** Deeper than any Web API reply; keeps every later walk over the value far from the stack limit. */
const MAX_JSON_DEPTH = 64

/** Why a body is not the JSON asked for. `truncated` may heal on another try; the rest do not. */
export class BodyProblem extends Error {
  constructor(
    readonly said: Said,
    readonly truncated = false
  ) {
    super(textOf(said))
  }
}

const UTF8_BOM = [0xef, 0xbb, 0xbf]
const GZIP_MAGIC = [0x1f, 0x8b]

/**
 * Parses a reply body as JSON. A UTF-8 byte order mark before it is skipped (RFC 8259 lets a
 * reader ignore it). Throws a BodyProblem whose message completes "The reply …".
 *
 * @example parseJsonBody(Buffer.from('{"task":{}}'), { 'content-type': 'application/json' })
 */
export function parseJsonBody(body: Buffer, headers: IncomingHttpHeaders): unknown {
  const encoding = headers['content-encoding']?.trim().toLowerCase()
  if (encoding && encoding !== 'identity') {
    throw new BodyProblem(
      `is compressed (Content-Encoding: ${oneLine(encoding, 40)}) though the action asks for none: a proxy in front of the server compresses it unasked; configure it to pass the Web API's replies through as they are`
    )
  }
  if (startsWith(body, GZIP_MAGIC)) {
    throw new BodyProblem(
      'is gzip-compressed data without a Content-Encoding header: a proxy in front of the server compresses it unasked; configure it to pass the Web API replies through as they are'
    )
  }
  const text = body.toString('utf8', startsWith(body, UTF8_BOM) ? UTF8_BOM.length : 0)
  if (text.trim() === '') {
    throw new BodyProblem(
      `is empty (${body.length} bytes${headers['content-length'] === undefined ? '' : `, Content-Length ${oneLine(String(headers['content-length']), 20)}`}): a server's Web API always answers with JSON; a proxy or load balancer in front of it may be dropping the body`
    )
  }
  const contentType = oneLine(headers['content-type'] ?? 'no content type', 80)
  if (/^\s*</.test(text)) {
    throw new BodyProblem(
      msg`is an HTML page (${contentType}), not JSON: a login page or a proxy error page. Check that ${setting('host')} / the report's serverUrl is the server's own address and that no proxy or SSO page stands in front of its Web API`
    )
  }
  const shape = scanJson(text)
  if (shape === 'too-deep') {
    throw new BodyProblem(`nests deeper than ${MAX_JSON_DEPTH} levels: it is not a Web API reply`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    if (shape === 'unfinished') {
      throw new BodyProblem(
        `ends in the middle of its JSON after ${body.length} bytes: it was cut off on the way`,
        true
      )
    }
    throw new BodyProblem(
      msg`is not JSON (${contentType}); it starts with "${oneLine(text.trimStart(), 80)}". Check that ${setting('host')} / the report's serverUrl is the server's own address`
    )
  }
}

/**
 * One pass over the text that tracks strings and brackets, in linear time and constant stack:
 * whether the JSON nests too deep, or ends with a string or a bracket still open.
 */
function scanJson(text: string): 'too-deep' | 'unfinished' | 'closed' {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return 'too-deep'
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return inString || depth > 0 ? 'unfinished' : 'closed'
}

function startsWith(body: Buffer, bytes: number[]): boolean {
  return bytes.every((byte, index) => body[index] === byte)
}
