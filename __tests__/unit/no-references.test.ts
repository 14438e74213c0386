/**
 * Server text makes no reference and no link on any platform: every body the platforms render
 * (GitLab's notes and discussions, GitHub's summary and comment in HTML blocks; Bitbucket's and
 * Azure DevOps's comments and threads in Markdown) and every status's text, with hostile issue
 * messages, rule names, project names, statuses and messages in every server value, rendered as
 * the platform renders it and searched with the platform's own reference and autolink patterns
 * (support/references.ts): nothing but the links we build, to the server.
 */
import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { GateResult } from '../../src/gate/check.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { statusWords } from '../../src/platforms/decorate.js'
import { issueDiscussionBody } from '../../src/report/issue-discussion.js'
import {
  HTML_MARKUP,
  markdownForms,
  MARKDOWN_MARKUP,
  type Markup
} from '../../src/report/markup.js'
import { commentBody } from '../../src/report/pull-request-comment-body.js'
import { renderFailureSummary, renderSummary } from '../../src/report/summary.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { tokenForms } from '../../src/secrets.js'
import { createSink } from '../../src/sink.js'
import { analysis, serverIssue } from '../support/findings.js'
import { hostileResult } from '../support/hostile-summary.js'
import { mentionsIn } from '../support/mentions.js'
import { bareLinksIn, HOSTILE_REFERENCES, referencesIn } from '../support/references.js'
import {
  renderAsGitHub,
  renderAsMarkdown,
  type RenderedSummary
} from '../support/summary-as-github.js'
import { SERVER } from './summary-gate-result.js'

const TOKEN = 'squ_0123456789abcdef0123456789abcdef01234567'
const SHA = 'fedcba9876543210fedcba9876543210fedcba98'

function sinkFor(markup: Markup) {
  return createSink({
    names: COMMAND_NAMES,
    secrets: tokenForms(TOKEN),
    escapedForms: markup === HTML_MARKUP ? summaryForms : markdownForms,
    limit: 1_000_000,
    unit: 'characters'
  })
}

/** New issues whose messages and rule names are `text`. */
function hostileFindings(text: string) {
  return analysis({
    issues: [1, 2].map((n) => serverIssue(`AY${n}`, { message: text, rule: `java:S${n}` })),
    rules: [1, 2].map((n) => ({ key: `java:S${n}`, name: text }))
  }).findings
}

/** Every server value of an analysis set to `text`, its new issues' words too. */
function hostileGate(text: string): GateResult {
  const findings = hostileFindings(text)
  return {
    ...hostileResult(text),
    dashboardUrl: `${SERVER}dashboard?id=p`,
    newIssues: {
      read: true,
      scope: { kind: 'new-code', branch: text },
      findings: [...findings],
      total: findings.length,
      requests: 1
    }
  }
}

const read = (text: string): AnalysisOutcome => ({
  read: true,
  source: 'report-task.txt',
  result: hostileGate(text)
})

const unread = (text: string): AnalysisOutcome => ({
  read: false,
  source: 'report-task.txt',
  projectKey: text,
  message: `The server says: "${text}"`,
  error: new Error(text)
})

/** What the platforms would make of the rendered body's text: nothing. */
function expectNoReferenceNorLink(rendered: RenderedSummary, markdown: boolean) {
  expect(rendered.searched.flatMap(referencesIn)).toEqual([])
  expect(rendered.searched.flatMap(mentionsIn)).toEqual([])
  if (markdown) expect(rendered.searched.flatMap(bareLinksIn)).toEqual([])
  for (const link of rendered.of('a')) {
    expect(new URL(link.attributes['href']!).origin).toBe(new URL(SERVER).origin)
  }
}

const MARKUPS = [
  { name: 'HTML (GitLab, GitHub)', markup: HTML_MARKUP, render: renderAsGitHub, markdown: false },
  {
    name: 'Markdown (Bitbucket, Azure DevOps)',
    markup: MARKDOWN_MARKUP,
    render: renderAsMarkdown,
    markdown: true
  }
]

describe.each(MARKUPS)('server text in $name makes no reference and no link', (kind) => {
  const sink = sinkFor(kind.markup)

  it.each(HOSTILE_REFERENCES)('the comment with %s in every server value', (text) => {
    for (const outcome of [read(text), unread(text)]) {
      const body = commentBody(outcome, SHA, { sink, markup: kind.markup })
      const rendered = kind.render(body)
      expectNoReferenceNorLink(rendered, kind.markdown)
      // Still there to read, as the server wrote it.
      expect(rendered.text).toContain(outcome.read ? text.slice(0, 40) : text)
    }
  })

  it.each(HOSTILE_REFERENCES)("an issue's discussion whose message and rule are %s", (text) => {
    for (const finding of hostileFindings(text)) {
      const rendered = kind.render(issueDiscussionBody(finding, sink, kind.markup))
      expectNoReferenceNorLink(rendered, kind.markdown)
      expect(rendered.text).toContain(text)
    }
  })
})

describe('the job summary (HTML, GitHub) makes no reference and no link', () => {
  const sink = sinkFor(HTML_MARKUP)
  it.each(HOSTILE_REFERENCES)('%s in every server value', (text) => {
    expectNoReferenceNorLink(renderAsGitHub(renderSummary(hostileGate(text), { sink })), false)
    expectNoReferenceNorLink(renderAsGitHub(renderFailureSummary(text, sink)), false)
  })
})

describe("a status's text makes no reference and no link", () => {
  it.each(HOSTILE_REFERENCES)('%s as the status and as the reason it is unread', (text) => {
    for (const shown of [
      statusWords(read(text), FAIL_ON_ERROR, createSink({ names: COMMAND_NAMES, secrets: [] })),
      statusWords(unread(text), FAIL_ON_ERROR, createSink({ names: COMMAND_NAMES, secrets: [] }))
    ]) {
      expect(referencesIn(shown)).toEqual([])
      expect(mentionsIn(shown)).toEqual([])
    }
  })
})
