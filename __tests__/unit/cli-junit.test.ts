import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { commandSink } from '../../__fixtures__/sinks.js'
import { renderJunit, type JunitContext } from '../../src/cli/junit.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { ServerRequestError, TimeoutError } from '../../src/errors.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { condition, gateResult } from './summary-gate-result.js'

const SCHEMA = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../__fixtures__/junit/JUnit.xsd'),
  'utf8'
)
const TOKEN = 'squ_junit0123456789abcdef'

/** The JUnit file's sink, as the command builds it: its words, the token's forms. */
const CONTEXT: JunitContext = {
  sink: commandSink({ token: TOKEN, escapedForms: summaryForms }),
  startedAt: new Date('2026-11-22T08:30:00.123Z'),
  hostname: 'ci-runner-7',
  elapsedMs: 61_000
}

/** Validates against Ant's JUnit schema (the one Jenkins, GitLab and Azure read). */
async function expectValid(xml: string): Promise<void> {
  const result = await validateXML({
    xml: [{ fileName: 'gate.xml', contents: xml }],
    schema: [{ fileName: 'JUnit.xsd', contents: SCHEMA }]
  })
  expect(result.errors.map((error) => error.rawMessage)).toEqual([])
  expect(result.valid).toBe(true)
}

const failingGate: AnalysisOutcome = {
  read: true,
  source: 'api/target/sonar/report-task.txt',
  result: gateResult({ projectKey: 'shop-api' })
}
const passingGate: AnalysisOutcome = {
  read: true,
  source: 'web/.scannerwork/report-task.txt',
  result: gateResult({
    projectKey: 'shop-web',
    status: 'OK',
    qualityGateStatus: 'PASSED',
    conditions: evaluateConditions([condition({ status: 'OK', actualValue: '91.3' })])
  })
}
const unread: AnalysisOutcome = {
  read: false,
  source: 'reports/build/sonar/report-task.txt',
  projectKey: 'shop-reports',
  message:
    'Timed out after 60.0 s waiting for the analysis task AYTask3: its last status was IN_PROGRESS.',
  error: new TimeoutError('Timed out')
}

describe('the JUnit report validates against the JUnit XML schema', () => {
  it('the schema is really checked: a testsuite without its properties is refused', async () => {
    const xml = renderJunit([passingGate], CONTEXT).replace(/<properties>[^]*<\/properties>/, '')
    const result = await validateXML({
      xml: [{ fileName: 'gate.xml', contents: xml }],
      schema: [{ fileName: 'JUnit.xsd', contents: SCHEMA }]
    })
    expect(result.valid).toBe(false)
  })

  it('one testsuite per analysis: a failing gate, a passing one and one that could not be read', async () => {
    const xml = renderJunit([failingGate, passingGate, unread], CONTEXT)
    await expectValid(xml)
    expect(xml.match(/<testsuite /g)).toHaveLength(3)
  })

  it('a gate without conditions (NONE) and an ERROR gate without an ERROR condition', async () => {
    const none: AnalysisOutcome = {
      read: true,
      source: 'a/report-task.txt',
      result: gateResult({ status: 'NONE', qualityGateStatus: 'NONE', conditions: [] })
    }
    const inconsistent: AnalysisOutcome = {
      read: true,
      source: 'b/report-task.txt',
      result: gateResult({
        projectKey: 'b',
        conditions: evaluateConditions([condition({ status: 'OK', actualValue: '99' })])
      })
    }
    const xml = renderJunit([none, inconsistent], CONTEXT)
    await expectValid(xml)
    expect(xml).toContain('<testcase name="Quality Gate" classname="my-project" time="0"/>')
    expect(xml).toMatch(
      /<testcase name="Quality Gate" classname="b" time="0">\s*<failure type="ERROR" message="Quality Gate Failure for b: 0 of 1 conditions failed\."/
    )
  })

  it('hostile server text: markup, control characters, escape sequences, lone surrogates, U+FFFF', async () => {
    const hostile = "x\"/><evil a='1'>&amp;\u0000\u0001\u001b[2J\u0008\ud800\uffff]]>\u202e"
    const outcome: AnalysisOutcome = {
      read: true,
      source: hostile,
      result: gateResult({
        projectKey: hostile,
        status: 'ERROR',
        analysisId: hostile,
        branch: hostile,
        conditions: evaluateConditions([
          condition({ metricKey: hostile, actualValue: hostile, comparator: hostile }),
          condition({ metricKey: hostile, actualValue: '1' })
        ])
      })
    }
    const xml = renderJunit(
      [outcome, { ...unread, projectKey: hostile, message: hostile }],
      CONTEXT
    )
    await expectValid(xml)
    expect(xml).not.toContain('<evil')
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/)
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
    expect(xml).toContain('\\x1B[2J')
    expect(xml).toContain('\\u202E')
  })
})

describe('one testcase per condition, a failure for each ERROR', () => {
  const xml = renderJunit([failingGate], CONTEXT)

  it('counts the conditions and the failures on the testsuite', () => {
    expect(xml).toMatch(
      /<testsuite name="shop-api" package="shop-api" id="0" tests="7" failures="4" errors="0" skipped="0" time="4\.200" timestamp="2026-11-22T08:30:00" hostname="ci-runner-7">/
    )
  })

  it('names each testcase for its metric, the same from run to run; classname is the project', () => {
    expect(xml).toContain(
      '<testcase name="Coverage on New Code (new_coverage)" classname="shop-api" time="0">'
    )
    expect(xml).toContain(
      '<testcase name="Technical Debt Ratio on New Code (new_sqale_debt_ratio)" classname="shop-api" time="0"/>'
    )
  })

  it("says in words why a condition failed, with the condition's own evidence on the server", () => {
    expect(xml).toContain(
      '<failure type="ERROR" message="Coverage on New Code is 82.51% (fails when less than 85%)">Coverage on New Code is 82.51% (fails when less than 85%)\nDetails: https://sonar.example.com/component_measures?id=shop-api&amp;metric=new_coverage</failure>'
    )
  })

  it("links each failure to its condition's evidence, in the analysis's pull request", () => {
    const pullRequest: AnalysisOutcome = {
      read: true,
      source: 'report-task.txt',
      result: gateResult({
        projectKey: 'shop-api',
        pullRequest: '42',
        conditions: evaluateConditions([
          condition({
            metricKey: 'new_blocker_violations',
            comparator: 'GT',
            errorThreshold: '0',
            actualValue: '2'
          }),
          condition({
            metricKey: 'new_security_hotspots_reviewed',
            errorThreshold: '100',
            actualValue: '50'
          })
        ])
      })
    }
    const failures = [
      ...renderJunit([pullRequest], CONTEXT).matchAll(
        /<failure [^>]*>[^<]*\nDetails: ([^<]*)<\/failure>/g
      )
    ].map(([, link]) => link)
    expect(failures).toEqual([
      'https://sonar.example.com/project/issues?id=shop-api&amp;pullRequest=42&amp;resolved=false&amp;inNewCodePeriod=true&amp;severities=BLOCKER',
      'https://sonar.example.com/security_hotspots?id=shop-api&amp;pullRequest=42&amp;inNewCodePeriod=true'
    ])
  })

  it('links the dashboard when the project, and so the evidence, is unknown', () => {
    const unknown: AnalysisOutcome = {
      read: true,
      source: 'report-task.txt',
      result: gateResult({ projectKey: undefined })
    }
    expect(renderJunit([unknown], CONTEXT)).toContain(
      'Details: https://sonar.example.com/dashboard?id=my-project</failure>'
    )
  })

  it('keeps the gate as properties', () => {
    expect(xml).toContain('<property name="qualityGateStatus" value="FAILED"/>')
    expect(xml).toContain('<property name="analysisId" value="AYAnalysis1"/>')
    expect(xml).toContain('<property name="source" value="api/target/sonar/report-task.txt"/>')
  })
})

describe('an analysis that could not be read', () => {
  it('is one failing testcase, typed with the error code, with the whole message', () => {
    const xml = renderJunit(
      [
        {
          ...unread,
          error: new ServerRequestError('refused', 401),
          message: 'The server rejected the token.\nSecond line.'
        }
      ],
      CONTEXT
    )
    expect(xml).toContain('tests="1" failures="1"')
    expect(xml).toContain('time="61.000"')
    expect(xml).toContain(
      '<failure type="ERR_SERVER_REQUEST" message="The server rejected the token.">The server rejected the token.\nSecond line.</failure>'
    )
  })
})

describe('the token never reaches the report', () => {
  it('is removed from every text the server echoes', () => {
    const echoed: AnalysisOutcome = {
      ...unread,
      projectKey: `key-${TOKEN}`,
      message: `HTTP 500: ${TOKEN} / ${Buffer.from(`${TOKEN}:`).toString('base64')}`
    }
    const xml = renderJunit([echoed], CONTEXT)
    expect(xml).not.toContain(TOKEN)
    expect(xml).not.toContain(Buffer.from(`${TOKEN}:`).toString('base64'))
    expect(xml).toContain('key-***')
  })
})

describe('bounds', () => {
  it('writes at most 100 conditions, failing ones first, and counts the rest', async () => {
    const many = Array.from({ length: 150 }, (_, index) =>
      condition({
        metricKey: `custom_${index}`,
        status: index === 149 ? 'ERROR' : 'OK',
        actualValue: '1'
      })
    )
    const xml = renderJunit(
      [
        { ...failingGate, read: true, result: gateResult({ conditions: evaluateConditions(many) }) }
      ],
      CONTEXT
    )
    await expectValid(xml)
    expect(xml.match(/<testcase /g)).toHaveLength(100)
    expect(xml).toContain('(custom_149)" classname="my-project" time="0">')
    expect(xml).toContain('… and 50 more conditions: see the dashboard.')
  })
})
