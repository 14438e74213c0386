/**
 * How the GitHub runner reads a step's output, for tests that check no text became a workflow
 * command (facts from the runner's ActionCommand: TrimStart, then `::`; the legacy `##[` anywhere;
 * lines broken at LF, CR and CRLF).
 */

/** White space as the runner's TrimStart (.NET `char.IsWhiteSpace`) skips it. */
const RUNNER_WHITE_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/

/** The runner's rule: `::` first after white space, or the legacy `##[` anywhere. */
export function isRunnerCommand(line: string): boolean {
  return line.replace(RUNNER_WHITE_SPACE, '').startsWith('::') || line.includes('##[')
}

/** Lines as the runner reads its input: a new line at LF, CR and CRLF. */
export const runnerLines = (text: string): string[] => text.split(/\r\n|\r|\n/)

/** The commands `@actions/core` writes for the action. */
const OWN_COMMANDS = new Set([
  'add-mask',
  'group',
  'endgroup',
  'warning',
  'error',
  'notice',
  'debug'
])

/**
 * What in a step's stdout the runner would read as a command the action did not write: every
 * line `@actions/core` writes ends in LF, and its commands start at the line's first column; a
 * CR anywhere, a command of another name, a line that is a command only after white space, or
 * `##[` anywhere, is foreign.
 *
 * @example expect(foreignCommands(run.stdout)).toEqual([])
 */
export function foreignCommands(stdout: string): string[] {
  const problems: string[] = []
  if (stdout.includes('\r')) problems.push('a CR, which the runner reads as a line break')
  for (const line of stdout.split('\n')) {
    const shown = line.slice(0, 120)
    if (line.includes('##[')) problems.push(`the legacy command marker in: ${shown}`)
    if (line.startsWith('::')) {
      const name = /^::([\w-]+)/.exec(line)?.[1] ?? ''
      if (!OWN_COMMANDS.has(name)) problems.push(`a command the action does not write: ${shown}`)
    } else if (isRunnerCommand(line)) {
      problems.push(`a line the runner reads as a command: ${shown}`)
    }
  }
  return problems
}
