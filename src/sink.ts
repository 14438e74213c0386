import { characters, fitParts, utf8Bytes, type FitOptions, type Fitted, type Parts } from './fit.js'
import { redactSecrets } from './secrets.js'
import { inWords, type Names, type Said } from './words.js'

/**
 * One destination the check writes to (the runner's log, the job summary, the outputs, the
 * pull-request comment, a result file…), as the edge builds it once: with the secrets to hide,
 * its names table and the destination's limit. Everything written there goes through its sink:
 * the sink says the core's references in the edge's words, removes every form of every secret
 * and fits the limit; writers hand it text and parts, and never redact or measure themselves.
 * Escaping stays with each destination's one gate (`forTheLog`, `summaryText`, JSON, XML), which
 * the writer applies to the untrusted values it quotes.
 */
export interface Sink {
  /** The most this destination takes, in `unit`s. */
  readonly limit: number
  /** The secrets it hides, as given (their escaped forms are added where the sink needs them). */
  readonly secrets: readonly string[]
  readonly unit: 'bytes' | 'characters'
  /** `text` as it may be written here: references in the edge's words, secrets removed. */
  text(text: Said): string
  /**
   * `said` as `text` says it, its text (never a reference) through `escape` first: a markup's
   * gate for what a message quotes (`markup.text`, `summaryText`).
   */
  say(said: Said, escape: (plain: string) => string): string
  /**
   * The parts (most important first), head, tail and foot made `text`, then as many parts as
   * fit in `limit` (the sink's own by default), then the tail for those left out.
   */
  fit(parts: SaidParts, options?: Partial<Omit<FitOptions, 'size'>>): Fitted
  /** How long `text` is in this destination's unit. */
  size(text: string): number
  /**
   * This destination hiding `secrets` too: a second token the edge holds for it (the GitHub
   * token of the pull-request comment and the check run).
   */
  hiding(secrets: readonly string[]): Sink
}

/** Parts to fit (see Parts), each a Message or text that the sink says before measuring it. */
interface SaidParts {
  readonly length: number
  at(index: number): Said | undefined
}

export interface SinkOptions {
  /** The edge's words (`ACTION_NAMES`, `COMMAND_NAMES`). */
  names: Names
  /** Every form of the token (`tokenForms`); more when the edge has other secrets. */
  secrets: readonly string[]
  /**
   * The forms a secret takes once escaped for this destination, besides its own (HTML and XML
   * destinations: `summaryForms`), so that a token quoted by a server is hidden there too.
   */
  escapedForms?: (secrets: readonly string[]) => readonly string[]
  /** The destination's limit; none: unbounded. */
  limit?: number
  unit?: 'bytes' | 'characters'
}

/**
 * A destination's sink.
 *
 * @example const summary = createSink({ names: ACTION_NAMES, secrets: tokenForms(token), escapedForms: summaryForms, limit: SUMMARY_LIMITS.bytes })
 */
export function createSink(options: SinkOptions): Sink {
  const { names, limit = Number.POSITIVE_INFINITY, unit = 'bytes' } = options
  // The token's escaped forms, made when the sink first writes: most sinks of a run never do.
  let forms: readonly string[] | undefined
  const hidden = () =>
    (forms ??= options.escapedForms ? options.escapedForms(options.secrets) : options.secrets)
  const size = unit === 'bytes' ? utf8Bytes : characters
  const text = (value: Said): string => redactSecrets(inWords(value, names), hidden())
  return {
    limit,
    secrets: options.secrets,
    unit,
    size,
    text,
    say: (said, escape) => redactSecrets(inWords(said, names, escape), hidden()),
    fit: (parts, fitOptions = {}) => {
      const { head, foot, separator, tail, more } = fitOptions
      // Each part is made and said only when fitting reaches it.
      const said: Parts = {
        length: parts.length,
        at: (index) => {
          const part = parts.at(index)
          return part === undefined ? undefined : text(part)
        }
      }
      return fitParts(said, {
        limit: fitOptions.limit ?? limit,
        size,
        separator,
        more,
        ...(head === undefined ? {} : { head: text(head) }),
        ...(foot === undefined ? {} : { foot: text(foot) }),
        ...(tail === undefined ? {} : { tail: (leftOut: number) => text(tail(leftOut)) })
      })
    },
    hiding: (secrets) => createSink({ ...options, secrets: [...options.secrets, ...secrets] })
  }
}
