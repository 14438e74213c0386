import { describe, expect, it } from 'vitest'
import { actionHtmlSink } from '../../__fixtures__/sinks.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { renderFailureSummary, renderSummary, SUMMARY_LIMITS } from '../../src/report/summary.js'
import { expectOnlyOurMarkup, HOSTILE, hostileResult } from '../support/hostile-summary.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { condition, gateResult } from './summary-gate-result.js'

/** The job summary's sink, as the action builds it. */
const sink = actionHtmlSink({ limit: SUMMARY_LIMITS.bytes })

describe('server text in the job summary is shown as text, never as markup', () => {
  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'a summary with %s in every server value has one heading, our elements only, no foreign link',
    (_, text) => {
      const summary = renderSummary(hostileResult(text), { sink })
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
      const summary = renderFailureSummary(`The task failed: ${text}`, sink)
      const rendered = renderAsGitHub(summary)
      expect(rendered.html).toBe(summary)
      expectOnlyOurMarkup(rendered)
      expect(rendered.of('h2')[0]!.text).toBe('❌ Quality Gate check failed')
    }
  )

  it('shows the text as the server sent it, control characters as escapes', () => {
    const rendered = renderAsGitHub(
      renderFailureSummary('ok\r## ✅ <img src=x> [x](y) `z` | a |', sink)
    )
    expect(rendered.of('p')[0]!.text).toBe('ok\\r## ✅ <img src=x> [x](y) `z` | a |')
  })

  it('shows a project key with backticks whole inside its code element', () => {
    const rendered = renderAsGitHub(renderSummary(gateResult({ projectKey: 'a`b``c' }), { sink }))
    expect(rendered.of('code')[0]!.text).toBe('a`b``c')
  })

  it('cuts each value to 200 characters and a failure message to 4,000, with an ellipsis', () => {
    const long = 'k'.repeat(1_000_000)
    const rendered = renderAsGitHub(renderSummary(gateResult({ projectKey: long }), { sink }))
    expect(rendered.of('code')[0]!.text).toBe(`${'k'.repeat(199)}…`)
    const failure = renderAsGitHub(renderFailureSummary(long, sink))
    expect(failure.of('p')[0]!.text).toBe(`${'k'.repeat(3999)}…`)
  })
})

describe('the dashboard is linked only on the server origin, never with credentials', () => {
  const isEvidence = (href: string | undefined) =>
    /^https:\/\/sonar\.example\.com\/(component_measures|project\/issues)\?/.test(href ?? '')
  const linksAndText = (dashboardUrl: string) => {
    const rendered = renderAsGitHub(renderSummary(gateResult({ dashboardUrl }), { sink }))
    // The conditions' rows link their evidence on the server; the dashboard is the other link.
    const links = rendered
      .of('a')
      .map((a) => a.attributes['href'])
      .filter((href) => !isEvidence(href))
    return { links, text: rendered.text }
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
      renderSummary(gateResult({ dashboardUrl: 'https://admin:hunter2@x.example/' }), { sink })
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
    const summary = renderSummary(gateResult({ conditions: many(100_000, 'v') }), { sink })
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
      }),
      { sink }
    )
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMITS.bytes)
    expect(renderAsGitHub(summary).text).toMatch(/… and \d+ more conditions/)
  })
})
