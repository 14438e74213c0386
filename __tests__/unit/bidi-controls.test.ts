import { describe, expect, it } from 'vitest'
import { ACTION_NAMES } from '../../src/action/names.js'
import { forTheTerminal } from '../../src/cli/terminal-log.js'
import { logLine, runnerLog } from '../../src/log.js'
import { HTML_MARKUP, MARKDOWN_MARKUP } from '../../src/report/markup.js'
import { oneLine, showInvisible } from '../../src/untrusted-text.js'
import { RecordingLog } from '../../__fixtures__/log.js'

/**
 * Every character Unicode gives the Bidi_Control property: the embeddings and overrides
 * (U+202A–202E), the isolates (U+2066–2069) and the marks ALM, LRM and RLM (U+061C, U+200E,
 * U+200F). A mark placed beside digits and signs reorders them on screen: `1‏-‏2` can show as `12-`.
 */
const BIDI_CONTROLS = Array.from({ length: 0x10000 }, (_, code) =>
  String.fromCharCode(code)
).filter((character) => /\p{Bidi_Control}/u.test(character))

/** Each gate server text goes through before a destination: log, terminal, summary, Markdown. */
const GATES: [string, (text: string) => string][] = [
  ['oneLine (quoted text in any message)', (text) => oneLine(text)],
  ['showInvisible', showInvisible],
  ['logLine (the runner log)', logLine],
  ['forTheTerminal (the command)', forTheTerminal],
  ['HTML_MARKUP.text (summary, GitHub comment)', (text) => HTML_MARKUP.text(text)],
  ['HTML_MARKUP.code', (text) => HTML_MARKUP.code(text)],
  ['MARKDOWN_MARKUP.text (GitLab, Bitbucket, Azure, Gitea)', (text) => MARKDOWN_MARKUP.text(text)],
  ['MARKDOWN_MARKUP.code', (text) => MARKDOWN_MARKUP.code(text)]
]

describe('no bidirectional control reaches a destination raw', () => {
  it('knows all twelve', () => {
    expect(BIDI_CONTROLS.map((character) => character.charCodeAt(0).toString(16))).toEqual([
      '61c',
      '200e',
      '200f',
      '202a',
      '202b',
      '202c',
      '202d',
      '202e',
      '2066',
      '2067',
      '2068',
      '2069'
    ])
  })

  it.each(GATES)('%s shows each as its escape', (_, gate) => {
    for (const control of BIDI_CONTROLS) {
      const escape = `\\u${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
      const shown = gate(`amount 1${control}-${control}2 due`)
      expect(shown).not.toMatch(/\p{Bidi_Control}/u)
      // The HTML gates write the escape's backslash as a character reference.
      expect(shown.replaceAll('&#92;', '\\')).toContain(escape)
    }
  })

  it('an annotation made of server text holds none', () => {
    const recorded = new RecordingLog()
    const log = runnerLog(recorded, ACTION_NAMES)
    log.warning(`rule ${BIDI_CONTROLS.join('x')} broken`)
    log.fail(`gate ${BIDI_CONTROLS.join('y')} failed`)
    const written = [...recorded.of('warning'), ...recorded.of('error')].join('\n')
    expect(written).not.toMatch(/\p{Bidi_Control}/u)
    expect(written).toContain('\\u200F')
  })
})
