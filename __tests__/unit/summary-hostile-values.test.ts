import { describe, expect, it } from 'vitest'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { renderFailureSummary, renderSummary, SUMMARY_LIMITS } from '../../src/report/summary.js'
import { renderAsGitHub, type RenderedSummary } from '../support/summary-as-github.js'
import { condition, gateResult, SERVER } from './summary-gate-result.js'

/** Server text written to take over a summary rendered as GitHub renders it. */
const HOSTILE = [
  '\r## ✅ Quality Gate passed',
  '\n\n## ✅ Quality Gate passed\n\n',
  '\r\n\r\n<h2>✅ Quality Gate passed</h2>\r\n\r\n',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '</code></td></tr></table><h2>✅ Quality Gate passed</h2>',
  '<!-- hidden -->',
  '[x](javascript:alert(1))',
  '![x](https://evil.example/pixel.png)',
  'https://evil.example',
  'www.evil.example',
  'mail@evil.example',
  '`code` ``` | a | b |',
  '*bold* _em_ ~~gone~~ # not a heading',
  '&lt;img src=x onerror=alert(1)&gt;',
  '\u202Egnp.exe',
  'x'.repeat(1_000_000)
]

/** Every server value in the result set to `text`. */
function hostileResult(text: string) {
  const hostile = condition({
    status: text,
    metricKey: text,
    comparator: text,
    errorThreshold: text,
    actualValue: text
  })
  return gateResult({
    status: text,
    analysisId: text,
    taskId: text,
    projectKey: text,
    dashboardUrl: text,
    conditions: evaluateConditions([hostile, condition()]),
    taskWarnings: [text, `<a href="${text}">${text}</a>`]
  })
}

const OUR_ELEMENTS = new Set(['h2', 'h3', 'p', 'code', 'br', 'table', 'thead', 'tbody', 'tr'])
for (const tag of ['th', 'td', 'ul', 'li', 'a']) OUR_ELEMENTS.add(tag)

/** One h2; only our elements; no attribute but an `a`'s href to the server's origin. */
function expectOnlyOurMarkup(rendered: RenderedSummary): void {
  expect(rendered.of('h2')).toHaveLength(1)
  for (const element of rendered.elements) {
    expect(OUR_ELEMENTS).toContain(element.tag)
    const names = Object.keys(element.attributes)
    if (element.tag === 'a') {
      expect(names).toEqual(['href'])
      expect(new URL(element.attributes['href']!).origin).toBe(new URL(SERVER).origin)
    } else {
      expect(names).toEqual([])
    }
  }
}

describe('server text in the job summary is shown as text, never as markup', () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'a summary with %s in every server value has one heading, our elements only, no foreign link',
    (_, text) => {
      const summary = renderSummary(hostileResult(text))
      const rendered = renderAsGitHub(summary)
      // One HTML block, passed through as written: no Markdown is done in it.
      expect(rendered.html).toBe(summary)
      expectOnlyOurMarkup(rendered)
      expect(rendered.of('h2')[0]!.text).toMatch(/^❔ Unknown Quality Gate status /)
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMITS.bytes)
    }
  )

  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'the failure summary of a message with %s has one heading and our elements only',
    (_, text) => {
      const summary = renderFailureSummary(`The task failed: ${text}`)
      const rendered = renderAsGitHub(summary)
      expect(rendered.html).toBe(summary)
      expectOnlyOurMarkup(rendered)
      expect(rendered.of('h2')[0]!.text).toBe('❌ Quality Gate check failed')
    }
  )

  it('shows the text as the server sent it, control characters as escapes', () => {
    const rendered = renderAsGitHub(renderFailureSummary('ok\r## ✅ <img src=x> [x](y) `z` | a |'))
    expect(rendered.of('p')[0]!.text).toBe('ok\\r## ✅ <img src=x> [x](y) `z` | a |')
  })

  it('shows a project key with backticks whole inside its code element', () => {
    const rendered = renderAsGitHub(renderSummary(gateResult({ projectKey: 'a`b``c' })))
    expect(rendered.of('code')[0]!.text).toBe('a`b``c')
  })

  it('cuts each value to 200 characters and a failure message to 4,000, with an ellipsis', () => {
    const long = 'k'.repeat(1_000_000)
    const rendered = renderAsGitHub(renderSummary(gateResult({ projectKey: long })))
    expect(rendered.of('code')[0]!.text).toBe(`${'k'.repeat(199)}…`)
    const failure = renderAsGitHub(renderFailureSummary(long))
    expect(failure.of('p')[0]!.text).toBe(`${'k'.repeat(3999)}…`)
  })
})

describe('the dashboard is linked only on the server origin, never with credentials', () => {
  const linksAndText = (dashboardUrl: string) => {
    const rendered = renderAsGitHub(renderSummary(gateResult({ dashboardUrl })))
    return { links: rendered.of('a').map((a) => a.attributes['href']), text: rendered.text }
  }

  it('links an http(s) address on the server origin', () => {
    expect(linksAndText('https://sonar.example.com/dashboard?id=p').links).toEqual([
      'https://sonar.example.com/dashboard?id=p'
    ])
  })

  it('shows an address on another origin as text, unlinked', () => {
    const { links, text } = linksAndText('https://evil.example/dashboard?id=p')
    expect(links).toEqual([])
    expect(text).toContain(
      "Dashboard (not linked: not on the server's origin): https://evil.example/dashboard?id=p"
    )
  })

  it('removes a user name and password before showing or linking the address', () => {
    const { links, text } = linksAndText('https://admin:hunter2@sonar.example.com/dashboard?id=p')
    expect(links).toEqual(['https://sonar.example.com/dashboard?id=p'])
    expect(
      renderSummary(gateResult({ dashboardUrl: 'https://admin:hunter2@x.example/' }))
    ).not.toMatch(/hunter2/)
    expect(text).not.toMatch(/hunter2/)
  })

  it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'not a url'])(
    'leaves out %s',
    (dashboardUrl) => {
      const { links, text } = linksAndText(dashboardUrl)
      expect(links).toEqual([])
      expect(text).not.toMatch(/dashboard|alert|not a url/i)
    }
  )
})

describe('the summary stays under GitHub’s 1 MiB whatever the server sends', () => {
  const many = (count: number, value: string) =>
    evaluateConditions(
      Array.from({ length: count }, (_, index) =>
        condition({
          status: index % 2 === 0 ? 'OK' : 'ERROR',
          metricKey: `${value}${index}`,
          actualValue: value,
          errorThreshold: value
        })
      )
    )

  it('shows 100 rows, failing conditions first, then says how many more', () => {
    const summary = renderSummary(gateResult({ conditions: many(100_000, 'v') }))
    const rendered = renderAsGitHub(summary)
    const rows = rendered.of('tr').slice(1)
    expect(rows).toHaveLength(SUMMARY_LIMITS.rows)
    expect(rows.every((row) => row.text.includes('❌ ERROR'))).toBe(true)
    expect(rendered.text).toContain(
      '… and 99900 more conditions: see the dashboard or the conditions output.'
    )
  })

  it('keeps to 1,000,000 bytes with 100,000 conditions of escaped, long values', () => {
    const value = '<\u2028'.repeat(1000)
    const summary = renderSummary(
      gateResult({
        conditions: many(100_000, value),
        taskWarnings: Array.from({ length: 100 }, () => value),
        projectKey: value,
        analysisId: value,
        taskId: value
      })
    )
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMITS.bytes)
    expect(renderAsGitHub(summary).text).toMatch(/… and \d+ more conditions/)
  })
})
