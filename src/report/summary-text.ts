import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { withoutReferences, WORD_JOINER } from './no-references.js'

/**
 * Why the job summary is HTML. GitHub renders the summary file as Markdown, where any server
 * string could start a heading (after a lone CR), end a code span (a backtick), split a table
 * (a pipe), become a link (`[x](…)`, or a bare `https://…` autolinked) or carry raw HTML. So the
 * summary is written as HTML blocks (`<h2>`, `<p>`, `<table>`), as `@actions/core`'s own
 * `summary.addHeading` and `addTable` do: inside an HTML block GitHub does no Markdown and no
 * autolinking, and such a block ends only at a blank line, which no escaped value can hold. Each
 * server value reaches the summary only through `summaryText`, which also escapes the characters
 * of Markdown's inline syntax (emphasis, code, links, tables), so a value stays inert even if it
 * ever lands in a Markdown paragraph. Punctuation with no meaning mid-line (`. - : / % =`) stays
 * as it is: the summary's source remains readable.
 *
 * Why an `@` is followed by a word joiner: GitHub and GitLab find mentions in the rendered text,
 * after character references are decoded (`&#64;user` still notifies), and every other reference
 * too (`#1`, `!2`, a commit's SHA): see no-references.ts. Addresses in attributes (`href`) are
 * not text and keep their `@` (`summaryAddress`); text in code is not searched (`summaryCode`).
 */

/**
 * The one gate between server text and the job summary: the value on one line (control
 * characters shown as escapes such as `\r`), cut to `max` characters with an ellipsis, a word
 * joiner where a reference or an address would start (`withoutReferences`), and each of
 * `< > & " ' [ ] ( ) | * _ \` ~ \` written as a decimal character reference (`<` → `&#60;`).
 *
 * @example summaryText('<img src=x>') // '&#60;img src&#61;x&#62;'
 */
export function summaryText(value: string, max: number = QUOTE_LIMITS.short): string {
  return escapeHtml(withoutReferences(oneLine(value, max)))
}

/**
 * Server text as code (`<code>…</code>`): escaped as `summaryText` escapes, a word joiner after
 * each `@`, and otherwise its characters as they are, since no platform looks for references
 * inside code (a SHA or a key copied from it is the server's).
 *
 * @example summaryCode('a<b') // '<code>a&#60;b</code>'
 */
export function summaryCode(value: string, max: number = QUOTE_LIMITS.short): string {
  return `<code>${codeText(value, max)}</code>`
}

function codeText(value: string, max: number): string {
  return escapeHtml(oneLine(value, max)).replace(/@/g, `@${WORD_JOINER}`)
}

/**
 * An address for an HTML attribute (`href`): on one line, escaped as `summaryText` escapes, whole
 * (a cut address leads nowhere), its `@` kept, since an attribute is never searched for mentions.
 *
 * @example summaryAddress('https://sonar.example.com/dashboard?id=a&branch=b') // 'https://sonar.example.com/dashboard?id=a&#38;branch=b'
 */
export function summaryAddress(address: string): string {
  return escapeHtml(oneLine(address, Infinity))
}

/**
 * The forms secrets take once written through `summaryText` (besides their own), for the sinks
 * of HTML destinations (`escapedForms`): a token echoed by the server is in the summary escaped.
 */
export function summaryForms(secrets: readonly string[]): string[] {
  return [
    ...secrets,
    ...secrets.flatMap((secret) => [
      summaryText(secret, Infinity),
      codeText(secret, Infinity),
      summaryAddress(secret)
    ])
  ]
}

// HTML's special characters, and Markdown's inline syntax: emphasis, code spans, links, tables.
const PUNCTUATION = /[&<>"'`[\]()|*_~\\]/g

function escapeHtml(text: string): string {
  return text.replace(PUNCTUATION, (character) => `&#${character.charCodeAt(0)};`)
}
