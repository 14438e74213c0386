/**
 * What changed with an analysis, beside its verdict: the new code's coverage and duplication, a
 * pull request's target branch's (named by the server's list of pull requests), the hotspots to
 * review, and the issues accepted and fixed where the server counts them. Each part is read once,
 * on its own: a failure is one line in that part, never a throw.
 */
import { describe, expect, it } from 'vitest'
import { ServerRequestError } from '../../src/errors.js'
import {
  readWhatChanged,
  whatChangedLine,
  type WhatChanged,
  type WhatChangedSource
} from '../../src/gate/what-changed.js'
import type { AnalysisScope } from '../../src/sonar/client.js'
import type { IssueScope } from '../../src/sonar/issues.js'
import type { PullRequestOnServer } from '../../src/sonar/types.js'

type Measures = (on: AnalysisScope, keys: readonly string[]) => Promise<Map<string, number>>

function source(
  measures: Measures,
  options: {
    hotspots?: (scope: IssueScope) => Promise<{ hotspots: never[]; total: number }>
    pulls?: () => Promise<PullRequestOnServer[]>
  } = {}
) {
  const {
    hotspots = async () => ({ hotspots: [], total: 0 }),
    pulls = async () => [
      { key: '41', analysisDate: undefined, base: 'release' },
      { key: '42', analysisDate: '2026-11-24T10:00:00+0000', base: 'main', target: 'main' }
    ]
  } = options
  const asked: string[] = []
  const server: WhatChangedSource = {
    getMeasures: (projectKey, on, keys) => {
      asked.push(`measures ${projectKey} ${JSON.stringify(on)} ${keys.join(',')}`)
      return measures(on, keys)
    },
    getHotspots: (projectKey, scope) => {
      asked.push(`hotspots ${projectKey} ${JSON.stringify(scope)}`)
      return hotspots(scope)
    },
    getPullRequests: (projectKey) => {
      asked.push(`pull requests ${projectKey}`)
      return pulls()
    }
  }
  return { server, asked }
}

/** A server of 10.x: every figure, the counts among them. */
const recentServer: Measures = async (on, keys) => {
  const all = new Map(
    on.pullRequest
      ? [
          ['new_coverage', 85.5],
          ['new_duplicated_lines_density', 1.2],
          ['new_accepted_issues', 2],
          ['pull_request_fixed_issues', 3]
        ]
      : on.branch === 'main'
        ? [
            ['coverage', 78.2],
            ['duplicated_lines_density', 3],
            ['new_coverage', 90],
            ['new_accepted_issues', 0]
          ]
        : []
  )
  return new Map(keys.flatMap((key) => (all.has(key) ? [[key, all.get(key)!] as const] : [])))
}

/** A server before the counts: it refuses a metric it does not know (404). */
const olderServer: Measures = async (on, keys) => {
  if (keys.includes('new_accepted_issues')) {
    throw new ServerRequestError(
      'The following metric keys are not found: new_accepted_issues',
      404
    )
  }
  return recentServer(on, keys)
}

describe('readWhatChanged', () => {
  it("a pull request: its new code's figures, its target branch's overall ones, its hotspots and counts", async () => {
    const { server, asked } = source(recentServer)
    await expect(readWhatChanged(server, 'shop', { pullRequest: '42' })).resolves.toEqual({
      newCode: { coverage: 85.5, duplication: 1.2 },
      target: { branch: 'main', figures: { coverage: 78.2, duplication: 3 } },
      hotspots: { hotspots: [], total: 0 },
      issues: { accepted: 2, fixed: 3 }
    })
    expect(asked.sort()).toEqual([
      'hotspots shop {"kind":"pull-request","pullRequest":"42"}',
      'measures shop {"branch":"main"} coverage,duplicated_lines_density',
      'measures shop {"pullRequest":"42"} new_accepted_issues,pull_request_fixed_issues',
      'measures shop {"pullRequest":"42"} new_coverage,new_duplicated_lines_density',
      'pull requests shop'
    ])
  })

  it("the target is the server's base branch, else the target the scan named; none named, none read", async () => {
    const pulls = (pull: PullRequestOnServer) => source(recentServer, { pulls: async () => [pull] })
    const named = pulls({ key: '42', analysisDate: undefined, target: 'main' })
    const changed = await readWhatChanged(named.server, 'shop', { pullRequest: '42' })
    expect(changed.target).toEqual({ branch: 'main', figures: { coverage: 78.2, duplication: 3 } })
    const orphan = pulls({ key: '42', analysisDate: undefined })
    const alone = await readWhatChanged(orphan.server, 'shop', { pullRequest: '42' })
    expect(alone.target).toBeUndefined()
    expect(orphan.asked.filter((line) => line.includes('"branch"'))).toEqual([])
  })

  it('a branch: its new code, hotspots and accepted issues; no target; a figure the server lacks is unknown', async () => {
    const { server, asked } = source(recentServer)
    await expect(readWhatChanged(server, 'shop', { branch: 'main' })).resolves.toEqual({
      newCode: { coverage: 90, duplication: undefined },
      hotspots: { hotspots: [], total: 0 },
      issues: { accepted: 0, fixed: undefined }
    })
    expect(asked).toHaveLength(3)
    expect(asked).not.toContain('pull requests shop')
  })

  it('a server that does not count accepted and fixed issues: no counts, and nothing else lost', async () => {
    const { server } = source(olderServer)
    const changed = await readWhatChanged(server, 'shop', { pullRequest: '42' })
    expect(changed.issues).toBeUndefined()
    expect(changed.newCode).toEqual({ coverage: 85.5, duplication: 1.2 })
  })

  it('a percentage or a count no server writes is not shown', async () => {
    const { server } = source(
      async () =>
        new Map([
          ['new_coverage', 250],
          ['new_duplicated_lines_density', -1],
          ['new_accepted_issues', 1.5]
        ])
    )
    const changed = await readWhatChanged(server, 'shop', {})
    expect(changed.newCode).toEqual({ coverage: undefined, duplication: undefined })
    expect(changed.issues).toBeUndefined()
  })

  it('each failure is one line in its own part: 403 names the permission', async () => {
    const { server } = source(
      () => Promise.reject(new ServerRequestError('Insufficient privileges', 403)),
      {
        hotspots: () => Promise.reject(new ServerRequestError('The server answered 503', 503)),
        pulls: () => Promise.reject(new ServerRequestError('The server answered 502', 502))
      }
    )
    await expect(readWhatChanged(server, 'shop', { pullRequest: '42' })).resolves.toEqual({
      newCode: {
        unread: 'The token may not read the measures (403): they need the Browse permission.',
        browseRefused: true
      },
      target: {
        unread: "The pull request's target branch could not be read: The server answered 502"
      },
      hotspots: { unread: 'The hotspots could not be read: The server answered 503' }
    })
  })

  it('a 403 to an analysis token says so: a real server refuses it measures and hotspots whatever its user may browse', async () => {
    const refused = () =>
      Promise.reject(
        new ServerRequestError('Insufficient privileges', 403, {
          analysisToken: 'a global analysis token (sqa_…)'
        })
      )
    const { server } = source(refused, { hotspots: refused })
    const changed = await readWhatChanged(server, 'shop', {})
    expect(changed.newCode).toEqual({
      unread:
        'The token may not read the measures (403): it is a global analysis token (sqa_…), and SonarQube refuses analysis tokens what needs Browse. A user token (squ_…) of a user with Browse shows them.'
    })
    expect(changed.hotspots).toEqual({
      unread:
        'The token may not read the hotspots (403): it is a global analysis token (sqa_…), and SonarQube refuses analysis tokens what needs Browse. A user token (squ_…) of a user with Browse shows them.'
    })
  })
})

describe('whatChangedLine: what changed in one line of the log', () => {
  const changed = (accepted: number, hotspots: number): WhatChanged => ({
    newCode: { coverage: 85.5, duplication: 1.2 },
    hotspots: { hotspots: [], total: hotspots },
    issues: { accepted, fixed: 3 }
  })

  it.each([
    [0, 0, '0 security hotspots to review, 0 issues accepted'],
    [1, 1, '1 security hotspot to review, 1 issue accepted'],
    [2, 2, '2 security hotspots to review, 2 issues accepted']
  ])('%i accepted, %i hotspots: counted in the singular for one', (accepted, hotspots, words) => {
    expect(whatChangedLine(changed(accepted, hotspots))).toBe(
      `What changed: coverage on new code 85.5%, duplicated lines on new code 1.2%, ${words}, 3 fixed.`
    )
  })
})
