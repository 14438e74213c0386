/**
 * The lines a pull request adds or changes, from the unified-diff patches GitHub's pull-request
 * files API gives, and the findings that stand on them.
 */
import type { Finding } from './finding.js'

/** Per file (relative to the repository root): its added or changed lines, or 'whole' when
 * GitHub gave no patch (a large diff), so every line counts as changed. */
export type ChangedLines = Map<string, Set<number> | 'whole'>

/** The most lines of one patch looked at: GitHub's own patches stop well before. */
const MAX_PATCH_LINES = 100_000

/**
 * The new-side line numbers a patch adds (`+` lines), hunk by hunk. Lines of a malformed hunk
 * header are skipped, never guessed.
 *
 * @example addedLines('@@ -1,2 +1,3 @@\n a\n+b\n c') // Set { 2 }
 */
export function addedLines(patch: string): Set<number> {
  const added = new Set<number>()
  let next: number | undefined
  const lines = patch.split('\n', MAX_PATCH_LINES)
  for (const line of lines) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line)
    if (hunk) {
      next = Number(hunk[1])
      continue
    }
    if (next === undefined) continue
    if (line.startsWith('+')) added.add(next++)
    else if (line.startsWith(' ')) next++
    // '-' lines and "\ No newline at end of file" do not move the new side.
  }
  return added
}

/**
 * The findings on lines the pull request changes: in a changed file, and with a line of their
 * region among its added lines (any line of a file GitHub gave no patch for). A finding with no
 * file in the checkout, or no line, is not on the pull request's lines.
 */
export function onChangedLines(findings: readonly Finding[], changed: ChangedLines): Finding[] {
  return findings.filter((finding) => {
    if (finding.file === undefined || finding.region === undefined) return false
    const lines = changed.get(finding.file)
    if (lines === undefined) return false
    if (lines === 'whole') return true
    const { startLine, endLine } = finding.region
    for (let line = startLine; line <= Math.min(endLine, startLine + 10_000); line++) {
      if (lines.has(line)) return true
    }
    return false
  })
}
