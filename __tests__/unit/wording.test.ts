import { describe, expect, it } from 'vitest'
import {
  caycWords,
  comparatorWords,
  formatValue,
  metricName,
  newCodeWords
} from '../../src/report/wording.js'

describe('metrics read in words', () => {
  it.each([
    ['new_coverage', 'Coverage on New Code'],
    ['coverage', 'Coverage'],
    ['new_duplicated_lines_density', 'Duplicated Lines (%) on New Code'],
    ['sqale_rating', 'Maintainability Rating'],
    ['new_maintainability_rating', 'Maintainability Rating on New Code'],
    ['new_security_hotspots_reviewed', 'Security Hotspots Reviewed on New Code'],
    ['some_future_metric', 'Some future metric'],
    ['new_some_future_metric', 'Some future metric on New Code']
  ])('%s → %s', (key, name) => {
    expect(metricName(key)).toBe(name)
  })
})

describe('values read as people read them', () => {
  it.each([
    ['new_reliability_rating', '1', 'A'],
    ['security_rating', '5.0', 'E'],
    ['new_custom_rating', '2', 'B'],
    ['sqale_rating', '9', '9'],
    ['new_coverage', '82.50562381034781', '82.51%'],
    ['duplicated_lines_density', '3', '3%'],
    ['sqale_index', '150', '2 h 30 min'],
    ['sqale_index', '45', '45 min'],
    ['open_issues', '17', '17'],
    ['alert_status', 'ERROR', 'ERROR'],
    ['open_issues', undefined, '–']
  ])('%s %s → %s', (key, value, text) => {
    expect(formatValue(key, value)).toBe(text)
  })
})

describe('server values quoted in words are cut to 200 characters', () => {
  const long = 'x'.repeat(1_000_000)

  it('cuts an unknown metric key, a non-numeric value and an unknown comparator', () => {
    expect(metricName(long)).toBe(`X${'x'.repeat(198)}…`)
    expect(formatValue('open_issues', long)).toBe(`${'x'.repeat(199)}…`)
    expect(comparatorWords('coverage', long)).toBe(`${'x'.repeat(199)}…`)
  })

  it('quotes server text on one line, its line breaks shown as \\n; markup is left to the destination', () => {
    expect(formatValue('alert_status', '<b>\n')).toBe('<b>\\n')
    expect(metricName('new_x\r\n✅ Quality Gate passed')).toBe(
      'X\\r\\n✅ Quality Gate passed on New Code'
    )
  })
})

describe('the new code period and Clean as You Code in words', () => {
  it.each([
    [{ mode: 'previous_version' }, 'since the previous version'],
    [{ mode: 'PREVIOUS_VERSION', date: '2024-01-02' }, 'since the previous version (2024-01-02)'],
    [{ mode: 'days', parameter: '30' }, 'the last 30 days'],
    [{ mode: 'NUMBER_OF_DAYS', parameter: '7' }, 'the last 7 days'],
    [{ mode: 'reference_branch', parameter: 'main' }, 'compared with branch main'],
    [{ mode: 'version', parameter: '2.0' }, 'since version 2.0'],
    [{ mode: 'something_new' }, 'something_new']
  ])('%j → %s', (period, words) => {
    expect(newCodeWords({ date: undefined, parameter: undefined, ...period })).toBe(words)
  })

  it.each([
    ['compliant', 'compliant'],
    ['non-compliant', 'not compliant'],
    ['over-compliant', 'compliant, with conditions beyond it'],
    ['other', 'other']
  ])('caycStatus %s → %s', (status, words) => {
    expect(caycWords(status)).toBe(words)
  })
})
