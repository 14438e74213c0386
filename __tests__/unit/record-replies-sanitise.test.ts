/** The recorder's sanitiser: what names a run is replaced, the same value by the same placeholder. */
import { describe, expect, it } from 'vitest'
import { PLACEHOLDER_SERVER, Sanitiser } from '../../scripts/real-server/sanitise.js'

describe('Sanitiser', () => {
  it('replaces ids, dates, SHAs, the server and the tokens, keeping their forms and links', () => {
    const sanitiser = new Sanitiser(new URL('http://127.0.0.1:9210'), ['squ_secret123'])
    const reply = sanitiser.reply({
      task: {
        id: 'AZNvQ3x1c7yqGk3u9n8W',
        analysisId: 'AZNvQ3yJc7yqGk3u9n8X',
        submittedAt: '2026-11-28T09:59:01+0000',
        branchId: '6a1f8c3e-12ab-4cde-9f00-0123456789ab',
        revision: '1d631955b7f3a2c4e5d6f708192a3b4c5d6e7f80',
        key: 'new_security_hotspots',
        msg: "No activity found for task 'AZNvQ3x1c7yqGk3u9n8W' at http://127.0.0.1:9210/api",
        echo: 'squ_secret123',
        count: 3
      },
      analyses: [{ key: 'AZNvQ3yJc7yqGk3u9n8X' }]
    })
    expect(reply).toEqual({
      task: {
        id: 'AYplaceholder0000001',
        analysisId: 'AYplaceholder0000002',
        submittedAt: '2025-01-01T00:01:00+0000',
        branchId: '00000000-0000-4000-8000-000000000001',
        revision: 'a000000000000000000000000000000000000001',
        key: 'new_security_hotspots',
        msg: `No activity found for task 'AYplaceholder0000001' at ${PLACEHOLDER_SERVER}/api`,
        echo: '<token>',
        count: 3
      },
      analyses: [{ key: 'AYplaceholder0000002' }]
    })
  })
})
