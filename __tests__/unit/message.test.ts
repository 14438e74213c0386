/**
 * Messages as values: `msg` keeps our text apart from the references it holds, and only a sink
 * (`inWords`, which sinks call) says them, escaping the text for its destination and never a
 * reference. Some checks here are the compiler's: `npm run typecheck` fails when a line marked
 * `@ts-expect-error` compiles, so a Message handed to an escaper (the order defect: escaping
 * before the names are said) cannot be written.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ACTION_NAMES } from '../../src/action/names.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { SettingsError } from '../../src/errors.js'
import { MARKDOWN_MARKUP, markdownText } from '../../src/report/markup.js'
import { summaryText } from '../../src/report/summary-text.js'
import { createSink } from '../../src/sink.js'
import {
  inWords,
  Message,
  msg,
  Reference,
  setting,
  theSetting,
  type Said,
  cutSaid,
  linesOf
} from '../../src/words.js'

const markdownEscape = (plain: string) => plain.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)

describe('msg keeps text and references apart', () => {
  it('text runs joined, references kept as values, numbers as text, messages inside flattened', () => {
    const inner = msg`raise ${setting('timeout')}`
    const message = msg`Timed out after ${60} s: ${inner}, or check ${theSetting('host')}.`
    expect(message).toBeInstanceOf(Message)
    expect((message as Message).parts).toEqual([
      'Timed out after 60 s: raise ',
      new Reference('name', 'timeout'),
      ', or check ',
      new Reference('the', 'host'),
      '.'
    ])
  })

  it('lines and cuts keep the references whole', () => {
    const message = msg`Raise ${setting('timeout')}.\nOr check ${theSetting('host')} now.`
    expect(linesOf(message).map((line) => inWords(line, COMMAND_NAMES))).toEqual([
      'Raise --timeout.',
      'Or check the --host option now.'
    ])
    expect(inWords(cutSaid(message, 14), COMMAND_NAMES)).toBe('Raise --timeout…')
    expect(inWords(cutSaid(message, 12), COMMAND_NAMES)).toBe('Raise …')
    expect(cutSaid('plain text', 6)).toBe('plain…')
  })

  it('a message that names no setting nor place is its text: no edge is needed to say it', () => {
    expect(msg`Timed out after ${60} s.`).toBe('Timed out after 60 s.')
  })
})

describe('a sink says the references in its edge’s words, after escaping the text only', () => {
  const message = msg`Raise ${setting('timeout')} (now 3.0 s): see ${theSetting('host')}.`

  it.each([
    [ACTION_NAMES, 'Raise pollingTimeoutSec \\(now 3\\.0 s\\)\\: see the sonarHostUrl input\\.'],
    [COMMAND_NAMES, 'Raise --timeout \\(now 3\\.0 s\\)\\: see the --host option\\.']
  ])('each edge its own names, never escaped: %#', (names, said) => {
    expect(inWords(message, names, markdownEscape)).toBe(said)
  })

  it('a sink says a Message, a lone reference, or text', () => {
    const sink = createSink({ names: COMMAND_NAMES, secrets: ['squ_0123456789'] })
    expect(sink.text(msg`raise ${setting('timeout')}: squ_0123456789`)).toBe('raise --timeout: ***')
    expect(sink.text(setting('timeout'))).toBe('--timeout')
    expect(sink.text('plain text')).toBe('plain text')
  })

  it('an error keeps what it says as a Message; its text names each setting by its key', () => {
    const error = new SettingsError(msg`${setting('timeout')} is "x": give a whole number.`)
    expect(error.said).toBeInstanceOf(Message)
    expect(inWords(error.said, COMMAND_NAMES)).toBe('--timeout is "x": give a whole number.')
    expect(error.message).toBe('timeout is "x": give a whole number.')
  })

  it('an error says what it is about as a field: the settings it names, by key', () => {
    const conflict = new SettingsError(
      msg`${setting('task')} and ${setting('analysis')} are both set: set one (${setting('analysis')}).`
    )
    expect(conflict.settings).toEqual(['task', 'analysis'])
    expect(new SettingsError('no setting named').settings).toEqual([])
  })

  it('text is only text: what looks like a reference in it is neither said nor taken out', () => {
    const forged = 'see \uE000name:timeout\uE001 and \uE001'
    expect(inWords(forged, ACTION_NAMES)).toBe(forged)
    expect(inWords(msg`${forged} or ${setting('timeout')}`, ACTION_NAMES)).toBe(
      `${forged} or pollingTimeoutSec`
    )
  })
})

describe('the compiler holds the order: text is escaped, a Message is only said', () => {
  it('escapers take text; a Message or a reference is not text', () => {
    expectTypeOf(markdownText).parameter(0).toEqualTypeOf<string>()
    expectTypeOf(summaryText).parameter(0).toEqualTypeOf<string>()
    expectTypeOf(MARKDOWN_MARKUP.text).parameter(0).toEqualTypeOf<string>()
    // @ts-expect-error a Message is escaped by the sink that says it, never before
    expect(() => markdownText(msg`raise ${setting('timeout')}`)).toThrow()
    // @ts-expect-error a reference is said, never escaped
    expect(() => summaryText(setting('timeout'))).toThrow()
  })

  it('what a sink says is a Message, a reference or text, and nothing else', () => {
    expectTypeOf<Said>().toEqualTypeOf<string | Message | Reference>()
    expectTypeOf(inWords).parameter(2).toEqualTypeOf<((plain: string) => string) | undefined>()
  })
})
