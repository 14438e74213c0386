import MarkdownIt from 'markdown-it'

/**
 * The references and links the review platforms would make of a rendered comment's text: each
 * searches the text after rendering (character references decoded), outside `pre`, `code`, `a`
 * and `style` elements (`RenderedSummary.mentionable`), with its own patterns, quoted here.
 *
 * GitLab (lib/banzai/filter/references/reference_filter.rb ignores `pre code a style`; each
 * filter uses its model's `reference_pattern`, after an optional project path,
 * `Project.reference_pattern`, which the suffixes below are enough to find):
 * - app/models/issue.rb: `(?:(#{Project.reference_pattern})?#|GL-)#{Gitlab::Regex.issue}`, and
 *   lib/gitlab/regex.rb: `issue = /(?<issue>\d+)(?<format>\+s{,1})?(?=\W|\z)/`
 * - app/models/merge_request.rb: `!(?<merge_request>\d+)`; app/models/snippet.rb: `\$(?<snippet>\d+)`;
 *   app/models/epic.rb: `&` (and `[epic:`) before the epic's digits
 * - app/models/label.rb: `~(?:(?<label_id>\d+(?!\S\w)\b)|(?<label_name>[A-Za-z0-9_\-\?\.&]+(?<!\.|\?)|".+?"))`
 * - app/models/milestone.rb: `%(?:(?<milestone_iid>\d+(?!\S\w)\b)|(?<milestone_name>[^"\s\<]+\b|"[^"]+"))`
 * - app/models/commit.rb: `WHOLE_WORD_COMMIT_SHA_PATTERN = /\b#{COMMIT_SHA_PATTERN}\b/` (7 to 64
 *   hexadecimal digits), and commit ranges `a...b` of two of them
 * - Project.markdown_reference_pattern: a project's path before `>`
 * - the bracketed forms the editor offers (`[issue:`, `[work_item:`, `[epic:`, `[vulnerability:`,
 *   `[[` for wiki pages), `*iteration:` and `^alert#`
 * - lib/banzai/filter/autolink_filter.rb: `LINK_PATTERN = %r{([a-z][a-z0-9\+\.-]+://[^\s>]+)(?<!,|\.)}`
 * - an external tracker's keys (lib/banzai/filter/references/external_issue_reference_filter.rb,
 *   Jira's `\b[A-Z][A-Z_0-9]+-\d+`)
 *
 * Bitbucket links `#1` (issues) and commit hashes; Azure DevOps `#1` (work items) and `!1` (pull
 * requests); both render Markdown with bare addresses linked, which the test finds with
 * markdown-it's linkifier (linkify-it: `scheme:`, `//host`, `www.…`, a domain with a known
 * top-level domain, an e-mail address) over the rendered text.
 */
/** Every reference kind GitLab, GitHub, Bitbucket and Azure DevOps find, and every bare address. */
export const HOSTILE_REFERENCES = [
  'see #1 and !2 and other-group/other-proj#3, GL-4 and JIRA-5',
  '~bug ~"needs review" ~6 &7 $8 %v1.0 %"Release 2" %9 other-group/other-proj~10',
  '*iteration:11 [vulnerability:12] [issue:13] [work_item:14] [epic:15] [[Home]] ^alert#16',
  'other-group/other-proj> other-group/other-proj!17 other-group/other-proj&18',
  'commit 0123456789abcdef0123456789abcdef01234567, deadbeef and 1234567...89abcdef0 @all',
  'https://evil.example/x www.evil.example ftp://evil.example/y mailto:a@evil.com evil.com',
  'mail@evil.example //evil.example/z javascript:alert(1) README.md'
]

const GITLAB_REFERENCES: readonly [string, RegExp][] = [
  ['issue', /(?:#|GL-)\d+(?:\+s?)?(?=\W|$)/g],
  ['merge request', /!\d+/g],
  ['snippet', /\$\d+/g],
  ['epic', /&\d+/g],
  ['label', /~(?:\d+(?!\S\w)\b|[A-Za-z0-9_\-?.&]+(?<![.?])|".+?")/g],
  ['commit', /(?<![\p{L}\p{N}_])[0-9a-fA-F]{7,64}(?![\p{L}\p{N}_])/gu],
  ['commit range', /[0-9a-fA-F]{7,64}\.\.\.?[0-9a-fA-F]{7,64}/g],
  ['project', /[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+>/g],
  ['bracketed', /\[(?:[a-z_]+:|\[)/g],
  ['iteration', /\*iteration:/g],
  ['alert', /\^alert#/g],
  ['external issue', /\b[A-Z][A-Z_0-9]+-\d+/g],
  ['address', /[a-z][a-z0-9+.-]+:\/\/[^\s>]+/g],
  ['www', /\bwww\./gi]
]

/**
 * app/models/milestone.rb's pattern. A milestone is looked up by its exact title
 * (milestone_reference_filter.rb: `where(name: milestone_names)`), so a match whose title starts
 * with the word joiner the gates put after `%` names no milestone anyone gave.
 */
const GITLAB_MILESTONE = /%(?:\d+(?!\S\w)\b|(?<name>[^"\s<]+(?<=[\p{L}\p{N}_])|"[^"]+"))/gu

/** Every reference GitLab (and GitHub, Bitbucket and Azure DevOps, whose forms are among them) would find in `text`. */
export function referencesIn(text: string): string[] {
  const found = GITLAB_REFERENCES.flatMap(([kind, pattern]) =>
    [...text.matchAll(pattern)].map(([match]) => `${kind}: ${match}`)
  )
  for (const match of text.matchAll(GITLAB_MILESTONE)) {
    if (!match.groups?.['name']?.startsWith('\u2060')) found.push(`milestone: ${match[0]}`)
  }
  return found
}

const linkifier = new MarkdownIt({ linkify: true }).linkify

/** Every bare address a Markdown platform's linkifier would link in `text`. */
export function bareLinksIn(text: string): string[] {
  return (linkifier.match(text) ?? []).map(({ raw }) => raw)
}
