/**
 * Messages as data. The core never writes an edge's words: where a message speaks of a setting
 * ("raise the time-out") or of where the details are, it holds a reference by key, and each
 * destination's sink says it in its edge's words, from the edge's one table of names
 * (`src/action/names.ts`: the action's inputs; `src/cli/names.ts`: the command's options and
 * environment variables).
 *
 * A message is a Message, made by the `msg` tagged template: its text and its references apart,
 * so that a sink escapes the text for its destination and says each reference after, never
 * escaped (`inWords`). The errors of the family keep theirs (`ExplainedError.said`).
 *
 * Text is only text: a string (a server's words, a path) is never read for a reference, and
 * nothing is taken out of it. A reference exists only as a value a Message holds.
 *
 * @example msg`raise ${setting('timeout')}` // each edge says its own name for the time-out
 */
import { cut } from './untrusted-text.js'

/** The settings a message may name. */
export const SETTING_KEYS = [
  'reportFile',
  'token',
  'host',
  'rootCert',
  'timeout',
  'initialDelay',
  'interval',
  'failStep',
  'failingStatuses',
  'task',
  'analysis',
  'project',
  'branch',
  'pullRequest',
  'commit',
  'comment',
  'gitHubToken',
  'annotate',
  'checkRun',
  'sarif',
  'inlineLimit',
  'inlineSeverity',
  'bitbucketProject',
  'bitbucketRepo',
  'githubRepository',
  'gitlabUrl',
  'gitlabProject',
  'giteaUrl',
  'giteaRepository',
  'allProjects',
  'bitbucketRepository',
  'azureRepository'
] as const

export type SettingKey = (typeof SETTING_KEYS)[number]

/** The places a message may send the reader to, and what the step calls itself (`self`). */
export const PLACE_KEYS = ['details', 'self'] as const

type PlaceKey = (typeof PLACE_KEYS)[number]

/** What an edge calls one setting: its own name, its environment variable, or both. */
interface SettingName {
  /** The edge's own name for it (an input, an option); none when only a variable sets it. */
  name?: string
  /** The environment variable that sets it when the name is not given: `SONAR_HOST_URL`. */
  variable?: string
  /**
   * Another way to give it that messages about the value itself do not name (a file the edge
   * reads the value from): said only where a message lists the ways to set it.
   */
  also?: string
}

/** One edge's words: how its users call each setting and each place. */
export interface Names {
  /** What one setting is called there, capitalised: `Input`, `Option`. */
  kind: string
  settings: Readonly<Record<SettingKey, SettingName>>
  places: Readonly<Record<PlaceKey, string>>
}

/** How a reference is said (see `inWords`): `place` for a place, the others for a setting. */
export const FORMS = [
  'name',
  'the',
  'title',
  'titles',
  'either',
  'withVariable',
  'variableFirst',
  'place'
] as const

type Form = (typeof FORMS)[number]

/**
 * A reference to a setting or a place in one form: what `setting`, `theSetting`, `place` and the
 * others make. A Message holds it as it is, for a sink to say (`inWords`).
 */
export class Reference {
  constructor(
    readonly form: Form,
    readonly key: string
  ) {}
}

export const reference = (form: Form, key: string): Reference => new Reference(form, key)

/** The setting's name; its variable when only a variable sets it. */
export const setting = (key: SettingKey): Reference => reference('name', key)

/** With its kind: `the <name> input`, `the <name> option`; `the <VARIABLE> environment variable`. */
export const theSetting = (key: SettingKey): Reference => reference('the', key)

/** At the start of a sentence: `Input <name>`, `Option <name>`; `<VARIABLE>` alone. */
export const settingTitle = (key: SettingKey): Reference => reference('title', key)

/** Two settings at the start of a sentence: `${settingsTitle('task')} and ${setting('analysis')}`. */
export const settingsTitle = (key: SettingKey): Reference => reference('titles', key)

/**
 * With its kind, the variable first: `the <VARIABLE> environment variable or the <name> input`;
 * `the <VARIABLE> environment variable` alone when the edge has no name for it.
 */
export const theVariableOrSetting = (key: SettingKey): Reference => reference('variableFirst', key)

/** The name or the variable: `<name> or <VARIABLE>`; either alone when the edge has one. */
export const settingOrVariable = (key: SettingKey): Reference => reference('either', key)

/** The name, the variable in brackets: `<name> (or <VARIABLE>)`; either alone when the edge has one. */
export const settingWithVariable = (key: SettingKey): Reference => reference('withVariable', key)

/** Where the reader finds the details (the action's job summary, the command's files). */
export const place = (key: PlaceKey): Reference => reference('place', key)

/** A message of ours: text and references, made by `msg`, said only by a sink (`inWords`). */
export class Message {
  private constructor(readonly parts: readonly (string | Reference)[]) {}

  /** The message of `strings` and `values`, as `msg` makes it. */
  static of(strings: readonly string[], values: readonly MessageValue[]): Message {
    const parts: (string | Reference)[] = []
    const add = (part: string | Reference) => {
      const last = parts.at(-1)
      if (typeof part === 'string' && typeof last === 'string')
        parts[parts.length - 1] = last + part
      else if (part !== '') parts.push(part)
    }
    strings.forEach((text, index) => {
      add(text)
      if (index >= values.length) return
      const value = values[index]!
      if (value instanceof Message) value.parts.forEach(add)
      else add(value instanceof Reference ? value : String(value))
    })
    return new Message(parts)
  }
}

/** What a message may hold: text (a server's too), numbers, references and other messages. */
type MessageValue = string | number | undefined | Reference | Message

/**
 * A message of ours, by a tagged template: a Message when it names a setting or a place, else
 * its text.
 *
 * @example msg`raise ${setting('timeout')} (it is ${seconds} s)`
 */
export function msg(strings: TemplateStringsArray, ...values: MessageValue[]): Said {
  return simplest(Message.of(strings, values))
}

/** `message` as text when it holds no reference: text needs no edge to be said. */
function simplest(message: Message): Said {
  const references = message.parts.some((part) => part instanceof Reference)
  return references ? message : (message.parts as readonly string[]).join('')
}

/**
 * `items` one after the other, `separator` between them: the lines of one message.
 *
 * @example joined([msg`Quality Gate Failure: ${head}`, ...lines], '\n')
 */
export function joined(items: readonly Said[], separator: string): Said {
  return simplest(Message.of(['', ...items.slice(1).map(() => separator), ''], items))
}

/** `said` split at each line feed of its text: one Message or text per line. */
export function linesOf(said: Said): Said[] {
  if (!(said instanceof Message)) return typeof said === 'string' ? said.split('\n') : [said]
  const lines: (string | Reference)[][] = [[]]
  for (const part of said.parts) {
    const [first, ...others]: (string | Reference)[] =
      part instanceof Reference ? [part] : part.split('\n')
    if (first !== undefined) lines.at(-1)!.push(first)
    for (const other of others) lines.push([other])
  }
  return lines.map((parts) => simplest(Message.of(['', ...parts.map(() => '')], parts)))
}

/**
 * `said` within `max` characters of text (a reference counts as its key), cut with an ellipsis
 * where its text passes them.
 */
export function cutSaid(said: Said, max: number): Said {
  if (!(said instanceof Message)) return typeof said === 'string' ? cut(said, max) : said
  const parts: (string | Reference)[] = []
  let left = max
  for (const part of said.parts) {
    const length = part instanceof Reference ? part.key.length : part.length
    if (length > left) {
      if (typeof part === 'string') parts.push(cut(part, Math.max(1, left)))
      else parts.push('…')
      break
    }
    parts.push(part)
    left -= length
  }
  return simplest(Message.of(['', ...parts.map(() => '')], parts))
}

/** The first line of `said`: all of it up to its first line feed. */
export function firstLine(said: Said): Said {
  return linesOf(said)[0] ?? ''
}

/** Each reference by its key, for text no edge reads (an Error's `message`, a comparison). */
const KEY_NAMES: Names = {
  kind: 'Setting',
  settings: Object.fromEntries(
    SETTING_KEYS.map((key) => [key, { name: key }])
  ) as Names['settings'],
  places: { details: 'the details', self: 'the check' }
}

/** `said` as text with each reference by its key: for what no edge reads. */
export function textOf(said: Said): string {
  return inWords(said, KEY_NAMES)
}

/** What a sink says: a Message, or text (a server's, or ours without a reference). */
export type Said = string | Message | Reference

/**
 * `text` as a destination writes it: a Message's text through `escape` (the destination's gate)
 * and each of its references in `names`' words, never escaped; text alone through `escape`.
 *
 * @example inWords(msg`raise ${setting('timeout')}`, ACTION_NAMES) // 'raise ' and the action's input for the time-out
 */
export function inWords(text: Said, names: Names, escape = (plain: string) => plain): string {
  if (text instanceof Reference) return say(text.form, text.key, names)
  if (!(text instanceof Message)) return escape(text)
  return text.parts
    .map((part) => (part instanceof Reference ? say(part.form, part.key, names) : escape(part)))
    .join('')
}

function say(form: Form, key: string, names: Names): string {
  if (form === 'place') {
    return Object.hasOwn(names.places, key) ? names.places[key as PlaceKey] : key
  }
  if (!Object.hasOwn(names.settings, key)) return key
  const { name, variable, also } = names.settings[key as SettingKey]
  const plain = name ?? variable ?? key
  const theName = name ? `the ${name} ${names.kind.toLowerCase()}` : undefined
  const theVariable = variable ? `the ${variable} environment variable` : undefined
  switch (form) {
    case 'name':
      return plain
    case 'the':
      return theName ?? theVariable ?? key
    case 'title':
      return name ? `${names.kind} ${name}` : plain
    case 'titles':
      return name ? `${names.kind}s ${name}` : plain
    case 'variableFirst':
      return [theVariable, theName].filter(Boolean).join(' or ') || key
    case 'either':
      if (name && variable) return `${name} or ${variable}`
      return also ? `${plain} or ${also}` : plain
    case 'withVariable':
      return name && variable ? `${name} (or ${variable})` : plain
  }
}
