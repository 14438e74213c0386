import { ACTION_NAMES } from '../src/action/names.js'
import { COMMAND_NAMES } from '../src/cli/names.js'
import { summaryForms } from '../src/report/summary-text.js'
import { tokenForms } from '../src/secrets.js'
import { createSink, type Sink, type SinkOptions } from '../src/sink.js'
import { saidOf } from '../src/errors.js'
import { inWords, type Said } from '../src/words.js'

/** A sink as the action builds one, for tests: its names, the token's forms, the given limit. */
export function actionSink(options: Partial<SinkOptions> & { token?: string } = {}): Sink {
  const { token, ...rest } = options
  return createSink({
    names: ACTION_NAMES,
    secrets: token ? tokenForms(token) : [],
    ...rest
  })
}

/** The same, for an HTML destination (the job summary, the pull-request comment). */
export function actionHtmlSink(options: Partial<SinkOptions> & { token?: string } = {}): Sink {
  return actionSink({ escapedForms: summaryForms, ...options })
}

/** A sink as the command builds one. */
export function commandSink(options: Partial<SinkOptions> & { token?: string } = {}): Sink {
  const { token, ...rest } = options
  return createSink({
    names: COMMAND_NAMES,
    secrets: token ? tokenForms(token) : [],
    ...rest
  })
}

/** A core message (or what an error says) as the action says it. */
export const inActionWords = (text: Said | Error): string =>
  inWords(text instanceof Error ? saidOf(text) : text, ACTION_NAMES)

/** A core message (or what an error says) as the command says it. */
export const inCommandWords = (text: Said | Error): string =>
  inWords(text instanceof Error ? saidOf(text) : text, COMMAND_NAMES)

/**
 * The error `run` throws, its message in an edge's words (the action's by default); fails the
 * test when nothing is thrown.
 *
 * @example expect(thrownInWords(() => readActionSettings(inputs, {})).message).toMatch(/Input failOn/)
 */
export function thrownInWords(run: () => unknown, words = inActionWords): Error {
  try {
    run()
  } catch (error) {
    const thrown = error as Error
    return Object.assign(thrown, { message: words(thrown) })
  }
  throw new Error('nothing was thrown')
}

/** The error `promise` rejects with, its message in an edge's words (the action's by default). */
export async function rejectionInWords(
  promise: Promise<unknown>,
  words = inActionWords
): Promise<Error> {
  try {
    await promise
  } catch (error) {
    const thrown = error as Error
    return Object.assign(thrown, { message: words(thrown) })
  }
  throw new Error('nothing was rejected')
}
