import {
  booleanSetting,
  fileSetting,
  readSettings,
  withVariables,
  type RawSettings,
  type Settings
} from '../settings.js'
import { COMMENT_WHEN, type CommentWhen } from '../report/comment-settings.js'
import { SettingsError } from '../errors.js'
import { oneLine } from '../untrusted-text.js'
import { msg, SETTING_KEYS, settingTitle } from '../words.js'
import { ACTION_NAMES } from './names.js'

/** Reads one input by its action.yml name; returns '' when unset, like `core.getInput`. */
type InputReader = (name: string) => string

/** The check's settings, and what only the action does with the verdict. */
export interface ActionSettings extends Settings {
  /**
   * Comment each project's verdict on the pull request the workflow runs for, and when:
   * always, only while the gate fails, or when the verdict changed; undefined: no comment.
   */
  comment: CommentWhen | undefined
  /** Token for GitHub's API: the pull-request comment, the check run, the pull request's lines. */
  gitHubToken: string | undefined
  /** Annotate the new issues on the diff, by default (the summary and files list them anyway). */
  annotate: boolean
  /** One check run per project carrying every new issue as an annotation; off by default. */
  checkRun: boolean
  /** Where to write the new issues as SARIF 2.1.0; undefined: nowhere. */
  sarifFile: string | undefined
}

/**
 * The step's inputs (and the environment variables some fall back to) as ActionSettings, or a
 * SettingsError naming the setting that is wrong.
 *
 * @example readActionSettings(core.getInput, process.env)
 */
export function readActionSettings(input: InputReader, env: NodeJS.ProcessEnv): ActionSettings {
  const given: RawSettings = {}
  for (const key of SETTING_KEYS) {
    const { name } = ACTION_NAMES.settings[key]
    if (name) given[key] = input(name)
  }
  const raw = withVariables(given, ACTION_NAMES, env)
  return {
    ...readSettings(raw),
    comment: commentSetting(raw),
    gitHubToken: raw.gitHubToken?.trim() || undefined,
    sarifFile: fileSetting(raw, 'sarif'),
    annotate: booleanSetting(raw, 'annotate', true),
    checkRun: booleanSetting(raw, 'checkRun', false)
  }
}

/**
 * pullRequestComment: `false` (the default) or `true` (always, as before), or when to comment:
 * `always`, `failed` or `changed`.
 */
function commentSetting(raw: RawSettings): CommentWhen | undefined {
  const value = (raw.comment ?? '').trim().toLowerCase()
  if (value === '' || value === 'false') return undefined
  if (value === 'true') return 'always'
  const when = COMMENT_WHEN.find((known) => known === value)
  if (when) return when
  throw new SettingsError(
    msg`${settingTitle('comment')} is "${oneLine(value)}": it must be true, false, ${COMMENT_WHEN.join(', ')}.`
  )
}

/**
 * The token as given (its input, else SONAR_TOKEN), trimmed: read before anything else, so that
 * the runner masks it even when another input is refused.
 */
export function givenToken(input: InputReader, env: NodeJS.ProcessEnv): string {
  const { name, variable } = ACTION_NAMES.settings.token
  return (name ? input(name).trim() : '') || (variable ? (env[variable]?.trim() ?? '') : '')
}
