import { describe, expect, it } from 'vitest'
import { lookupTable } from '../../src/lookup-table.js'
import { evidenceUrl } from '../../src/report/evidence-link.js'
import { caycWords, metricName } from '../../src/report/wording.js'
import { isKnownMetric } from '../../src/sonar/metrics.js'

/** Keys a server may send that name members of Object.prototype in a plain object literal. */
const PROTOTYPE_KEYS = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']

describe("a server's key never reaches Object.prototype through a lookup table", () => {
  it.each(PROTOTYPE_KEYS)('%s is not in a lookup table', (key) => {
    expect(lookupTable({ compliant: 'compliant' })[key]).toBeUndefined()
  })

  it.each(PROTOTYPE_KEYS)('a caycStatus of %s is quoted as text', (key) => {
    expect(caycWords(key)).toBe(key)
  })

  it.each(PROTOTYPE_KEYS)(
    'a metric key of %s is not a known metric, and is named as text',
    (key) => {
      expect(isKnownMetric(key)).toBe(false)
      expect(typeof metricName(key)).toBe('string')
      expect(metricName(key)).not.toBe('Object')
    }
  )

  it.each(PROTOTYPE_KEYS)("a metric key of %s links to its measure's page", (key) => {
    const url = evidenceUrl(
      {
        serverUrl: 'https://sonar.example.com',
        projectKey: 'shop',
        branch: undefined,
        pullRequest: undefined
      },
      { metricKey: key }
    )
    expect(url).toContain('/component_measures?')
  })
})
