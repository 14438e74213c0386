/**
 * Why server text gets word joiners. The review platforms search a comment's text after it is
 * rendered (character references decoded, so `&#126;bug` is `~bug` again), outside `pre`, `code`,
 * `a` and `style` elements, and turn what they find into links: GitLab's reference filters
 * (lib/banzai/filter/references/) find `#1` and `GL-1` (issues), `!2` (merge requests), `~bug`
 * (labels), `%v1` (milestones), `&5` (epics), `$3` (snippets), `*iteration:`, `[vulnerability:1]`
 * and the other bracketed forms, `^alert#1`, `group/project>`, 7 to 64 hexadecimal digits
 * (commits, and `a...b` ranges), each also after another project's path (`group/project#1`),
 * and post "mentioned in" notes on what they link; its AutolinkFilter links every `scheme://…`
 * in the text. GitHub finds `#1`, `GH-1`, `owner/repo#1` and commit SHAs the same way, Bitbucket
 * `#1` and commits, Azure DevOps `#1` (work items) and `!1` (pull requests), and an external
 * issue tracker's keys (`JIRA-1`). Where a platform renders Markdown, its linkifier also turns
 * bare addresses into links (`www.…`, `evil.com`, `mail@evil.com`).
 *
 * A word joiner (U+2060: no width, no break) placed where each of these patterns needs a
 * particular character (after `#` before its digits, inside `://`, after every sixth digit of a
 * long hexadecimal run) leaves the text as it reads, and no pattern finds anything in it. Text in
 * code is never searched, so code keeps its characters as they are (a SHA copied from it works).
 */

/** U+2060 WORD JOINER: no width, no break, and not a character any reference is made of. */
export const WORD_JOINER = '\u2060'

const J = WORD_JOINER

/**
 * Where a reference needs the next character: a prefix and what follows it (GitLab's
 * `Issue.reference_pattern` and the others in app/models), the `-` of a tracker's key before its
 * digits, a project path before its `>`.
 */
const REFERENCE_STARTS: readonly [RegExp, string][] = [
  // Issues, merge requests, epics and snippets: a prefix before digits.
  [/[#!&$](?=\d)/g, `$&${J}`],
  // Labels: `~1`, `~bug`, `~"a b"`; milestones: `%1`, `%v1.0`, `%"a b"` (a run that holds a word character).
  [/~(?=[\w\-?.&"])/g, `$&${J}`],
  [/%(?=[^\s"<]*[\p{L}\p{N}_]|")/gu, `$&${J}`],
  // `^alert#1`, `*iteration:1`, `[vulnerability:1]`, `[issue:1]`, `[[wiki]]`.
  [/[\^*](?=[A-Za-z])|\[(?=[A-Za-z[])/g, `$&${J}`],
  // Mentions: `@user`, `@group/team`, `@all`.
  [/@/g, `@${J}`],
  // An issue tracker's key: `GL-1`, `GH-1`, `JIRA-1`.
  [/(?<=\b[A-Z][A-Z0-9_]*-)(?=\d)/g, J],
  // A project: `group/project>`.
  [/(?<=[\w.-])>/g, `${J}>`],
  // An address: `scheme://…`, `www.…`.
  [/:(?=\/\/)/g, `:${J}`],
  [/\b(www)(?=\.)/gi, `$1${J}`]
]

/** Commits: 7 to 64 hexadecimal digits, alone or in a range `a...b`. */
const HEX_RUN = /[0-9a-fA-F]{7,}/g

/**
 * `text` with a word joiner wherever a platform's reference or autolink filter, searching the
 * rendered text, would find a reference or an address: what an HTML body needs, where no
 * Markdown (and so no linkifier) runs.
 *
 * @example withoutReferences('see #1') // 'see #\u20601'
 */
export function withoutReferences(text: string): string {
  const split = text.replace(HEX_RUN, (run) => (run.match(/.{1,6}/g) ?? []).join(J))
  return REFERENCE_STARTS.reduce((done, [pattern, by]) => done.replace(pattern, by), split)
}

/**
 * What a Markdown linkifier finds in any text, besides the references: a scheme before its `:`
 * (`mailto:`, `https:`), an e-mail address, `//` (an address without its scheme), and a dot
 * before a letter (a domain's last label, which linkifiers check against the known top-level
 * domains).
 */
const LINK_STARTS: readonly [RegExp, string][] = [
  [/:(?=[^\s\u2060])/g, `:${J}`],
  // An e-mail address: the character before its `@` is one of its name's.
  [/(?=@)/g, J],
  [/\/(?=\/)/g, `/${J}`],
  [/\.(?=\p{L})/gu, `.${J}`]
]

/**
 * `text` that no reference filter and no linkifier finds anything in once rendered: what a
 * Markdown body needs (markdown-it's linkify, commonmark-java's autolink, run on the rendered
 * text).
 *
 * @example withoutLinks('www.evil.com') // 'www\u2060.\u2060evil.\u2060com'
 */
export function withoutLinks(text: string): string {
  return LINK_STARTS.reduce(
    (done, [pattern, by]) => done.replace(pattern, by),
    withoutReferences(text)
  )
}
