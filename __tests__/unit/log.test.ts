import { describe, expect, it } from 'vitest'
import { runnerLog } from '../../src/log.js'
import { RecordingLog } from '../../__fixtures__/log.js'

describe('text in info lines can never start a workflow command', () => {
  it('folds new lines into spaces', () => {
    const recorded = new RecordingLog()
    runnerLog(recorded).info('PENDING\n::error::injected\r\n::set-output name=x::y')
    expect(recorded.of('info')).toEqual(['PENDING ::error::injected ::set-output name=x::y'])
  })

  it('passes annotations and groups through to the runner, which escapes them', () => {
    const recorded = new RecordingLog()
    const log = runnerLog(recorded)
    log.warning('a\nb')
    log.notice('c')
    log.startGroup('g')
    log.endGroup()
    expect(recorded.lines).toEqual([
      { kind: 'warning', text: 'a\nb' },
      { kind: 'notice', text: 'c' },
      { kind: 'group', text: 'g' },
      { kind: 'endgroup', text: '' }
    ])
  })
})
