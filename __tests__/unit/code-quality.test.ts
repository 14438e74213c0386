import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { commandSink } from '../../__fixtures__/sinks.js'
import {
  CODE_QUALITY_LIMITS,
  renderCodeQuality,
  type CodeQualityIssue
} from '../../src/findings/code-quality.js'
import { oneLine } from '../../src/untrusted-text.js'
import { analysis, HOSTILE_MESSAGES, LINE_BREAKING, serverIssue } from '../support/findings.js'

const render = (...analyses: Parameters<typeof renderCodeQuality>[0]) =>
  renderCodeQuality(analyses, 'sonarqube', commandSink())

const parse = (json: string) => JSON.parse(json) as CodeQualityIssue[]

const only = (json: string): CodeQualityIssue => {
  const [issue, ...others] = parse(json)
  expect(others).toEqual([])
  return issue!
}

/**
 * What GitLab checks of each item before it keeps it (its codeclimate.json schema: GitLab stops
 * reading the report at the first item that fails), and what its documentation requires on top:
 * a path and a line.
 */
function gitLabProblems(item: unknown): string[] {
  const problems: string[] = []
  const record = item as Record<string, unknown>
  for (const field of ['description', 'fingerprint', 'severity']) {
    if (typeof record[field] !== 'string') problems.push(`${field} is not a string`)
  }
  const location = record['location'] as Record<string, unknown> | undefined
  if (typeof location !== 'object' || location === null) return [...problems, 'no location']
  if (typeof location['path'] !== 'string' || location['path'] === '') problems.push('no path')
  const lines = location['lines'] as Record<string, unknown> | undefined
  if (!Number.isSafeInteger(lines?.['begin']) || (lines?.['begin'] as number) < 1) {
    problems.push('no line')
  }
  if (!['info', 'minor', 'major', 'critical', 'blocker'].includes(record['severity'] as string)) {
    problems.push(`severity ${String(record['severity'])}`)
  }
  return problems
}

describe('a JSON array GitLab reads', () => {
  it('each item has all GitLab needs, in the documented shape', () => {
    const report = render(analysis({ issues: [serverIssue('AY1')] }))
    expect(only(report.json)).toEqual({
      type: 'issue',
      description: 'Remove this unused private "total" method.',
      check_name: 'java:S1144',
      fingerprint: createHash('sha256').update('AY1').digest('hex'),
      severity: 'major',
      categories: ['Clarity'],
      engine_name: 'sonarqube',
      location: { path: 'src/main/java/shop/Cart.java', lines: { begin: 42 } }
    })
    expect(gitLabProblems(only(report.json))).toEqual([])
  })

  it('starts with the array itself (GitLab refuses a byte order mark) and ends in a newline', () => {
    const { json } = render(analysis({ issues: [serverIssue('AY1')] }))
    expect(json.startsWith('[')).toBe(true)
    expect(json.endsWith(']\n')).toBe(true)
  })

  it('with no findings is an empty array: GitLab reads it as no issues', () => {
    expect(render().json).toBe('[]\n')
  })
})

describe("GitLab's five severities", () => {
  it('blocker → blocker, high → critical, medium → major, low → minor, info → info', () => {
    const severities = ['BLOCKER', 'HIGH', 'MEDIUM', 'LOW', 'INFO']
    const report = render(
      analysis({
        issues: severities.map((severity, index) =>
          serverIssue(`AY${index}`, {
            // As 2025.x sends it in MQR mode: the legacy severity no higher than the impact's.
            severity: 'INFO',
            impacts: [{ softwareQuality: 'SECURITY', severity }]
          })
        )
      })
    )
    expect(parse(report.json).map((issue) => issue.severity)).toEqual([
      'blocker',
      'critical',
      'major',
      'minor',
      'info'
    ])
  })

  it('the legacy severities of older servers the same way (CRITICAL → critical, MINOR → minor)', () => {
    const report = render(
      analysis({
        issues: [
          serverIssue('AY1', { severity: 'CRITICAL', impacts: [] }),
          serverIssue('AY2', { severity: 'MINOR', impacts: [] })
        ]
      })
    )
    expect(parse(report.json).map((issue) => issue.severity)).toEqual(['critical', 'minor'])
  })
})

describe('fingerprints', () => {
  it('the SHA-256 of the issue key: the same from one pipeline to the next, unique per issue', () => {
    const issues = [serverIssue('AY1'), serverIssue('AY2', { line: 42 })]
    const first = parse(render(analysis({ issues })).json)
    const moved = parse(
      render(analysis({ issues: [serverIssue('AY1', { line: 90, textRange: undefined })] })).json
    )
    expect(first[0]?.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(first[0]?.fingerprint).toBe(moved[0]?.fingerprint)
    expect(new Set(first.map((issue) => issue.fingerprint)).size).toBe(2)
  })

  it('an issue that comes twice (its project checked twice) is written once', () => {
    const shop = analysis({ issues: [serverIssue('AY1')] })
    const report = render(shop, shop)
    expect(parse(report.json)).toHaveLength(1)
    expect(report).toMatchObject({ issues: 1, unlocated: 0, omitted: 0 })
  })
})

describe('locations', () => {
  const locationOf = (issue: Record<string, unknown>) =>
    only(render(analysis({ issues: [issue] })).json).location

  it('the file relative to the repository root and the first line of the issue', () => {
    const range = { startLine: 3, endLine: 5, startOffset: 0, endOffset: 1 }
    expect(locationOf(serverIssue('AY1', { textRange: range }))).toEqual({
      path: 'src/main/java/shop/Cart.java',
      lines: { begin: 3, end: 5 }
    })
  })

  it('a file-level issue (no line) is on line 1, where GitLab can show it', () => {
    expect(locationOf(serverIssue('AY1', { textRange: undefined, line: undefined }))).toEqual({
      path: 'src/main/java/shop/Cart.java',
      lines: { begin: 1 }
    })
  })

  it('a finding not in the checkout is left out and counted: GitLab needs a repository path', () => {
    const report = render(
      analysis({
        issues: [serverIssue('AY1'), serverIssue('AY2', { component: 'shop:gone/Old.java' })],
        notInCheckout: ['gone/Old.java']
      })
    )
    expect(parse(report.json).map((issue) => issue.location.path)).toEqual([
      'src/main/java/shop/Cart.java'
    ])
    expect(report).toMatchObject({ issues: 1, unlocated: 1, omitted: 0 })
  })
})

describe('categories by issue type', () => {
  it('bugs are Bug Risk, vulnerabilities Security, code smells Clarity', () => {
    const report = render(
      analysis({
        issues: ['BUG', 'VULNERABILITY', 'CODE_SMELL'].map((type, index) =>
          serverIssue(`AY${index}`, { type })
        )
      })
    )
    expect(parse(report.json).map((issue) => issue.categories)).toEqual([
      ['Bug Risk'],
      ['Security'],
      ['Clarity']
    ])
  })
})

describe('hostile text from the server', () => {
  const messages = Object.values(HOSTILE_MESSAGES)
  const issues = messages.map((message, index) =>
    serverIssue(`AY${index}`, { message, rule: `java:S${index}\n::error::x` })
  )
  const report = render(analysis({ issues }))

  it('stays valid JSON that GitLab reads to the end, each description the bounded text', () => {
    const items = parse(report.json)
    expect(items.map(gitLabProblems)).toEqual(messages.map(() => []))
    expect(items.map((item) => item.description)).toEqual(
      messages.map((message, index) =>
        message === ''
          ? `java:S${index}\\n::error::x`
          : oneLine(message, CODE_QUALITY_LIMITS.description)
      )
    )
  })

  it('keeps every text to one line, no character cut in half', () => {
    for (const item of parse(report.json)) {
      for (const text of [item.description, item.check_name]) {
        expect(text).not.toMatch(LINE_BREAKING)
        expect(Buffer.from(text).toString()).toBe(text)
      }
    }
    expect(report.json.length).toBeLessThan(100_000)
  })

  it('the same findings always give the same bytes', () => {
    expect(render(analysis({ issues })).json).toBe(report.json)
  })
})

describe('bounds', () => {
  it(`at most ${CODE_QUALITY_LIMITS.issuesPerAnalysis} issues of an analysis, the rest counted`, () => {
    const issues = Array.from({ length: CODE_QUALITY_LIMITS.issuesPerAnalysis + 20 }, (_, index) =>
      serverIssue(`AY${index}`)
    )
    const report = render(analysis({ issues }))
    expect(parse(report.json)).toHaveLength(CODE_QUALITY_LIMITS.issuesPerAnalysis)
    expect(report).toMatchObject({ issues: CODE_QUALITY_LIMITS.issuesPerAnalysis, omitted: 20 })
  })

  it('the whole file stays within its byte bound however large the server made each text', () => {
    const flood = '\u0001'.repeat(5_000)
    const issues = Array.from({ length: CODE_QUALITY_LIMITS.issuesPerAnalysis }, (_, index) =>
      serverIssue(`AY${index}`, { message: flood })
    )
    const report = render(
      analysis({ projectKey: 'a', issues }),
      analysis({
        projectKey: 'b',
        issues: issues.map((issue) => ({ ...issue, key: `B${String(issue['key'])}` }))
      })
    )
    const bytes = Buffer.byteLength(report.json)
    expect(report.omitted).toBeGreaterThan(0)
    expect(report.issues + report.omitted).toBe(2 * CODE_QUALITY_LIMITS.issuesPerAnalysis)
    expect(bytes).toBeLessThanOrEqual(CODE_QUALITY_LIMITS.bytes + 10)
    expect(bytes).toBeGreaterThan(CODE_QUALITY_LIMITS.bytes - 10_000)
  })
})
