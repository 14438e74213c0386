import { describe, expect, it } from 'vitest'
import { actionHtmlSink, actionSink } from '../../__fixtures__/sinks.js'
import { conditionsOutput } from '../../src/report/outputs.js'
import { renderFailureSummary } from '../../src/report/summary.js'
import { redactSecrets, tokenForms } from '../../src/secrets.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { condition } from './summary-gate-result.js'

const TOKEN = 'squ_0123456789abcdef0123456789abcdef01234567'
/** A token with every character that has another form in a URL, base64, JSON or the summary. */
const ODD_TOKEN = 'squ_a+b/c"d\\e<f>&g h'

describe('every form of the token', () => {
  it('is the token, the Basic header, its base64 part, URL-encoded and JSON-escaped', () => {
    const base64 = Buffer.from(`${ODD_TOKEN}:`).toString('base64')
    expect(tokenForms(ODD_TOKEN)).toEqual([
      ODD_TOKEN,
      `Basic ${base64}`,
      base64,
      encodeURIComponent(ODD_TOKEN),
      'squ_a+b/c\\"d\\\\e<f>&g h'
    ])
  })
})

describe('redactSecrets removes every form of the token, as *** ', () => {
  it.each(tokenForms(ODD_TOKEN).map((form) => [form]))('removes %s', (form) => {
    expect(redactSecrets(`before ${form} after`, tokenForms(ODD_TOKEN))).toBe('before *** after')
  })

  it('removes the longest form first, so no part of a longer one is left', () => {
    const header = `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`
    expect(redactSecrets(`Authorization: ${header}`, tokenForms(TOKEN))).toBe('Authorization: ***')
  })

  it('leaves text without the token as it is, and ignores an empty secret', () => {
    expect(redactSecrets('nothing to hide', [''])).toBe('nothing to hide')
    expect(redactSecrets('nothing to hide', tokenForms(TOKEN))).toBe('nothing to hide')
  })

  it('the outputs’ sink removes a token the server echoed into the conditions output, which stays valid JSON', () => {
    const { json } = conditionsOutput(
      [condition({ actualValue: `token=${ODD_TOKEN}` })],
      actionSink({ token: ODD_TOKEN })
    )
    expect(JSON.parse(json)[0].actualValue).toBe('token=***')
  })

  it('the summary’s sink removes a token the server echoed into the summary, where it is escaped', () => {
    for (const token of [TOKEN, ODD_TOKEN]) {
      const summary = renderFailureSummary(
        `The task failed: bad token ${token}`,
        actionHtmlSink({ token })
      )
      expect(renderAsGitHub(summary).text).toContain('The task failed: bad token ***')
      expect(renderAsGitHub(summary).text).not.toContain(token)
    }
  })
})
