import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5'
import { describe, expect, it } from 'vitest'
import { actionHtmlSink } from '../../__fixtures__/sinks.js'
import { ReportFileError } from '../../src/errors.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { COMMENT_LIMITS } from '../../src/report/comment-settings.js'
import {
  carriesMarker,
  commentBody,
  commentMarker,
  markerOf,
  outcomeMarker
} from '../../src/report/pull-request-comment-body.js'
import { describeCondition } from '../../src/report/wording.js'
import { expectNoForeignMarkup, HOSTILE, hostileResult } from '../support/hostile-summary.js'
import { renderAsGitHub, type RenderedSummary } from '../support/summary-as-github.js'
import { condition, gateResult } from './summary-gate-result.js'

const SHA = '0123456789abcdef0123456789abcdef01234567'

/** The comment's sink, as the action builds it: HTML, counted in characters, within GitHub's limit. */
const sink = actionHtmlSink({ limit: COMMENT_LIMITS.githubChars, unit: 'characters' })

const read = (fields: Parameters<typeof gateResult>[0] = {}): AnalysisOutcome => ({
  read: true,
  source: 'build/sonar/report-task.txt',
  result: gateResult(fields)
})

const unread = (message: string, projectKey?: string): AnalysisOutcome => ({
  read: false,
  source: 'gone/report-task.txt',
  projectKey,
  message,
  error: new ReportFileError(message)
})

/** The HTML comments of a body as a browser parses it, their text as written. */
function htmlComments(body: string): string[] {
  const comments: string[] = []
  const visit = (node: DefaultTreeAdapterTypes.ChildNode) => {
    if (node.nodeName === '#comment')
      comments.push((node as DefaultTreeAdapterTypes.CommentNode).data)
    if ('childNodes' in node) node.childNodes.forEach(visit)
  }
  parseFragment(renderAsGitHub(body).html).childNodes.forEach(visit)
  return comments
}

/**
 * The comment as GitHub shows it: the marker and the hidden verdict line are its only HTML
 * comments, its first two lines, then our elements only.
 */
function expectOneMarkerAndOurMarkup(body: string): RenderedSummary {
  const rendered = renderAsGitHub(body)
  // HTML blocks, passed through as written: no Markdown is done in them.
  expect(rendered.html).toBe(body)
  expect(rendered.elements[0]!.tag).toBe('#comment')
  expect(rendered.elements[1]!.tag).toBe('#comment')
  expect(body.split('\n')[1]).toMatch(/^<!-- verdict: (passed|failed|unread) -->$/)
  expect(rendered.of('#comment')).toHaveLength(2)
  expect(rendered.of('h3')).toHaveLength(1)
  expectNoForeignMarkup({ ...rendered, elements: rendered.elements.slice(2) })
  return rendered
}

describe('the marker: the first line, naming the project, which no key can break', () => {
  it('is the first line of the comment and names the project key', () => {
    const body = commentBody(read({ projectKey: 'my project' }), SHA, { sink })
    expect(body.split('\n')[0]).toBe('<!-- sonar-quality-gate: my%20project -->')
    expect(outcomeMarker(read({ projectKey: 'my project' }))).toBe(commentMarker('my project'))
  })

  it('names the source when the outcome has no project key', () => {
    const outcome = unread('Task X was not found.')
    expect(commentBody(outcome, SHA, { sink }).split('\n')[0]).toBe(
      commentMarker('gone/report-task.txt')
    )
    expect(outcomeMarker(read({ projectKey: undefined }))).toBe(
      commentMarker('build/sonar/report-task.txt')
    )
  })

  it.each([
    '--><img src=x>',
    '--!><img src=x>',
    'a\n<!-- sonar-quality-gate: other -->\n<h2>x</h2>',
    'a\r\n\r\n## heading',
    '<!-- sonar-quality-gate: b -->',
    '\ud800 lone surrogate',
    'k'.repeat(1_000_000)
  ])('a project key %j stays inside one HTML comment on one line', (projectKey) => {
    const body = commentBody(read({ projectKey }), SHA, { sink })
    const marker = body.split('\n')[0]!
    expect(marker).toBe(commentMarker(projectKey))
    expect(marker.length).toBeLessThanOrEqual(COMMENT_LIMITS.markerKeyChars * 9 + 40)
    // The marker, then the hidden verdict line: no key makes a third.
    expect(htmlComments(body)).toEqual([
      marker.slice('<!--'.length, -'-->'.length),
      ' verdict: failed '
    ])
    expectOneMarkerAndOurMarkup(body)
    expect(markerOf(body)).toBe(marker)
  })

  it('tells different keys apart, even when one begins with the other', () => {
    expect(commentMarker('a')).not.toBe(commentMarker('a -->'))
    const body = commentBody(read({ projectKey: 'ab' }), SHA, { sink })
    expect(carriesMarker(body, commentMarker('ab'))).toBe(true)
    expect(carriesMarker(body, commentMarker('a'))).toBe(false)
  })
})

describe('recognising the comment that carries a marker', () => {
  const marker = commentMarker('api')
  const body = commentBody(read({ projectKey: 'api' }), SHA, { sink })

  it('recognises the body commentBody wrote, also with CRLF line ends', () => {
    expect(carriesMarker(body, marker)).toBe(true)
    expect(carriesMarker(body.replaceAll('\n', '\r\n'), marker)).toBe(true)
    expect(carriesMarker(marker, marker)).toBe(true)
  })

  it.each([
    ['a reply quoting the comment', `> ${body}`],
    ['the marker further down', `Looks good\n${marker}`],
    ['the marker with text after it', `${marker} and more`],
    ['no body', undefined],
    ['a body that is not text', 42]
  ])('does not take %s for the comment', (_, other) => {
    expect(carriesMarker(other, marker)).toBe(false)
  })
})

describe('the comment says the verdict, the failing conditions in words, the link and the commit', () => {
  it('a failed gate: its headline, each failing condition in words, the link and the commit', () => {
    const outcome = read({ projectKey: 'web' })
    const rendered = expectOneMarkerAndOurMarkup(commentBody(outcome, SHA, { sink }))

    expect(rendered.of('h3')[0]!.text).toBe('❌ Quality Gate failed · web')
    expect(rendered.of('p')[0]!.text).toBe('4 of 7 conditions failed:')
    const failing = gateResult().conditions.filter(({ condition }) => condition.status === 'ERROR')
    expect(rendered.of('li').map(({ text }) => text)).toEqual(
      failing.map((evaluated) => `❌ ${describeCondition(evaluated)}`)
    )
    expect(rendered.of('li')[0]!.text).toBe(
      '❌ Coverage on New Code is 82.51% (fails when less than 85%)'
    )
    expect(rendered.of('a').map(({ attributes }) => attributes['href'])).toEqual([
      'https://sonar.example.com/component_measures?id=web&metric=new_coverage',
      'https://sonar.example.com/project/issues?id=web&resolved=false&inNewCodePeriod=true&severities=BLOCKER',
      'https://sonar.example.com/project/issues?id=web&resolved=false&inNewCodePeriod=true&severities=CRITICAL',
      'https://sonar.example.com/component_measures?id=web&metric=open_issues',
      'https://sonar.example.com/dashboard?id=my-project'
    ])
    expect(rendered.text).toContain('For commit 0123456 · analysis AYAnalysis1')
  })

  it('a passed gate says so, with no list', () => {
    const conditions = evaluateConditions([condition({ status: 'OK', actualValue: '90' })])
    const rendered = expectOneMarkerAndOurMarkup(
      commentBody(read({ status: 'OK', conditions }), SHA, { sink })
    )
    expect(rendered.of('h3')[0]!.text).toBe('✅ Quality Gate passed · my-project')
    expect(rendered.of('p')[0]!.text).toBe('The condition passed.')
    expect(rendered.of('li')).toEqual([])
  })

  it('a gate that warns lists its warning conditions', () => {
    const conditions = evaluateConditions([
      condition({ status: 'WARN', errorThreshold: undefined, warningThreshold: '90' }),
      condition({ status: 'OK', actualValue: '90' })
    ])
    const rendered = renderAsGitHub(
      commentBody(read({ status: 'WARN', conditions }), SHA, { sink })
    )
    expect(rendered.of('h3')[0]!.text).toBe('⚠️ Quality Gate passed with warnings · my-project')
    expect(rendered.of('p')[0]!.text).toBe('1 of 2 conditions passed with warnings:')
    expect(rendered.of('li').map(({ text }) => text)).toEqual([
      '⚠️ Coverage on New Code is 82.5% (warns when less than 90%)'
    ])
  })

  it('a dashboard on another origin is shown as text, a javascript: one left out', () => {
    const elsewhere = renderAsGitHub(
      commentBody(read({ dashboardUrl: 'https://evil.example/dashboard?id=p' }), SHA, { sink })
    )
    expect(elsewhere.of('a').filter(({ text }) => text.startsWith('See '))).toEqual([])
    expect(elsewhere.text).toContain(
      "dashboard (not linked: not on the server's origin) https://evil.example/dashboard?id=p"
    )
    const script = renderAsGitHub(
      commentBody(read({ dashboardUrl: 'javascript:alert(1)' }), SHA, { sink })
    )
    expect(script.of('a').filter(({ text }) => text.startsWith('See '))).toEqual([])
    expect(script.text).not.toMatch(/alert|dashboard/)
  })

  it('a commit id that is not one is shown escaped, as it is', () => {
    const rendered = expectOneMarkerAndOurMarkup(commentBody(read(), '<img src=x>', { sink }))
    expect(rendered.text).toContain('For commit <img src=x>')
  })

  it('an analysis that could not be read: why, line by line, and the commit', () => {
    const outcome = unread('Task X was not found.\nCheck the taskId input.', 'api')
    const rendered = expectOneMarkerAndOurMarkup(commentBody(outcome, SHA, { sink }))
    expect(rendered.of('h3')[0]!.text).toBe('❗ Quality Gate could not be read · api')
    expect(rendered.of('p')[0]!.text).toBe('Task X was not found.Check the taskId input.')
    expect(rendered.of('br')).toHaveLength(1)
    expect(rendered.text).toContain('For commit 0123456')
    expect(markerOf(commentBody(outcome, SHA, { sink }))).toBe(commentMarker('api'))
  })
})

describe('server text in the comment is shown as text, never as markup', () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'a comment with %s in every server value has one marker, one heading, our elements only',
    (_, text) => {
      const body = commentBody({ read: true, source: text, result: hostileResult(text) }, text, {
        sink
      })
      const rendered = expectOneMarkerAndOurMarkup(body)
      expect(rendered.of('h3')[0]!.text).toMatch(/^❔ Unknown Quality Gate status /)
      expect(body.length).toBeLessThanOrEqual(COMMENT_LIMITS.chars)
    }
  )

  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'the comment of an unread analysis with %s in its message and key has our elements only',
    (_, text) => {
      const body = commentBody(unread(`The task failed: ${text}`, text), SHA, { sink })
      const rendered = expectOneMarkerAndOurMarkup(body)
      expect(rendered.of('h3')[0]!.text).toMatch(/^❗ Quality Gate could not be read · /)
      expect(body.length).toBeLessThanOrEqual(COMMENT_LIMITS.chars)
    }
  )
})

describe('the comment stays under GitHub’s 65,536 characters whatever the server sends', () => {
  const many = (count: number, value: string) =>
    evaluateConditions(
      Array.from({ length: count }, (_, index) =>
        condition({ metricKey: `${value}${index}`, actualValue: value, errorThreshold: value })
      )
    )

  it('lists 50 failing conditions, then says how many more', () => {
    const rendered = renderAsGitHub(
      commentBody(read({ conditions: many(100_000, 'v') }), SHA, { sink })
    )
    const items = rendered.of('li')
    expect(items).toHaveLength(COMMENT_LIMITS.conditions + 1)
    expect(items.at(-1)!.text).toBe('… and 99950 more: see the job summary or the dashboard')
  })

  it('keeps to its budget with 100,000 conditions of long values that escape to five times their size', () => {
    const value = '<\u2028'.repeat(1000)
    const body = commentBody(
      read({ conditions: many(100_000, value), projectKey: value, analysisId: value }),
      SHA,
      { sink }
    )
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMITS.chars)
    expect(renderAsGitHub(body).of('li').at(-1)!.text).toMatch(/^… and \d+ more: /)
  })

  it('keeps to a smaller limit when asked, the marker and heading first', () => {
    const body = commentBody(read({ conditions: many(100, 'v'.repeat(200)) }), SHA, {
      sink,
      limit: 3000
    })
    expect(body.length).toBeLessThanOrEqual(3000)
    expect(markerOf(body)).toBe(commentMarker('my-project'))
  })
})
