/**
 * The mentions GitHub and GitLab would find in a rendered comment's text: who would be notified.
 * Both search the text after rendering (character references decoded), outside `pre`, `code`, `a`
 * and `style` elements.
 *
 * - GitLab: `User.reference_pattern` (app/models/user.rb) is `(?<!\w)@(?<user>FULL_NAMESPACE_FORMAT_REGEX)`,
 *   with lib/gitlab/path_regex.rb's `PATH_REGEX_STR = '[a-zA-Z0-9_\.][a-zA-Z0-9_\-\.]*'` and
 *   `NAMESPACE_FORMAT_REGEX_JS = PATH_REGEX_STR + '[a-zA-Z0-9_\-]|[a-zA-Z0-9_]'`, then
 *   `(?<!\.git|\.atom)`, `/`-separated; lib/banzai/filter/references/reference_filter.rb ignores
 *   text under `pre code a style`.
 * - GitHub: html-pipeline's MentionFilter, `(?:^|\W)@((?>[a-z0-9][a-z0-9-]*))(?!\/)(?=\.+[ \t\W]|\.+$|[^0-9a-zA-Z_.]|$)`
 *   (case-insensitive), and its team form `@org/team`.
 */
const GITLAB_NAMESPACE = String.raw`(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_\-]|[a-zA-Z0-9_])(?<!\.git|\.atom)`
const GITLAB_MENTION = new RegExp(
  String.raw`(?<!\w)@(?:${GITLAB_NAMESPACE}/)*${GITLAB_NAMESPACE}`,
  'g'
)
const GITHUB_MENTION = /(?:^|\W)@(?:[a-z0-9][a-z0-9-]*)(?:\/[a-z0-9][a-z0-9\-_]*)?/gi

/** Every mention either platform would find in `text`. */
export function mentionsIn(text: string): string[] {
  return [...(text.match(GITLAB_MENTION) ?? []), ...(text.match(GITHUB_MENTION) ?? [])]
}
