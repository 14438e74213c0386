import { markdownForms } from '../report/markup.js'
import { OUTPUT_BYTES } from '../report/outputs.js'
import { COMMENT_LIMITS } from '../report/comment-settings.js'
import { SUMMARY_LIMITS } from '../report/summary.js'
import { summaryForms } from '../report/summary-text.js'
import { jsonForms } from '../secrets.js'
import { createSink, type Sink, type SinkOptions } from '../sink.js'
import { ACTION_NAMES } from './names.js'

/**
 * Every destination of the action but its log (the runner log is a sink of its own, built
 * before the settings are read: `runnerLog`), each built once here with the token's forms, the
 * action's names and the destination's limit. A new destination is one more line here.
 */
export interface ActionSinks {
  /** The job summary: HTML blocks, 1 MiB. */
  summary: Sink
  /** The step's outputs, each within OUTPUT_BYTES. */
  outputs: Sink
  /** The pull-request comment: HTML, counted in characters as GitHub counts them. */
  comment: Sink
  /** The pull-request comment on Gitea or Forgejo: Markdown, in characters. */
  markdownComment: Sink
  /** The check run's summary and annotations. */
  checkRun: Sink
  sarif: Sink
}

/** The sinks for a step whose token has these forms (none without a token). */
export function actionSinks(secrets: readonly string[]): ActionSinks {
  const sink = (options: Omit<SinkOptions, 'names' | 'secrets'>) =>
    createSink({ names: ACTION_NAMES, secrets, ...options })
  // GitHub counts a comment's length in characters.
  const comment = (escapedForms: SinkOptions['escapedForms']) =>
    sink({ escapedForms, limit: COMMENT_LIMITS.githubChars, unit: 'characters' })
  return {
    summary: sink({ escapedForms: summaryForms, limit: SUMMARY_LIMITS.bytes }),
    outputs: sink({ escapedForms: jsonForms, limit: OUTPUT_BYTES }),
    comment: comment(summaryForms),
    markdownComment: comment(markdownForms),
    checkRun: sink({ escapedForms: summaryForms, unit: 'characters' }),
    sarif: sink({ escapedForms: jsonForms })
  }
}
