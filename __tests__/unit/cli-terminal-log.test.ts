import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { forTheTerminal, terminalLog, useColor } from '../../src/cli/terminal-log.js'
import { tokenForms } from '../../src/secrets.js'

const ESC = '\u001b'

function recorder() {
  const lines: string[] = []
  return { sink: { write: (text: string) => lines.push(text) }, text: () => lines.join('') }
}

describe('colours: on a terminal only, never in CI, as NO_COLOR and FORCE_COLOR say', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ CI: 'true' }, true, false],
    [{ CI: 'false' }, true, true],
    [{ TERM: 'dumb' }, true, false],
    [{ CI: 'true', FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false]
  ] as const)('%j on a terminal: %s → %s', (env, terminal, expected) => {
    expect(useColor(env, terminal)).toBe(expected)
  })

  it('without colours the log has no escape sequence at all', () => {
    const out = recorder()
    const log = terminalLog(out.sink, { color: false, names: COMMAND_NAMES })
    log.warning('careful')
    log.error('broken\nsecond line')
    log.success('Quality Gate status: OK')
    log.startGroup('Analysis of shop-api')
    log.info('inside')
    log.endGroup()
    expect(out.text()).not.toContain(ESC)
    expect(out.text()).toBe(
      [
        'warning: careful',
        'error: broken',
        '       second line',
        'Quality Gate status: OK',
        '▸ Analysis of shop-api',
        '  inside',
        ''
      ].join('\n')
    )
  })

  it('with colours: labels and passing lines in colour, the text itself left alone', () => {
    const out = recorder()
    const log = terminalLog(out.sink, { color: true, names: COMMAND_NAMES })
    log.error('Quality Gate Failure')
    log.success('Quality Gate status: OK')
    expect(out.text()).toBe(
      `${ESC}[31m${ESC}[1merror:${ESC}[22m${ESC}[39m Quality Gate Failure\n${ESC}[32mQuality Gate status: OK${ESC}[39m\n`
    )
  })
})

describe('no server text drives the terminal', () => {
  it('escape sequences, CR, backspaces, bidi overrides are shown as escapes', () => {
    const out = recorder()
    const log = terminalLog(out.sink, { color: true, names: COMMAND_NAMES })
    log.info(`status ${ESC}[2J${ESC}]0;pwned\u0007 done\roverwritten\u0008\u202E`)
    log.startGroup(`Analysis of ${ESC}[31mred\nnext`)
    const text = out.text()
    expect(text).toContain('status \\x1B[2J\\x1B]0;pwned\\x07 done\\roverwritten\\x08\\u202E')
    expect(text).toContain('Analysis of \\x1B[31mred\\nnext')
    // The only escape sequences are the command's own bold on the group's heading.
    expect(text.replaceAll(`${ESC}[1m`, '').replaceAll(`${ESC}[22m`, '')).not.toContain(ESC)
  })

  it('lines are cut at 4,000 characters, messages at 100 lines', () => {
    expect(forTheTerminal('x'.repeat(10_000))).toHaveLength(4000)
    const many = forTheTerminal(Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n'))
    expect(many.split('\n')).toHaveLength(101)
    expect(many.endsWith('… 50 more lines')).toBe(true)
  })

  it('never prints the token, in any of its forms', () => {
    const token = 'squ_0123456789abcdef'
    const out = recorder()
    const log = terminalLog(out.sink, { color: false, names: COMMAND_NAMES })
    log.hideSecrets(tokenForms(token))
    log.info(`echo ${token} ${Buffer.from(`${token}:`).toString('base64')}`)
    log.startGroup(token)
    expect(out.text()).not.toContain(token)
    expect(out.text()).toContain('echo *** ***')
  })
})
