/**
 * What changed with an analysis, beside its verdict: the new code's coverage and duplication, a
 * pull request's target branch's, and the hotspots to review. Each part is read once, on its own:
 * a failure is one line in that part, never a throw.
 */
import { describe, expect, it } from 'vitest'
import { ServerRequestError } from '../../src/errors.js'
import { readWhatChanged, type WhatChangedSource } from '../../src/gate/what-changed.js'
import type { AnalysisScope } from '../../src/sonar/client.js'
import type { IssueScope } from '../../src/sonar/issues.js'

function source(
  measures: (on: AnalysisScope, keys: readonly string[]) => Promise<Map<string, number>>,
  hotspots: (scope: IssueScope) => Promise<{ hotspots: never[]; total: number }> = async () => ({
    hotspots: [],
    total: 0
  })
) {
  const asked: string[] = []
  const server: WhatChangedSource = {
    getMeasures: (projectKey, on, keys) => {
      asked.push(`measures ${projectKey} ${JSON.stringify(on)} ${keys.join(',')}`)
      return measures(on, keys)
    },
    getHotspots: (projectKey, scope) => {
      asked.push(`hotspots ${projectKey} ${JSON.stringify(scope)}`)
      return hotspots(scope)
    }
  }
  return { server, asked }
}

describe('readWhatChanged', () => {
  it("a pull request: its new code's figures, its target branch's overall ones, its hotspots", async () => {
    const { server, asked } = source(async (on) =>
      on.pullRequest
        ? new Map([
            ['new_coverage', 85.5],
            ['new_duplicated_lines_density', 1.2]
          ])
        : new Map([
            ['coverage', 78.2],
            ['duplicated_lines_density', 3]
          ])
    )
    await expect(readWhatChanged(server, 'shop', { pullRequest: '42' }, 'main')).resolves.toEqual({
      newCode: { coverage: 85.5, duplication: 1.2 },
      target: { branch: 'main', figures: { coverage: 78.2, duplication: 3 } },
      hotspots: { hotspots: [], total: 0 }
    })
    expect(asked.sort()).toEqual([
      'hotspots shop {"kind":"pull-request","pullRequest":"42"}',
      'measures shop {"branch":"main"} coverage,duplicated_lines_density',
      'measures shop {"pullRequest":"42"} new_coverage,new_duplicated_lines_density'
    ])
  })

  it("a branch: its new code's figures and hotspots, no target; a figure the server lacks is unknown", async () => {
    const { server, asked } = source(async () => new Map([['new_coverage', 100]]))
    await expect(readWhatChanged(server, 'shop', { branch: 'main' }, 'develop')).resolves.toEqual({
      newCode: { coverage: 100, duplication: undefined },
      hotspots: { hotspots: [], total: 0 }
    })
    expect(asked).toHaveLength(2)
  })

  it('a percentage no server writes is not shown', async () => {
    const { server } = source(
      async () =>
        new Map([
          ['new_coverage', 250],
          ['new_duplicated_lines_density', -1]
        ])
    )
    const changed = await readWhatChanged(server, 'shop', {}, undefined)
    expect(changed.newCode).toEqual({ coverage: undefined, duplication: undefined })
  })

  it('each failure is one line in its own part: 403 names the permission', async () => {
    const { server } = source(
      () => Promise.reject(new ServerRequestError('Insufficient privileges', 403)),
      () => Promise.reject(new ServerRequestError('The server answered 503', 503))
    )
    await expect(readWhatChanged(server, 'shop', { pullRequest: '42' }, 'main')).resolves.toEqual({
      newCode: {
        unread: 'The token may not read the measures (403): they need the Browse permission.'
      },
      target: {
        branch: 'main',
        figures: {
          unread: 'The token may not read the measures (403): they need the Browse permission.'
        }
      },
      hotspots: { unread: 'The hotspots could not be read: The server answered 503' }
    })
  })
})
