import { describe, expect, it } from 'vitest'
import { decodeIssuesPage, issuesQuery } from '../../src/sonar/issues.js'
import type { ServerKind } from '../../src/sonar/server-kind.js'
import { UnexpectedShape } from '../../src/sonar/types.js'

const kind = (version?: [number, number], cloud = false): ServerKind => ({ cloud, version })
const params = (query: URLSearchParams) => Object.fromEntries(query)

describe('the parameters of each server generation', () => {
  const branch = { kind: 'new-code', branch: 'main' } as const

  it('8.9 gets componentKeys and sinceLeakPeriod (inNewCodePeriod came in 9.4)', () => {
    expect(params(issuesQuery('shop', branch, kind([8, 9]), 1))).toEqual({
      componentKeys: 'shop',
      resolved: 'false',
      ps: '500',
      p: '1',
      additionalFields: 'rules',
      branch: 'main',
      sinceLeakPeriod: 'true'
    })
  })

  it('9.9 gets componentKeys (components is 10.2+) and inNewCodePeriod', () => {
    const query = params(issuesQuery('shop', branch, kind([9, 9]), 2))
    expect(query).toMatchObject({ componentKeys: 'shop', inNewCodePeriod: 'true', p: '2' })
    expect(query).not.toHaveProperty('sinceLeakPeriod')
    expect(query).not.toHaveProperty('components')
  })

  it('10.2 and later get components; sinceLeakPeriod, removed in 10.0, is never sent to them', () => {
    for (const version of [
      [10, 2],
      [10, 7],
      [2025, 1]
    ] as [number, number][]) {
      const query = params(issuesQuery('shop', branch, kind(version), 1))
      expect(query).toMatchObject({ components: 'shop', inNewCodePeriod: 'true' })
      expect(query).not.toHaveProperty('componentKeys')
      expect(query).not.toHaveProperty('sinceLeakPeriod')
    }
  })

  it('10.0 and 10.1 keep componentKeys, which they know', () => {
    expect(params(issuesQuery('shop', branch, kind([10, 1]), 1))).toHaveProperty('componentKeys')
  })

  it('SonarQube Cloud gets componentKeys and sinceLeakPeriod', () => {
    const query = params(issuesQuery('shop', branch, kind(undefined, true), 1))
    expect(query).toMatchObject({ componentKeys: 'shop', sinceLeakPeriod: 'true' })
  })

  it('a server of unknown version gets the names every generation takes for the project', () => {
    const query = params(issuesQuery('shop', { kind: 'new-code', branch: undefined }, kind(), 1))
    expect(query).toMatchObject({ componentKeys: 'shop', inNewCodePeriod: 'true' })
    expect(query).not.toHaveProperty('branch')
  })

  it("a pull request's analysis asks for the pull request's open issues, not a period", () => {
    const query = params(
      issuesQuery('shop', { kind: 'pull-request', pullRequest: '42' }, kind([10, 7]), 1)
    )
    expect(query).toMatchObject({ pullRequest: '42', resolved: 'false' })
    expect(query).not.toHaveProperty('inNewCodePeriod')
    expect(query).not.toHaveProperty('branch')
  })

  it('a project key is sent encoded, never as more parameters', () => {
    const query = issuesQuery('a&resolved=true', branch, kind([10, 7]), 1)
    expect(query.getAll('resolved')).toEqual(['false'])
    expect(query.get('components')).toBe('a&resolved=true')
  })
})

/** A reply shaped as the server documents api/issues/search, in the fields of `generation`. */
function reply(fields: Record<string, unknown> = {}, issue: Record<string, unknown> = {}) {
  return {
    paging: { pageIndex: 1, pageSize: 500, total: 1 },
    issues: [
      {
        key: '01fc972e-2a3c-433e-bcae-0bd7f88f5123',
        component: 'shop:src/main/java/shop/Cart.java',
        project: 'shop',
        rule: 'java:S1144',
        status: 'OPEN',
        severity: 'MAJOR',
        message: 'Remove this unused private "total" method.',
        line: 81,
        textRange: { startLine: 81, endLine: 81, startOffset: 4, endOffset: 19 },
        type: 'CODE_SMELL',
        ...issue
      }
    ],
    components: [
      {
        key: 'shop:src/main/java/shop/Cart.java',
        qualifier: 'FIL',
        path: 'src/main/java/shop/Cart.java'
      },
      { key: 'shop', qualifier: 'TRK', name: 'shop' }
    ],
    rules: [{ key: 'java:S1144', name: 'Unused "private" methods should be removed' }],
    ...fields
  }
}

describe('a page of issues as each generation sends it', () => {
  it('8.9 and 9.9: severity and type, the top-level total beside paging', () => {
    const page = decodeIssuesPage(reply({ total: 1, p: 1, ps: 500 }))
    expect(page.total).toBe(1)
    expect(page.issues[0]).toMatchObject({
      key: '01fc972e-2a3c-433e-bcae-0bd7f88f5123',
      rule: 'java:S1144',
      path: 'src/main/java/shop/Cart.java',
      line: 81,
      textRange: { startLine: 81, endLine: 81, startOffset: 4, endOffset: 19 },
      severity: 'MAJOR',
      type: 'CODE_SMELL',
      impacts: []
    })
    expect(page.ruleNames.get('java:S1144')).toBe('Unused "private" methods should be removed')
  })

  it('10.x and 2025.x: impacts and cleanCodeAttribute, paging only', () => {
    const page = decodeIssuesPage(
      reply(
        {},
        {
          impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'MEDIUM' }],
          cleanCodeAttribute: 'CLEAR',
          issueStatus: 'OPEN'
        }
      )
    )
    expect(page.issues[0]).toMatchObject({
      impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'MEDIUM' }],
      cleanCodeAttribute: 'CLEAR'
    })
  })

  it("a file missing from components takes its path from the key after the project's", () => {
    const page = decodeIssuesPage(reply({ components: [] }))
    expect(page.issues[0]?.path).toBe('src/main/java/shop/Cart.java')
  })

  it('an issue on the project itself has no path and no line', () => {
    const page = decodeIssuesPage(
      reply({}, { component: 'shop', line: undefined, textRange: undefined })
    )
    expect(page.issues[0]).toMatchObject({ path: undefined, line: undefined, textRange: undefined })
  })

  it('odd fields are dropped, not trusted: lines below 1, reversed ranges, severities that are not words', () => {
    const page = decodeIssuesPage(
      reply(
        {},
        {
          line: -3,
          textRange: { startLine: 9, endLine: 2, startOffset: 0, endOffset: 1 },
          severity: 'MAJOR\n::error::x',
          type: 42,
          impacts: [{ softwareQuality: 'SECURITY', severity: '<b>' }, 'x']
        }
      )
    )
    expect(page.issues[0]).toMatchObject({
      line: undefined,
      textRange: undefined,
      severity: undefined,
      type: undefined,
      impacts: []
    })
  })

  it('an issue without key, rule, message or component is skipped; the others stay', () => {
    const good = reply().issues[0]!
    const page = decodeIssuesPage({
      paging: { total: 4 },
      issues: [
        { ...good, key: undefined },
        { ...good, rule: 7 },
        { ...good, key: 'bad key\n' },
        good
      ]
    })
    expect(page.issues).toHaveLength(1)
    expect(page.total).toBe(4)
  })

  it('a reply without an issues array is not the server’s', () => {
    expect(() => decodeIssuesPage({ errors: [] })).toThrow(UnexpectedShape)
    expect(() => decodeIssuesPage([])).toThrow(UnexpectedShape)
  })
})
