/**
 * The tree `npm ci` installs runs on every Node.js that package.json's `engines` promises: no
 * package of package-lock.json asks for a newer one (npm would warn `EBADENGINE` on Node 20, and
 * the promise in the README would not hold for those who develop on it).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T
}

const promised = readJson<{ engines: { node: string } }>('package.json').engines.node
const lock = readJson<{ packages: Record<string, { version?: string; engines?: unknown }> }>(
  'package-lock.json'
)

/** The packages installed by the lock (the root, "", left out) with the Node.js they ask for. */
function lockedEngines(): { name: string; version: string; node: string }[] {
  return Object.entries(lock.packages).flatMap(([location, entry]) => {
    const engines = entry.engines
    // An old manifest may give engines as an array; only the object form names Node.js.
    if (location === '' || typeof engines !== 'object' || engines === null) return []
    const node = (engines as Record<string, unknown>).node
    if (typeof node !== 'string') return []
    const name = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)
    return [{ name, version: entry.version ?? '?', node }]
  })
}

/** Whether every Node.js the promise accepts is one the package accepts. */
export function honours(promise: string, asked: string): boolean {
  return semver.subset(promise, asked, { includePrerelease: false })
}

describe("every package of package-lock.json runs on the Node.js package.json's engines promise", () => {
  const packages = lockedEngines()

  it(`asks for no Node.js outside ${promised}`, () => {
    const refusing = packages
      .filter(({ node }) => !honours(promised, node))
      .map(({ name, version, node }) => `${name}@${version} wants node ${node}`)
    expect(refusing).toEqual([])
  })

  it('is read from the lock file (so the check above has packages to read)', () => {
    expect(packages.length).toBeGreaterThan(100)
    expect(packages.map(({ name }) => name)).toContain('vitest')
  })
})

describe('a package honours the promise when each Node.js it accepts is one the package takes', () => {
  it.each([
    ['>= 20', true],
    ['>=18', true],
    ['^20.19.0 || ^22.13.0 || >=24', true],
    ['^20.0.0 || ^22.0.0 || >=24.0.0', true],
    ['>=22', false],
    ['^20.19.0 || >=22.14.0', false],
    ['>=20.20.0', false]
  ])('%s → %s', (asked, expected) => {
    expect(honours('^20.19.0 || ^22.13.0 || >=24', asked)).toBe(expected)
  })
})
