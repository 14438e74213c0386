import { describe, expect, it } from 'vitest'
import { evidenceUrl } from '../../src/report/evidence-link.js'

const result = {
  serverUrl: 'https://sonar.example.com/sonar',
  projectKey: 'shop',
  branch: undefined as string | undefined,
  pullRequest: undefined as string | undefined
}
const link = (metricKey: string, more: Partial<typeof result> = {}) =>
  evidenceUrl({ ...result, ...more }, { metricKey })

describe("each failing condition links to its evidence, on the server's origin", () => {
  it('issue counts on new code: the new issues of that severity', () => {
    expect(link('new_blocker_violations')).toBe(
      'https://sonar.example.com/sonar/project/issues?id=shop&resolved=false&inNewCodePeriod=true&severities=BLOCKER'
    )
  })

  it('issue counts by type, on overall code: every open issue of the type', () => {
    expect(link('vulnerabilities')).toBe(
      'https://sonar.example.com/sonar/project/issues?id=shop&resolved=false&types=VULNERABILITY'
    )
  })

  it('software quality issue counts (10.x, 2025.x): the issues of that quality', () => {
    expect(link('new_software_quality_maintainability_issues')).toContain(
      'inNewCodePeriod=true&impactSoftwareQualities=MAINTAINABILITY'
    )
  })

  it('hotspots: the security hotspots page', () => {
    expect(link('new_security_hotspots_reviewed')).toBe(
      'https://sonar.example.com/sonar/security_hotspots?id=shop&inNewCodePeriod=true'
    )
  })

  it('coverage, duplications, ratings and any other metric: its measure page', () => {
    expect(link('new_coverage')).toBe(
      'https://sonar.example.com/sonar/component_measures?id=shop&metric=new_coverage'
    )
  })

  it("the analysis's pull request, else its branch", () => {
    expect(link('new_coverage', { pullRequest: '42', branch: 'x' })).toContain('&pullRequest=42&')
    expect(link('new_bugs', { branch: 'feature/x' })).toContain('&branch=feature%2Fx&')
  })

  it('a hostile metric key or project stays one encoded parameter, on the same origin', () => {
    const url = new URL(link('x&id=other#frag', { projectKey: 'a/../../evil?x' })!)
    expect(url.origin).toBe('https://sonar.example.com')
    expect(url.pathname).toBe('/sonar/component_measures')
    expect(url.searchParams.get('metric')).toBe('x&id=other#frag')
    expect(url.searchParams.getAll('id')).toEqual(['a/../../evil?x'])
  })

  it('no link without the project', () => {
    expect(link('new_coverage', { projectKey: undefined as unknown as string })).toBeUndefined()
  })
})
