import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ACTION_NAMES } from '../../src/action/names.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { USAGE } from '../../src/cli/options.js'
import {
  inWords,
  msg,
  PLACE_KEYS,
  reference,
  SETTING_KEYS,
  setting,
  theSetting
} from '../../src/words.js'

const root = path.resolve(import.meta.dirname, '../..')
const src = path.join(root, 'src')

/** Every .ts file under src/, as a path relative to src/. */
function sources(folder = src): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') ? [path.relative(src, full)] : []
  })
}

const files = sources().map((file) => ({ file, text: readFileSync(path.join(src, file), 'utf8') }))
const outside = (edge: string) => files.filter(({ file }) => !file.startsWith(`${edge}${path.sep}`))

/** action.yml's inputs: the two-space keys between `inputs:` and `outputs:`. */
const actionYml = readFileSync(path.join(root, 'action.yml'), 'utf8')
const inputs = actionYml
  .slice(actionYml.indexOf('\ninputs:'), actionYml.indexOf('\noutputs:'))
  .split('\n')
  .flatMap((line) => /^ {2}(\w+):\s*$/.exec(line)?.[1] ?? [])
/**
 * taskId, analysisId and projectKey are also the server's and the report file's own field names
 * (`task.analysisId`, `projectKey=`), and branch, pullRequest and commit plain words of the core:
 * these are checked as inputs by name only.
 */
const SERVER_FIELDS = new Set([
  'taskId',
  'analysisId',
  'projectKey',
  'branch',
  'pullRequest',
  'commit'
])
const options = [...new Set(USAGE.match(/--[a-z][a-z-]+/g))]

describe("each edge's names live in that edge alone", () => {
  it('finds what it checks: the inputs of action.yml and the options of --help', () => {
    expect(inputs).toContain('pollingTimeoutSec')
    expect(options).toEqual(expect.arrayContaining(['--report', '--timeout', '--fail-on']))
  })

  it.each(inputs.filter((name) => !SERVER_FIELDS.has(name)))(
    'the input %s appears in src/action/ only',
    (name) => {
      const word = new RegExp(`\\b${name}\\b`)
      const found = outside('action').filter(({ text }) => word.test(text))
      expect(found.map(({ file }) => file)).toEqual([])
    }
  )

  it.each([...SERVER_FIELDS])('%s is named as an input in src/action/ only', (name) => {
    const asInput = new RegExp(`\\b${name} input\\b|\\binput ${name}\\b`, 'i')
    const found = outside('action').filter(({ text }) => asInput.test(text))
    expect(found.map(({ file }) => file)).toEqual([])
  })

  it.each(options)('the option %s appears in src/cli/ only', (option) => {
    const word = new RegExp(`(?<![\\w-])${option}(?![\\w-])`)
    const found = outside('cli').filter(({ text }) => word.test(text))
    expect(found.map(({ file }) => file)).toEqual([])
  })

  it('each edge names every setting and every place, and no two settings alike', () => {
    for (const names of [ACTION_NAMES, COMMAND_NAMES]) {
      expect(Object.keys(names.settings).sort()).toEqual([...SETTING_KEYS].sort())
      expect(Object.keys(names.places).sort()).toEqual([...PLACE_KEYS].sort())
      const own = Object.values(names.settings).flatMap(({ name }) => (name ? [name] : []))
      expect(new Set(own).size).toBe(own.length)
    }
  })

  it("every input the action's table names is one of action.yml", () => {
    for (const { name } of Object.values(ACTION_NAMES.settings)) {
      if (name) expect(inputs).toContain(name)
    }
  })

  it("every option the command's table names is one --help shows", () => {
    for (const { name, also } of Object.values(COMMAND_NAMES.settings)) {
      if (name) expect(options).toContain(name)
      if (also) expect(options).toContain(also)
    }
  })

  it('a reference is said in each edge its own way', () => {
    const message = msg`raise ${setting('timeout')}, or check ${theSetting('task')}`
    expect(inWords(message, ACTION_NAMES)).toBe(
      'raise pollingTimeoutSec, or check the taskId input'
    )
    expect(inWords(message, COMMAND_NAMES)).toBe('raise --timeout, or check the --task-id option')
  })
})

describe('inWords', () => {
  it('an unknown key is said as its key: nothing is lost', () => {
    expect(inWords(reference('name', 'nothing'), ACTION_NAMES)).toBe('nothing')
  })

  it('text a server forges as a reference stays its text: never a setting name, nothing taken out', () => {
    expect(inWords('\uE000the:token\uE001<script>', COMMAND_NAMES)).toBe(
      '\uE000the:token\uE001<script>'
    )
  })
})
