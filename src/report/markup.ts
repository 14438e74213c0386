/**
 * The markup a verdict is written in, for the platform that renders it: HTML blocks where
 * Markdown with raw HTML is rendered (GitHub's summary and comments, GitLab's notes), plain
 * Markdown where raw HTML is not (Bitbucket, Azure DevOps). One body is written once through a
 * Markup, never copied per platform; each Markup holds its platform's one gate for server text.
 */
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { withoutLinks, WORD_JOINER } from './no-references.js'
import { summaryAddress, summaryCode, summaryText } from './summary-text.js'

export interface Markup {
  /** Server text on one line, cut to `max`, made inert here (escaped, no mention). */
  text(value: string, max?: number): string
  /** Server text as code (a file's path, a key): shown as it is, on one line, cut to `max`. */
  code(value: string, max?: number): string
  /** A link to `href` (an address the caller checked) around `label` (markup already). */
  link(href: string, label: string): string
  strong(label: string): string
  heading(level: 3 | 4, content: string): string
  /** One paragraph of lines, each shown on its own line. */
  paragraph(lines: readonly string[]): string
  /** A list, as fittedBlock draws it: its first line, each item's line, its last line. */
  list: { open: string; item(content: string): string; close: string }
  /** A line the reader does not see (a marker): `content` holds no line break and no quote. */
  hidden(content: string): string
  /** What separates two blocks of the body. */
  between: string
}

/**
 * HTML blocks, one per line (see summary-text.ts for why): GitHub and GitLab render them, and
 * no Markdown happens inside.
 */
export const HTML_MARKUP: Markup = {
  text: (value, max) => summaryText(value, max),
  code: (value, max) => summaryCode(value, max),
  link: (href, label) => `<a href="${summaryAddress(href)}">${label}</a>`,
  strong: (label) => `<strong>${label}</strong>`,
  heading: (level, content) => `<h${level}>${content}</h${level}>`,
  paragraph: (lines) => `<p>${lines.join('<br>')}</p>`,
  list: { open: '<ul>', item: (content) => `<li>${content}</li>`, close: '</ul>' },
  hidden: (content) => `<!-- ${content} -->`,
  between: '\n'
}

/**
 * CommonMark, for platforms that render Markdown and no raw HTML: server text through
 * `markdownText`; code spans fenced by more backticks than the value holds; link targets in angle
 * brackets, percent-encoded where they could end; a blank line between blocks, as Markdown needs.
 */
export const MARKDOWN_MARKUP: Markup = {
  text: (value, max) => markdownText(value, max),
  code: (value, max = QUOTE_LIMITS.short) => codeSpan(oneLine(value, max)),
  link: (href, label) => `[${label}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`,
  strong: (label) => `**${label}**`,
  heading: (level, content) => `${'#'.repeat(level)} ${content}`,
  // A line break in CommonMark is a backslash at the end of the line.
  paragraph: (lines) => lines.join('\\\n'),
  list: { open: '', item: (content) => `- ${content}`, close: '' },
  // A link reference definition: defined, never shown.
  hidden: (content) => `[//]: # "${content}"`,
  between: '\n\n'
}

/**
 * What a hidden line of a body says, in either markup (`<!-- x -->` or `[//]: # "x"`), when line
 * `index` of `body` is one (a line end stored as CRLF counts as one): the one reader of the
 * markers and the verdict line that Markup.hidden writes.
 *
 * @example hiddenLine('[//]: # "verdict: failed"\n…', 0) // 'verdict: failed'
 */
export function hiddenLine(body: unknown, index: number): string | undefined {
  if (typeof body !== 'string') return undefined
  const line = body.split('\n', index + 1)[index]?.replace(/\r$/, '')
  if (line === undefined) return undefined
  return /^(?:<!-- ([^\s"][^"]*?) -->|\[\/\/\]: # "([^"]*)")$/.exec(line)?.slice(1).find(Boolean)
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g

/**
 * Markdown's one gate for server text: one line, cut to `max`, a word joiner where a mention, a
 * reference or an address would start once rendered (`withoutLinks`: these platforms link bare
 * addresses), and every ASCII punctuation character backslash-escaped, so that no emphasis, link,
 * autolink, table, heading, HTML or entity can start in it.
 *
 * @example markdownText('*bold* [x](y)') // '\\*bold\\* \\[x\\]\\(y\\)'
 */
export function markdownText(value: string, max: number = QUOTE_LIMITS.short): string {
  return withoutLinks(oneLine(value, max)).replace(
    ASCII_PUNCTUATION,
    (character) => `\\${character}`
  )
}

/**
 * The forms secrets take once written through MARKDOWN_MARKUP (besides their own), for the sinks
 * of Markdown destinations.
 */
export function markdownForms(secrets: readonly string[]): string[] {
  return [
    ...secrets,
    ...secrets.flatMap((secret) => [markdownText(secret, Infinity), codeSpan(secret)])
  ]
}

/** A code span whose fence is longer than any run of backticks inside; padded where needed. */
function codeSpan(text: string): string {
  const runs = text.match(/`+/g) ?? []
  const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1)
  const shown = text.replace(/@/g, `@${WORD_JOINER}`)
  const pad = /^[`\s]|[`\s]$/.test(shown) || shown === '' ? ' ' : ''
  return `${fence}${pad}${shown}${pad}${fence}`
}
