import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { findReportFiles as actionFinder } from '../../src/action/report-globs.js'
import { findReportFiles as commandFinder } from '../../src/cli/report-globs.js'

/** A workspace as scanners leave it, with the traps a glob can fall into. */
const TREE = [
  '.scannerwork/report-task.txt',
  'api/target/sonar/report-task.txt',
  'web/.scannerwork/report-task.txt',
  'reports/build/sonar/report-task.txt',
  'dotnet/.sonarqube/out/.sonar/report-task.txt',
  'node_modules/some-lib/.scannerwork/report-task.txt',
  'deep/a/b/c/d/e/f/report-task.txt',
  'odd [1]/report-task.txt',
  'odd [1]/x/report-task.txt',
  'star*name/report-task.txt',
  'api/target/sonar/report-task.txt.bak',
  'api/target/sonar/REPORT-TASK.TXT',
  'web/.scannerwork/other.txt'
]

const PATTERNS = [
  '**/report-task.txt',
  '*/**/report-task.txt',
  '*/.scannerwork/report-task.txt',
  '*/target/sonar/report-task.txt',
  '**/.scannerwork/report-task.txt',
  '**/*.txt',
  '*/*/*/report-task.txt',
  'api/**',
  'api/target/sonar/report-task.tx?',
  'api/target/sonar/report-task.[t]xt',
  'api/target/sonar/report-task.txt*',
  '{api,web}/**/report-task.txt',
  '+(api|web)/**/report-task.txt',
  'odd [1]/*',
  'odd [[]1]/report-task.txt',
  'star[*]name/*',
  './web/.scannerwork/*.txt',
  'web/../api/target/sonar/*',
  'api/target/',
  '*/target/sonar/',
  'missing/**/report-task.txt',
  'link*/**',
  'deep/**/f/report-task.txt'
]

let root: string
let cwd: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gate-globs-'))
  cwd = path.join(root, 'work [x]')
  for (const file of TREE) {
    await mkdir(path.dirname(path.join(cwd, file)), { recursive: true })
    await writeFile(path.join(cwd, file), 'ceTaskId=AY1\n')
  }
  // Links are returned by name, never followed.
  await symlink(path.join(cwd, 'api'), path.join(cwd, 'link-to-api'))
  await symlink(path.join(cwd, 'api/target/sonar/report-task.txt'), path.join(cwd, 'link-file'))
  // @actions/glob writes its debug lines on stdout through @actions/core.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
})

afterAll(async () => {
  vi.restoreAllMocks()
  await rm(root, { recursive: true, force: true })
})

describe('the command finds what the action finds, for the same patterns on the same tree', () => {
  it.each(PATTERNS)('%s', async (pattern) => {
    const action = await actionFinder(pattern, cwd, 51)
    const command = await commandFinder(pattern, cwd, 51)
    expect(command).toEqual(action)
  })

  it('absolute patterns too', async () => {
    const pattern = path.join(cwd.replace(/[[\]]/g, '?'), '*/.scannerwork/report-task.txt')
    expect(await commandFinder(pattern, cwd, 51)).toEqual(await actionFinder(pattern, cwd, 51))
    expect(await commandFinder(pattern, cwd, 51)).toEqual(['web/.scannerwork/report-task.txt'])
  })

  it('stops at the limit, as the action does (one more than the most analyses tells "too many")', async () => {
    expect(await commandFinder('**/report-task.txt', cwd, 3)).toHaveLength(3)
    expect(await actionFinder('**/report-task.txt', cwd, 3)).toHaveLength(3)
  })
})

describe('the command’s finder', () => {
  it('finds hidden folders and does not skip node_modules, as the action does not', async () => {
    expect(await commandFinder('**/.scannerwork/report-task.txt', cwd, 51)).toEqual([
      '.scannerwork/report-task.txt',
      'node_modules/some-lib/.scannerwork/report-task.txt',
      'web/.scannerwork/report-task.txt'
    ])
  })

  it('writes nothing on standard output (no ::debug:: lines)', async () => {
    const write = vi.mocked(process.stdout.write)
    write.mockClear()
    await commandFinder('**/report-task.txt', cwd, 51)
    expect(write).not.toHaveBeenCalled()
  })
})
