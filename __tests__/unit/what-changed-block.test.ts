/**
 * What changed, in every verdict: the job summary (and the command's Markdown, which is the same
 * page), the pull-request comment and the JSON results say the new code's coverage and
 * duplication, against a pull request's target branch, the issues accepted and fixed, and the
 * hotspots to review, the first linked to the server; a part that could not be read is one line.
 */
import { describe, expect, it } from 'vitest'
import { actionHtmlSink, actionSink } from '../../__fixtures__/sinks.js'
import type { WhatChanged } from '../../src/gate/what-changed.js'
import { resultsOutput } from '../../src/report/outputs.js'
import { COMMENT_LIMITS } from '../../src/report/comment-settings.js'
import { commentBody } from '../../src/report/pull-request-comment-body.js'
import { renderSummary } from '../../src/report/summary.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { gateResult, SERVER } from './summary-gate-result.js'

const SHA = '0123456789abcdef0123456789abcdef01234567'

const ofPullRequest: WhatChanged = {
  newCode: { coverage: 85.46, duplication: 1.2 },
  target: { branch: 'main', figures: { coverage: 78.2, duplication: 3.04 } },
  hotspots: {
    total: 7,
    hotspots: [
      {
        key: 'AYHotspot0001',
        message: 'Make sure that this SQL query is safe here.',
        path: 'src/db/query.ts',
        line: 12,
        probability: 'HIGH'
      },
      {
        key: 'AYHotspot0002',
        message: 'Make sure this weak hash is safe.',
        path: undefined,
        line: undefined,
        probability: 'LOW'
      }
    ]
  },
  issues: { accepted: 2, fixed: 3 }
}

const result = (
  whatChanged: WhatChanged | undefined,
  on: 'pull request' | 'branch' = 'pull request'
) =>
  gateResult(on === 'branch' ? { branch: 'main', whatChanged } : { pullRequest: '42', whatChanged })

/** The "What changed" part of a rendered page: from its heading to the next heading. */
function part(html: string): string {
  const rendered = renderAsGitHub(html.replaceAll('<br>', '<br>\n')).text
  const start = rendered.indexOf('What changed')
  expect(start).toBeGreaterThan(-1)
  const end = rendered.search(/New issues|See the analysis|For commit/)
  return rendered.slice(start, end > start ? end : undefined).replace(/\n+/g, '\n')
}

describe('What changed in the job summary', () => {
  it("a pull request: its new code against its target's overall figures, the counts, the hotspots linked", () => {
    const summary = renderSummary(result(ofPullRequest), { sink: actionHtmlSink() })
    expect(part(summary)).toBe(
      [
        'What changed',
        'Coverage on new code: 85.5% (main: 78.2% overall, +7.3 points)',
        'Duplicated lines on new code: 1.2% (main: 3% overall, −1.8 points)',
        'Issues: 2 accepted · 3 fixed by this pull request',
        'Security hotspots to review in the pull request: 7',
        '🔴 src/db/query.ts:12 Make sure that this SQL query is safe here. (review)',
        '🟡 Make sure this weak hash is safe. (review)',
        "… and 5 more: see the server's security hotspots",
        ''
      ].join('\n')
    )
    const links = renderAsGitHub(summary)
      .of('a')
      .map(({ attributes }) => attributes['href'])
    expect(links).toContain(
      `${SERVER}security_hotspots?id=my-project&hotspots=AYHotspot0001&pullRequest=42`
    )
  })

  it('a branch: no target, figures the server did not compute said so, no counts it does not keep', () => {
    const summary = renderSummary(
      result(
        {
          newCode: { coverage: undefined, duplication: 0 },
          hotspots: { total: 0, hotspots: [] }
        },
        'branch'
      ),
      { sink: actionHtmlSink() }
    )
    expect(part(summary)).toBe(
      [
        'What changed',
        'Coverage on new code: not computed',
        'Duplicated lines on new code: 0%',
        'No security hotspots to review in the new code.',
        ''
      ].join('\n')
    )
  })

  it('each part that could not be read is its one line; the verdict is the same', () => {
    const unread = renderSummary(
      result({
        newCode: {
          unread: 'The token may not read the measures (403): they need the Browse permission.'
        },
        target: { unread: "The pull request's target branch could not be read: timed out" },
        hotspots: { unread: 'The hotspots could not be read: The server answered 503' }
      }),
      { sink: actionHtmlSink() }
    )
    expect(part(unread)).toBe(
      [
        'What changed',
        'The token may not read the measures (403): they need the Browse permission.',
        'The hotspots could not be read: The server answered 503',
        ''
      ].join('\n')
    )
    const read = renderSummary(result(ofPullRequest), { sink: actionHtmlSink() })
    expect(renderAsGitHub(unread).of('h2')).toEqual(renderAsGitHub(read).of('h2'))
  })

  it('nothing read (an unknown project): no part at all', () => {
    const summary = renderSummary(result(undefined), { sink: actionHtmlSink() })
    expect(renderAsGitHub(summary).text).not.toContain('What changed')
  })

  it('long hotspot messages: the list is fitted to its share, and says how many it leaves out', () => {
    const long = {
      ...ofPullRequest,
      hotspots: {
        total: 5,
        hotspots: Array.from({ length: 5 }, (_, index) => ({
          key: `AYHotspot${index}`,
          message: '<'.repeat(5000),
          path: 'src/a.ts',
          line: index + 1,
          probability: 'MEDIUM'
        }))
      }
    }
    const sink = actionHtmlSink({ limit: 30_000 })
    const summary = renderSummary(result(long), { sink })
    expect(sink.size(summary)).toBeLessThanOrEqual(30_000)
    expect(renderAsGitHub(summary).text).toMatch(
      /… and \d more: see the server's security hotspots/
    )
  })
})

describe('What changed in the pull-request comment and the JSON results', () => {
  it('the comment says the same, in its own size', () => {
    const sink = actionHtmlSink({ limit: COMMENT_LIMITS.githubChars, unit: 'characters' })
    const body = commentBody(
      { read: true, source: 'report-task.txt', result: result(ofPullRequest) },
      SHA,
      { sink }
    )
    expect(part(body)).toContain('Coverage on new code: 85.5% (main: 78.2% overall, +7.3 points)')
    expect(part(body)).toContain('Issues: 2 accepted · 3 fixed by this pull request')
    expect(part(body)).toContain(
      '🔴 src/db/query.ts:12 Make sure that this SQL query is safe here.'
    )
  })

  it('the results carry the figures, the counts and the first hotspots with their addresses', () => {
    const outcome = {
      read: true as const,
      source: 'report-task.txt',
      result: result(ofPullRequest)
    }
    const [only] = JSON.parse(resultsOutput([outcome], { sink: actionSink() })) as [
      Record<string, unknown>
    ]
    expect(only['whatChanged']).toEqual({
      newCode: { coverage: 85.46, duplicatedLines: 1.2 },
      target: { branch: 'main', coverage: 78.2, duplicatedLines: 3.04 },
      hotspotsToReview: 7,
      hotspots: [
        {
          key: 'AYHotspot0001',
          message: 'Make sure that this SQL query is safe here.',
          path: 'src/db/query.ts',
          line: 12,
          probability: 'HIGH',
          url: `${SERVER}security_hotspots?id=my-project&hotspots=AYHotspot0001&pullRequest=42`
        },
        {
          key: 'AYHotspot0002',
          message: 'Make sure this weak hash is safe.',
          probability: 'LOW',
          url: `${SERVER}security_hotspots?id=my-project&hotspots=AYHotspot0002&pullRequest=42`
        }
      ],
      acceptedIssues: 2,
      fixedIssues: 3
    })
  })
})
