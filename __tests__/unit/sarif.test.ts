import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { actionSink } from '../../__fixtures__/sinks.js'
import { analysisFindings } from '../../src/report/analysis-findings.js'
import {
  renderSarif,
  SARIF_LIMITS,
  SARIF_SCHEMA,
  type SarifTool
} from '../../src/findings/sarif.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { ReportFileError } from '../../src/errors.js'
import { oneLine } from '../../src/untrusted-text.js'
import { analysis, HOSTILE_MESSAGES, LINE_BREAKING, serverIssue } from '../support/findings.js'
import { gateResult } from './summary-gate-result.js'

const TOOL: SarifTool = {
  name: 'SonarQube',
  informationUri: 'https://www.sonarsource.com/products/sonarqube/'
}

/** The parts of a SARIF log these tests read. */
interface Log {
  $schema: string
  version: string
  runs: Run[]
}
interface Run {
  tool: { driver: { name: string; informationUri: string; version?: string; rules: Rule[] } }
  automationDetails: { id: string }
  results: Result[]
  properties: Record<string, unknown>
}
interface Rule {
  id: string
  shortDescription: { text: string }
  fullDescription: { text: string }
  help: { text: string }
  helpUri?: string
  properties?: { tags: string[]; 'security-severity': string }
}
interface Result {
  ruleId: string
  ruleIndex: number
  level: string
  message: { text: string }
  locations: Array<{
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId: string }
      region?: Record<string, number>
    }
  }>
  partialFingerprints: Record<string, string>
  hostedViewerUri?: string
  properties: Record<string, string>
}

const parse = (json: string): Log => JSON.parse(json) as Log

const render = (...analyses: Parameters<typeof renderSarif>[0]) =>
  renderSarif(analyses, TOOL, actionSink())

const onlyRun = (json: string): Run => {
  const [run, ...others] = parse(json).runs
  expect(others).toEqual([])
  return run!
}

describe('a SARIF 2.1.0 log', () => {
  it('names the final schema and version 2.1.0, as JSON ending in a newline', () => {
    const { json } = render(analysis({ issues: [serverIssue('AY1')] }))
    const log = parse(json)
    expect(log.$schema).toBe(SARIF_SCHEMA)
    expect(log.version).toBe('2.1.0')
    expect(json.endsWith('}\n')).toBe(true)
  })

  it('with no analyses read is a log without runs', () => {
    expect(parse(render().json).runs).toEqual([])
  })
})

describe('one run per analysis', () => {
  const shop = analysis({ projectKey: 'shop', issues: [serverIssue('AY1')] })
  const billing = analysis({ projectKey: 'billing', issues: [serverIssue('AY2')] })

  it('each run is its project, kept apart for GitHub by automationDetails.id sonar/<projectKey>/', () => {
    const { runs } = parse(render(shop, billing).json)
    expect(runs.map((run) => run.automationDetails.id)).toEqual(['sonar/shop/', 'sonar/billing/'])
    expect(runs.map((run) => run.results.map((result) => result.partialFingerprints))).toEqual([
      [{ 'sonarIssueKey/v1': 'AY1' }],
      [{ 'sonarIssueKey/v1': 'AY2' }]
    ])
  })

  it('a project checked twice gets a second category, so neither run replaces the other', () => {
    const { runs } = parse(render(shop, shop).json)
    expect(runs.map((run) => run.automationDetails.id)).toEqual(['sonar/shop/', 'sonar/shop/2'])
  })

  it('a project key cannot end the category early or add to it', () => {
    const odd = analysis({ projectKey: 'org/shop\nx', issues: [serverIssue('AY1')] })
    expect(onlyRun(render(odd).json).automationDetails.id).toBe('sonar/org_shop_x/')
  })

  it('the driver is the tool given, its version only when known', () => {
    const run = onlyRun(render(shop).json)
    expect(run.tool.driver).toMatchObject({
      name: 'SonarQube',
      informationUri: TOOL.informationUri
    })
    expect(run.tool.driver.version).toBeUndefined()
    const versioned = renderSarif([shop], { ...TOOL, version: '10.7.0.96327' }, actionSink())
    expect(onlyRun(versioned.json).tool.driver.version).toBe('10.7.0.96327')
  })

  it('the run says how many new issues the server counts and how many it holds', () => {
    const partly = analysis({ issues: [serverIssue('AY1'), serverIssue('AY2')], total: 7300 })
    expect(onlyRun(render(partly).json).properties).toEqual({
      projectKey: 'shop',
      newIssues: 7300,
      results: 2
    })
  })
})

describe('analyses written: those whose new issues were read', () => {
  const findings = [...analysis({ issues: [serverIssue('AY1')] }).findings]
  const outcomes: AnalysisOutcome[] = [
    {
      read: true,
      source: 'a/report-task.txt',
      result: gateResult({
        projectKey: 'shop',
        newIssues: {
          read: true,
          scope: { kind: 'new-code', branch: undefined },
          findings,
          total: 1,
          requests: 1
        }
      })
    },
    {
      read: true,
      source: 'b/report-task.txt',
      result: gateResult({
        projectKey: 'billing',
        newIssues: { read: false, reason: 'The token may not browse the project (HTTP 403)' }
      })
    },
    {
      read: true,
      source: 'c/report-task.txt',
      result: gateResult({ projectKey: 'no-issues-read' })
    },
    {
      read: false,
      source: 'd/report-task.txt',
      projectKey: 'gone',
      message: 'report file not found',
      error: new ReportFileError('report file not found')
    }
  ]

  it('an analysis whose issues could not be read has no run: none would close its alerts', () => {
    expect(analysisFindings(outcomes)).toEqual([
      { projectKey: 'shop', serverUrl: 'https://sonar.example.com/', findings, total: 1 }
    ])
  })
})

describe('each rule used, described once in its run', () => {
  const run = onlyRun(
    render(
      analysis({
        serverUrl: 'https://user:secret@sonar.example.com/sonar',
        issues: [
          serverIssue('AY1', { rule: 'java:S1144' }),
          serverIssue('AY2', { rule: 'java:S2076' }),
          serverIssue('AY3', { rule: 'java:S1144' })
        ],
        rules: [{ key: 'java:S1144', name: 'Unused "private" methods should be removed' }]
      })
    ).json
  )

  it('in the order first used, each result pointing at its rule by id and index', () => {
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(['java:S1144', 'java:S2076'])
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId)
    }
  })

  it("described by the rule's name, or its key when the server sent no name", () => {
    const [named, unnamed] = run.tool.driver.rules
    expect(named?.shortDescription.text).toBe('Unused "private" methods should be removed')
    expect(named?.fullDescription.text).toBe('Unused "private" methods should be removed')
    expect(unnamed?.shortDescription.text).toBe('java:S2076')
  })

  it("helped by the rule's page on the server, under its base path and without credentials", () => {
    const [named] = run.tool.driver.rules
    const page =
      'https://sonar.example.com/sonar/coding_rules?open=java%3AS1144&rule_key=java%3AS1144'
    expect(named?.helpUri).toBe(page)
    expect(named?.help.text).toBe(`Unused "private" methods should be removed: ${page}`)
    expect(JSON.stringify(run)).not.toContain('secret')
  })
})

describe('security severity only for vulnerabilities', () => {
  const vulnerability = (key: string, severity: string, rule = 'java:S2076') =>
    serverIssue(key, { rule, type: 'VULNERABILITY', severity, impacts: [] })

  it('a vulnerability rule carries the security tag and the score of its worst finding', () => {
    const run = onlyRun(
      render(
        analysis({
          issues: [
            vulnerability('AY1', 'MAJOR'),
            vulnerability('AY2', 'CRITICAL'),
            vulnerability('AY3', 'MINOR')
          ]
        })
      ).json
    )
    expect(run.tool.driver.rules[0]?.properties).toEqual({
      tags: ['security'],
      'security-severity': '8.0'
    })
  })

  it('each severity a score on the side of GitHub scale it names', () => {
    const scores = ['BLOCKER', 'CRITICAL', 'MAJOR', 'MINOR', 'INFO'].map((severity, index) => {
      const run = onlyRun(
        render(analysis({ issues: [vulnerability(`AY${index}`, severity)] })).json
      )
      return Number(run.tool.driver.rules[0]?.properties?.['security-severity'])
    })
    // GitHub: over 9.0 critical, 7.0 to 8.9 high, 4.0 to 6.9 medium, below that low.
    expect(scores[0]).toBeGreaterThan(9)
    expect(scores[1]).toBeGreaterThanOrEqual(7)
    expect(scores[1]).toBeLessThan(9)
    expect(scores[2]).toBeGreaterThanOrEqual(4)
    expect(scores[2]).toBeLessThan(7)
    expect(scores[3]).toBeLessThan(4)
    expect(scores[4]).toBeLessThan(scores[3]!)
  })

  it('bugs and code smells carry no security properties', () => {
    const run = onlyRun(
      render(analysis({ issues: [serverIssue('AY1', { type: 'BUG', severity: 'BLOCKER' })] })).json
    )
    expect(run.tool.driver.rules[0]?.properties).toBeUndefined()
  })
})

describe('levels by severity', () => {
  it('blocker and high are errors, medium a warning, low and info notes', () => {
    const severities = ['BLOCKER', 'HIGH', 'MEDIUM', 'LOW', 'INFO']
    const run = onlyRun(
      render(
        analysis({
          issues: severities.map((severity, index) =>
            serverIssue(`AY${index}`, {
              // As 2025.x sends it in MQR mode: the legacy severity no higher than the impact's.
              severity: 'INFO',
              impacts: [{ softwareQuality: 'RELIABILITY', severity }]
            })
          )
        })
      ).json
    )
    expect(run.results.map((result) => result.level)).toEqual([
      'error',
      'error',
      'warning',
      'note',
      'note'
    ])
    expect(run.results.map((result) => result.properties.sonarSeverity)).toEqual(severities)
  })
})

describe('locations', () => {
  const locationOf = (issue: Record<string, unknown>) =>
    onlyRun(render(analysis({ issues: [issue] })).json).results[0]?.locations[0]?.physicalLocation

  it('the file relative to the checkout root, with lines and 1-based columns, end exclusive', () => {
    expect(locationOf(serverIssue('AY1'))).toEqual({
      artifactLocation: { uri: 'src/main/java/shop/Cart.java', uriBaseId: '%SRCROOT%' },
      region: { startLine: 42, endLine: 42, startColumn: 10, endColumn: 22 }
    })
  })

  it('a range over lines keeps its columns; a line alone has no columns', () => {
    const range = { startLine: 3, endLine: 5, startOffset: 0, endOffset: 1 }
    expect(locationOf(serverIssue('AY1', { textRange: range }))?.region).toEqual({
      startLine: 3,
      endLine: 5,
      startColumn: 1,
      endColumn: 2
    })
    expect(locationOf(serverIssue('AY2', { textRange: undefined, line: 7 }))?.region).toEqual({
      startLine: 7,
      endLine: 7
    })
  })

  it('a file-level issue names its file without a region', () => {
    const located = locationOf(serverIssue('AY1', { textRange: undefined, line: undefined }))
    expect(located).toEqual({
      artifactLocation: { uri: 'src/main/java/shop/Cart.java', uriBaseId: '%SRCROOT%' }
    })
  })

  it('a file name is percent-encoded so the URI names that file', () => {
    const issue = serverIssue('AY1', { component: 'shop:docs/a b#1%.md' })
    expect(locationOf(issue)?.artifactLocation.uri).toBe('docs/a%20b%231%25.md')
  })

  it('a finding not in the checkout is left out and counted: GitHub refuses a result without a location', () => {
    const sarif = render(
      analysis({
        issues: [serverIssue('AY1'), serverIssue('AY2', { component: 'shop:gone/Old.java' })],
        notInCheckout: ['gone/Old.java']
      })
    )
    const run = onlyRun(sarif.json)
    expect(run.results.map((result) => result.partialFingerprints['sonarIssueKey/v1'])).toEqual([
      'AY1'
    ])
    expect(run.properties).toMatchObject({ results: 1, unlocatedIssues: 1 })
    expect(sarif).toMatchObject({ results: 1, unlocated: 1, omitted: 0 })
  })
})

describe('each result tied to its issue', () => {
  it('by the issue key as fingerprint, with its link and the server severity as properties', () => {
    const run = onlyRun(
      render(
        analysis({
          serverUrl: 'https://user:secret@sonar.example.com/',
          issues: [serverIssue('AY1', { severity: 'CRITICAL', type: 'BUG', impacts: [] })]
        })
      ).json
    )
    const link = 'https://sonar.example.com/project/issues?id=shop&open=AY1'
    expect(run.results[0]).toMatchObject({
      partialFingerprints: { 'sonarIssueKey/v1': 'AY1' },
      hostedViewerUri: link,
      properties: { sonarSeverity: 'CRITICAL', sonarType: 'BUG', sonarIssueUrl: link }
    })
    expect(JSON.stringify(run)).not.toContain('secret')
  })
})

describe('hostile text from the server', () => {
  const hostile = Object.values(HOSTILE_MESSAGES).map((message, index) =>
    serverIssue(`AY${index}`, { message, rule: `java:S${index}\n::error::x` })
  )
  const rules = Object.values(HOSTILE_MESSAGES).map((name, index) => ({
    key: `java:S${index}\n::error::x`,
    name
  }))
  const sarif = render(analysis({ issues: hostile, rules }))

  it('stays valid JSON whatever the message holds, its values exactly the bounded text', () => {
    const run = onlyRun(sarif.json)
    const messages = Object.values(HOSTILE_MESSAGES)
    expect(run.results.map((result) => result.message.text)).toEqual(
      messages.map((message, index) =>
        message === '' ? `java:S${index}\\n::error::x` : oneLine(message, SARIF_LIMITS.message)
      )
    )
  })

  it('keeps every text to one line: no line break or control character survives', () => {
    const run = onlyRun(sarif.json)
    const texts = [
      ...run.results.flatMap((result) => [result.message.text, result.ruleId]),
      ...run.tool.driver.rules.flatMap((rule) => [
        rule.id,
        rule.shortDescription.text,
        rule.help.text
      ])
    ]
    for (const text of texts) {
      expect(text).not.toMatch(LINE_BREAKING)
    }
  })

  it('bounds each message, cutting no character in half', () => {
    const run = onlyRun(sarif.json)
    for (const result of run.results) {
      expect(result.message.text.length).toBeLessThanOrEqual(6 * SARIF_LIMITS.message)
      expect(Buffer.from(result.message.text).toString()).toBe(result.message.text)
    }
    expect(sarif.json.length).toBeLessThan(100_000)
  })

  it('the same findings always give the same bytes', () => {
    const again = render(analysis({ issues: hostile, rules }))
    expect(again.json).toBe(sarif.json)
  })
})

describe('bounds', () => {
  it(`at most ${SARIF_LIMITS.resultsPerRun} results in a run, the rest counted`, () => {
    const issues = Array.from({ length: SARIF_LIMITS.resultsPerRun + 20 }, (_, index) =>
      serverIssue(`AY${index}`)
    )
    const sarif = render(analysis({ issues }))
    const run = onlyRun(sarif.json)
    expect(run.results).toHaveLength(SARIF_LIMITS.resultsPerRun)
    expect(run.properties).toMatchObject({
      results: SARIF_LIMITS.resultsPerRun,
      omittedResults: 20
    })
    expect(sarif).toMatchObject({ results: SARIF_LIMITS.resultsPerRun, omitted: 20 })
  })

  it('the whole log stays under GitHub 10 MB gzipped however large the server made each text', () => {
    // Control characters are shown as escapes (4 characters each), escaped again by JSON.
    const flood = '\u0001'.repeat(5_000)
    const issues = Array.from({ length: SARIF_LIMITS.resultsPerRun }, (_, index) =>
      serverIssue(`AY${index}`, { message: flood, rule: `java:S${index}` })
    )
    const rules = issues.map((_, index) => ({ key: `java:S${index}`, name: flood }))
    const sarif = render(analysis({ issues, rules }))
    const bytes = Buffer.byteLength(sarif.json)
    expect(sarif.omitted).toBeGreaterThan(0)
    expect(sarif.results + sarif.omitted).toBe(SARIF_LIMITS.resultsPerRun)
    expect(bytes).toBeLessThanOrEqual(SARIF_LIMITS.bytes + 2_000)
    // Each new rule is counted as if it carried a security severity: a little is left unspent.
    expect(bytes).toBeGreaterThan(0.95 * SARIF_LIMITS.bytes)
    expect(gzipSync(sarif.json).length).toBeLessThan(10 * 1024 * 1024)
  })

  it('the budget is spent in the order the analyses come: a later run is the one cut', () => {
    const message = '\u0001'.repeat(100)
    const issues = Array.from({ length: SARIF_LIMITS.resultsPerRun }, (_, index) =>
      serverIssue(`AY${index}`, { message })
    )
    const sarif = render(
      analysis({ projectKey: 'a', issues }),
      analysis({ projectKey: 'b', issues })
    )
    const [first, second] = parse(sarif.json).runs
    expect(first?.results).toHaveLength(SARIF_LIMITS.resultsPerRun)
    expect(first?.properties.omittedResults).toBeUndefined()
    expect(second?.properties.omittedResults).toBe(sarif.omitted)
    expect(sarif.omitted).toBeGreaterThan(0)
    expect(Buffer.byteLength(sarif.json)).toBeLessThanOrEqual(SARIF_LIMITS.bytes + 2_000)
  })
})
