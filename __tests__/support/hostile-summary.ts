import { expect } from 'vitest'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { mentionsIn } from './mentions.js'
import type { RenderedSummary } from './summary-as-github.js'
import { condition, gateResult, SERVER } from '../unit/summary-gate-result.js'

/** Server text written to take over a summary rendered as GitHub renders it. */
export const HOSTILE = [
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
  '@all @octo-org/security-team @root please look',
  '`code` ``` | a | b |',
  '*bold* _em_ ~~gone~~ # not a heading',
  '&lt;img src=x onerror=alert(1)&gt;',
  '\u202Egnp.exe',
  'x'.repeat(1_000_000)
]

/** Every server value in the result set to `text`. */
export function hostileResult(text: string) {
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
    taskWarnings: [text, `<a href="${text}">${text}</a>`],
    whatChanged: {
      newCode: { coverage: 81.2, duplication: undefined },
      target: { branch: text, figures: { coverage: 80, duplication: 1 } },
      hotspots: {
        total: 9,
        hotspots: [
          { key: text, message: text, path: text, line: 3, probability: text },
          {
            key: 'AYHotspot2',
            message: text,
            path: undefined,
            line: undefined,
            probability: 'HIGH'
          }
        ]
      },
      issues: { accepted: 1, fixed: 2 }
    }
  })
}

const OUR_ELEMENTS = new Set(['h2', 'h3', 'p', 'code', 'br', 'table', 'thead', 'tbody', 'tr'])
for (const tag of ['h4', 'th', 'td', 'ul', 'li', 'a']) OUR_ELEMENTS.add(tag)

/** One h2; only our elements; no attribute but an `a`'s href to the server's origin. */
export function expectOnlyOurMarkup(rendered: RenderedSummary): void {
  expect(rendered.of('h2')).toHaveLength(1)
  expectNoForeignMarkup(rendered)
}

/**
 * Only our elements; no attribute but an `a`'s href to the server's origin; no text that GitHub
 * or GitLab would take for a mention.
 */
export function expectNoForeignMarkup(rendered: RenderedSummary): void {
  expect(mentionsIn(rendered.mentionable)).toEqual([])
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
