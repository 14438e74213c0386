/**
 * The sample projects of `__fixtures__/real-projects/` as git repositories in a temp folder, so
 * that analyses record their commit: each sample's `first/` is the first commit, and `second/`,
 * laid over it, the second (new code, with an issue and lines no test covers).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { REPO } from '../../../__fixtures__/built-action.js'

/** The samples: a Java project for Maven, a Python project for the scanner CLI. */
export type Sample = 'java-maven' | 'cli-python'

const SAMPLES = path.join(REPO, '__fixtures__/real-projects')

/** A sample's git repository. */
export interface SampleRepository {
  /** The repository's root. */
  root: string
  /** Lays the sample's second revision over the first and commits it; its SHA. */
  commitSecond(): string
  /** The SHA of HEAD. */
  head(): string
  remove(): void
}

/**
 * A git repository holding the sample's first revision in `folders` (the root by default; several
 * folders make a monorepo of as many projects), committed.
 *
 * @example const repository = sampleRepository('cli-python', ['billing', 'shipping'])
 */
export function sampleRepository(sample: Sample, folders = ['.']): SampleRepository {
  const root = mkdtempSync(path.join(tmpdir(), `real-${sample}-`))
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'],
        HOME: root,
        GIT_AUTHOR_NAME: 'Sample Author',
        GIT_AUTHOR_EMAIL: 'author@example.com',
        GIT_COMMITTER_NAME: 'Sample Author',
        GIT_COMMITTER_EMAIL: 'author@example.com'
      },
      timeout: 30_000
    }).trim()
  const lay = (revision: 'first' | 'second') => {
    for (const folder of folders)
      cpSync(path.join(SAMPLES, sample, revision), path.join(root, folder), { recursive: true })
  }
  git('init', '--quiet', '--initial-branch=main')
  lay('first')
  git('add', '-A')
  git('commit', '--quiet', '-m', 'First revision')
  return {
    root,
    commitSecond() {
      lay('second')
      git('add', '-A')
      git('commit', '--quiet', '-m', 'Second revision')
      return git('rev-parse', 'HEAD')
    },
    head: () => git('rev-parse', 'HEAD'),
    remove: () => rmSync(root, { recursive: true, force: true })
  }
}
