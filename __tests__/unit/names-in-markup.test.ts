/**
 * Every destination says the edge's names for every message: a message of the core that names a
 * setting or a place (a reference, words.ts) passes through a markup's gate for server text
 * (HTML, CommonMark) and then the sink, which says it in the edge's words. The gate escapes the
 * words around the reference and leaves the reference whole, so each edge's name is said, never
 * an escaped marker (`name\:timeout`). Every form of every setting and place, derived from
 * words.ts, so a new one is covered as it is added.
 */
import { describe, expect, it } from 'vitest'
import { ACTION_NAMES } from '../../src/action/names.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { HTML_MARKUP, MARKDOWN_MARKUP } from '../../src/report/markup.js'
import { createSink } from '../../src/sink.js'
import { FORMS, inWords, msg, PLACE_KEYS, reference, SETTING_KEYS } from '../../src/words.js'
import { renderAsGitHub, renderAsMarkdown } from '../support/summary-as-github.js'

const REFERENCES = FORMS.flatMap((form) =>
  (form === 'place' ? PLACE_KEYS : SETTING_KEYS).map((key) => reference(form, key))
)

const EDGES = [
  { edge: 'the action', names: ACTION_NAMES },
  { edge: 'the command', names: COMMAND_NAMES }
]

const MARKUPS = [
  { name: 'HTML', markup: HTML_MARKUP, render: renderAsGitHub },
  { name: 'CommonMark', markup: MARKDOWN_MARKUP, render: renderAsMarkdown }
]

describe.each(MARKUPS)('$name says each setting in the edge’s words', ({ markup, render }) => {
  it.each(EDGES)('$edge: every form of every setting and place', ({ names }) => {
    const sink = createSink({ names, secrets: [] })
    expect(REFERENCES.length).toBe((FORMS.length - 1) * SETTING_KEYS.length + PLACE_KEYS.length)
    for (const named of REFERENCES) {
      const said = inWords(named, names)
      const message = msg`Raise ${named} (now 3.0 s): check ${named}.`
      const body = sink.text(markup.paragraph([markup.text(sink.text(message))]))
      expect(body).not.toMatch(/[\uE000\uE001]/)
      expect(render(`${body}\n`).text.trim()).toBe(`Raise ${said} (now 3.0 s): check ${said}.`)
    }
  })
})
