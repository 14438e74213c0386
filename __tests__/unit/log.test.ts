import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ACTION_NAMES } from '../../src/action/names.js'
import { forTheLog, LOG_LIMITS, logLine, runnerLog } from '../../src/log.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { isRunnerCommand, runnerLines } from '../support/runner-log.js'

/** Every way the action writes a line: info, annotations, the failure, a group's name. */
function everyWayLogged(message: string): RecordingLog {
  const recorded = new RecordingLog()
  const log = runnerLog(recorded, ACTION_NAMES)
  log.info(message)
  log.warning(message)
  log.notice(message)
  log.fail(message)
  log.startGroup(message)
  return recorded
}

const HOSTILE = [
  '::error::injected',
  '  \t::set-output name=status::OK',
  '\u00a0\u3000::add-mask::x',
  '\ufeff::error::bom',
  'PENDING ##[error]legacy',
  '###[x]',
  '##[##[',
  'a\rb\r\n::error::after CR',
  'x\u2028::error::after LS',
  '\u0085::error::after NEL',
  '\u001b[31mred',
  '\u202eevil'
]

describe('no text in the log can become a workflow command', () => {
  it.each(HOSTILE)('%j: no line the runner reads is a command, whatever the call', (message) => {
    for (const { text } of everyWayLogged(`PENDING\n${message}`).lines) {
      for (const line of runnerLines(text)) expect(isRunnerCommand(line)).toBe(false)
    }
  })

  it('holds for any text built from command and line-break fragments', () => {
    const fragment = fc.constantFrom(
      ...['::', '##[', '#', ':', '[', '\n', '\r', '\r\n', ' ', '\t', '\u00a0', '\u2028'],
      ...['\u0085', '\u3000', '\ufeff', '\u001b', 'error', 'x']
    )
    const message = fc.oneof(
      fc.array(fragment).map((parts) => parts.join('')),
      fc.string()
    )
    fc.assert(
      fc.property(message, (text) =>
        everyWayLogged(text).lines.every(({ text: logged }) =>
          runnerLines(logged).every((line) => !isRunnerCommand(line))
        )
      ),
      { numRuns: 2000 }
    )
  })
})

describe('each line is made safe by one documented transform', () => {
  it.each([
    ['::error::x', ': :error::x'],
    ['  ::set-output name=a::b', '  : :set-output name=a::b'],
    [
      'status ::error::x stays: only a line start counts',
      'status ::error::x stays: only a line start counts'
    ],
    ['##[error]x and ##[group]y', '# #[error]x and # #[group]y'],
    ['a\rb', 'a\\rb'],
    ['esc \u001b[31m, del \u007f, nel \u0085', 'esc \\x1B[31m, del \\x7F, nel \\x85'],
    ['\u2028\u2029\u202e\u2066', '\\u2028\\u2029\\u202E\\u2066'],
    ['tab\tstays', 'tab\tstays']
  ])('%j → %j', (line, safe) => {
    expect(logLine(line)).toBe(safe)
  })

  it('cuts a line to 4,000 characters, the last an ellipsis', () => {
    expect(logLine('x'.repeat(1_000_000))).toBe(`${'x'.repeat(LOG_LIMITS.lineChars - 1)}…`)
    expect(logLine('\u0000'.repeat(5000))).toHaveLength(LOG_LIMITS.lineChars)
  })
})

describe('info keeps our line feeds, each line safe; annotations stay one message', () => {
  it('writes a message with line feeds as several lines, a CR shown as \\r', () => {
    const recorded = new RecordingLog()
    runnerLog(recorded, ACTION_NAMES).info('PENDING\n::error::injected\r\n::set-output name=x::y')
    expect(recorded.of('info')).toEqual(['PENDING\n: :error::injected\\r\n: :set-output name=x::y'])
  })

  it('ends a message of more than 100 lines with how many more there were', () => {
    const lines = forTheLog(Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n')).split(
      '\n'
    )
    expect(lines).toHaveLength(LOG_LIMITS.messageLines + 1)
    expect(lines.at(-1)).toBe('… 50 more lines')
  })

  it('passes annotations, the failure and groups to the runner, which escapes their line breaks', () => {
    const recorded = new RecordingLog()
    const log = runnerLog(recorded, ACTION_NAMES)
    log.warning('a\n::error::b')
    log.notice('c')
    log.fail('Quality Gate Failure\n- ##[error] x')
    log.startGroup('Waiting for task\n::error::t')
    log.endGroup()
    expect(recorded.lines).toEqual([
      { kind: 'warning', text: 'a\n: :error::b' },
      { kind: 'notice', text: 'c' },
      { kind: 'failed', text: 'Quality Gate Failure\n- # #[error] x' },
      { kind: 'group', text: 'Waiting for task\\n::error::t' },
      { kind: 'endgroup', text: '' }
    ])
  })
})

describe('a secret the log is told of is masked by the runner and removed from every message', () => {
  it('a server that echoes the token in any field shows ***, in every kind of line', () => {
    const recorded = new RecordingLog()
    const log = runnerLog(recorded, ACTION_NAMES)
    log.hideSecrets(['squ_secret', 'c3F1X3NlY3JldDo='])
    log.info('task squ_secret PENDING')
    log.warning('echo c3F1X3NlY3JldDo=')
    log.fail('Task squ_secret failed')
    log.startGroup('Waiting for analysis task squ_secret')
    expect(recorded.of('secret')).toEqual(['squ_secret', 'c3F1X3NlY3JldDo='])
    expect(recorded.lines.filter(({ kind }) => kind !== 'secret').map(({ text }) => text)).toEqual([
      'task *** PENDING',
      'echo ***',
      'Task *** failed',
      'Waiting for analysis task ***'
    ])
  })
})
