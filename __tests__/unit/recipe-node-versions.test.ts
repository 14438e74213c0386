/**
 * Every CI recipe of the README and docs/ runs the command on a Node.js that package.json's
 * `engines` accepts: a recipe copied as written must not install on a Node the command refuses.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const engines = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string }
  }
).engines.node

const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/**
 * The Node.js versions a line asks for: `image: node:22-alpine`, `cimg/node:22.12`,
 * `node-version: 24`, Azure's `version: '22.x'`, Jenkins's `nodejs 'node-22'`. A floating tag
 * (`lts`, `current`) names no version.
 */
export function requestedVersions(line: string): string[] {
  const patterns = [
    /\b(?:image:\s*|cimg\/)node:(\d+(?:\.\d+){0,2})/g,
    /\bnode-version:\s*['"]?(\d+(?:\.\d+){0,2})/g,
    /\bversion:\s*'(\d+(?:\.\d+){0,2})\.x'/g,
    /\bnodejs\s+'node-(\d+(?:\.\d+){0,2})'/g
  ]
  return patterns.flatMap((pattern) => [...line.matchAll(pattern)].map(([, version]) => version!))
}

/**
 * Whether a version, as a CI image or installer takes it (`22` the newest 22.x, `22.12` the
 * newest 22.12.x), satisfies an `engines` range of the form `^20.19.0 || ^22.13.0 || >=24`.
 */
export function satisfiesEngines(version: string, range: string): boolean {
  const [major = 0, minor, patch] = version.split('.').map(Number)
  return range.split('||').some((part) => {
    const clause = /^\s*(\^|>=)(\d+)\.?(\d+)?\.?(\d+)?\s*$/.exec(part)
    if (!clause) throw new Error(`engines clause not understood: ${part}`)
    const [, operator, lowMajor, lowMinor = '0', lowPatch = '0'] = clause
    const low = [Number(lowMajor), Number(lowMinor), Number(lowPatch)]
    // The newest release the request can give: a missing part is as high as it goes.
    const newest = [major, minor ?? Infinity, patch ?? Infinity]
    const atLeast =
      newest[0]! > low[0]! ||
      (newest[0] === low[0] &&
        (newest[1]! > low[1]! || (newest[1] === low[1] && newest[2]! >= low[2]!)))
    return operator === '>=' ? atLeast : atLeast && major === low[0]
  })
}

describe('the Node.js of every CI recipe', () => {
  const requests = PAGES.flatMap((page) =>
    readFileSync(path.join(ROOT, page), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        requestedVersions(line).map((version) => ({ at: `${page}:${index + 1}`, version }))
      )
  )

  it(`satisfies package.json's engines (${engines})`, () => {
    const refused = requests.filter(({ version }) => !satisfiesEngines(version, engines))
    expect(refused).toEqual([])
  })

  it('is read from the recipes (GitLab, Jenkins, Azure, Bitbucket at least)', () => {
    expect(requests.length).toBeGreaterThanOrEqual(4)
  })
})

describe('reading a recipe for its Node.js', () => {
  it.each([
    ['  image: node:22-alpine', ['22']],
    ['      - image: cimg/node:22.12', ['22.12']],
    ['      - image: cimg/node:lts', []],
    ["      version: '22.x'", ['22']],
    ["  tools { nodejs 'node-22' }", ['22']],
    ['          node-version: 24', ['24']]
  ])('%s → %j', (line, versions) => {
    expect(requestedVersions(line)).toEqual(versions)
  })

  it.each([
    ['22', true],
    ['22.12', false],
    ['22.13', true],
    ['20.18', false],
    ['20', true],
    ['21', false],
    ['23.1', false],
    ['24', true],
    ['25.2', true],
    ['18', false]
  ])('%s against ^20.19.0 || ^22.13.0 || >=24 → %s', (version, expected) => {
    expect(satisfiesEngines(version, '^20.19.0 || ^22.13.0 || >=24')).toBe(expected)
  })
})
