/**
 * The one body in Markdown, for platforms that render Markdown and no raw HTML (Bitbucket, Azure
 * DevOps): the same comment as in HTML, rendered by markdown-it as they render it (CommonMark,
 * bare addresses linked, HTML left as text). Server text stays text whatever it holds: no
 * element but ours, no link but to the server, no mention, its words shown as the server sent
 * them; the hidden lines are hidden and found again.
 */
import { describe, expect, it } from 'vitest'
import { createSink } from '../../src/sink.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { issueDiscussionBody, issueKeyOf } from '../../src/report/issue-discussion.js'
import { markdownForms, markdownText, MARKDOWN_MARKUP } from '../../src/report/markup.js'
import {
  commentBody,
  commentMarker,
  markerOf,
  outcomeMarker,
  shouldWrite
} from '../../src/report/pull-request-comment-body.js'
import { tokenForms } from '../../src/secrets.js'
import { HOSTILE, hostileResult } from '../support/hostile-summary.js'
import { analysis, serverIssue } from '../support/findings.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsMarkdown } from '../support/summary-as-github.js'
import { gateResult, SERVER } from './summary-gate-result.js'

const SHA = '0123456789abcdef0123456789abcdef01234567'
const TOKEN = 'squ_<a&"\'>_*bold*_0123456789abcdef'
const sink = createSink({
  names: COMMAND_NAMES,
  secrets: tokenForms(TOKEN),
  escapedForms: markdownForms,
  limit: 150_000,
  unit: 'characters'
})

const read = (result = gateResult()): AnalysisOutcome => ({
  read: true,
  source: 'report-task.txt',
  result
})

const ELEMENTS = new Set(['h3', 'h4', 'p', 'ul', 'li', 'a', 'code', 'strong', 'br'])

describe('server text in Markdown stays text', () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'a comment with %s in every server value: our elements only, links to the server only, no mention',
    (_, text) => {
      const body = commentBody(read(hostileResult(text)), SHA, { sink, markup: MARKDOWN_MARKUP })
      const rendered = renderAsMarkdown(body)
      for (const element of rendered.elements) expect(ELEMENTS).toContain(element.tag)
      for (const link of rendered.of('a')) {
        expect(new URL(link.attributes['href']!).origin).toBe(new URL(SERVER).origin)
      }
      expect(rendered.of('h3')).toHaveLength(1)
      expect(mentionsIn(rendered.mentionable)).toEqual([])
      expect(body.length).toBeLessThanOrEqual(150_000)
      // The hidden lines are not shown.
      expect(rendered.text).not.toContain('sonar-quality-gate')
      expect(rendered.text).not.toContain('verdict:')
    }
  )

  it('shows the text as the server sent it: every escape undone by the renderer', () => {
    const text = '*a* _b_ `c` [d](e) <f> &amp; #g | h ~i~ \\j https://k.example www.l.example'
    const shown = renderAsMarkdown(`${markdownText(text, Infinity)}\n`).of('p')[0]!.text
    expect(shown).toBe(text)
  })

  it('a token quoted by the server is removed in its Markdown-escaped form too', () => {
    const body = commentBody(read(gateResult({ projectKey: `key ${TOKEN}`, status: TOKEN })), SHA, {
      sink,
      markup: MARKDOWN_MARKUP
    })
    for (const form of markdownForms(tokenForms(TOKEN))) expect(body).not.toContain(form)
    expect(renderAsMarkdown(body).text).not.toContain('0123456789abcdef')
  })
})

describe('the markers in Markdown: hidden, found again, never forged', () => {
  it('the comment starts with its marker and verdict lines, which the next run reads', () => {
    const outcome = read()
    const body = commentBody(outcome, SHA, { sink, markup: MARKDOWN_MARKUP })
    const [marker, verdict] = body.split('\n')
    expect(marker).toBe('[//]: # "sonar-quality-gate: my-project"')
    expect(verdict).toBe('[//]: # "verdict: failed"')
    expect(markerOf(body)).toBe(outcomeMarker(outcome, MARKDOWN_MARKUP))
    expect(shouldWrite('changed', 'failed', body)).toBe(false)
    expect(shouldWrite('changed', 'passed', body)).toBe(true)
  })

  it.each(['a" b', 'x" -->\n[//]: # "sonar-quality-gate: other', '"'])(
    'a project key %j cannot end the marker or pass for another',
    (projectKey) => {
      const marker = commentMarker(projectKey, MARKDOWN_MARKUP)
      expect(marker).toMatch(/^\[\/\/\]: # "sonar-quality-gate: [^\s"]+"$/)
      expect(renderAsMarkdown(`${marker}\n`).text.trim()).toBe('')
    }
  )

  it("an issue's discussion carries its key, which is read back; its words are inert", () => {
    const [finding] = analysis({
      issues: [serverIssue('AY"key', { message: '@all [x](https://evil.example) **now**' })]
    }).findings
    const body = issueDiscussionBody(finding!, sink, MARKDOWN_MARKUP)
    expect(issueKeyOf(body)).toBe('AY"key')
    const rendered = renderAsMarkdown(body)
    expect(mentionsIn(rendered.mentionable)).toEqual([])
    expect(rendered.of('a').map(({ attributes }) => new URL(attributes['href']!).origin)).toEqual([
      new URL(SERVER).origin
    ])
    expect(rendered.of('strong').map(({ text }) => text)).toEqual([finding!.severityWord])
  })
})
