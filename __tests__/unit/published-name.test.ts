/**
 * The command is published under a name we own: package.json's. Every line of the README and
 * docs/ that tells a user to fetch and run a package from the registry (npx, npm exec, npm
 * install) must name that package, or one of the few other packages vetted below: npm runs a
 * package's only bin whatever its name, so a recipe naming somebody else's package runs their
 * code with the user's SONAR_TOKEN in its environment.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMAND } from '../../src/cli/version.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string
  bin: Record<string, string>
}

/**
 * Packages of others that the recipes may run, each checked with `npm view <name>
 * repository.url` to be its owner's own: SonarSource's scanner for JavaScript projects.
 */
const VETTED: Readonly<Record<string, string>> = {
  '@sonar/scan': 'https://github.com/SonarSource/sonar-scanner-npm'
}

const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** A package a command line fetches from the registry, with where it was found. */
interface Fetched {
  page: string
  line: number
  text: string
  /** The package's name, without its version or tag. */
  name: string
}

/** `name@1`, `@scope/name@^1.2` → `name`, `@scope/name`. */
function packageName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0)
  return at === -1 ? spec : spec.slice(0, at)
}

/**
 * Every package that `npx`, `npm exec` or `npm install` (`i`, `add`) fetches in `text`: the first
 * argument that is not an option, or the value of `--package` / `-p`. Arguments end at a shell
 * separator, a closing back-quote or quote.
 */
export function fetchedPackages(text: string): string[] {
  const found: string[] = []
  const command = /\b(npx|npm\s+(?:exec|install|i|add))\b((?:\s+[^\s`'";|&)]+)*)/g
  for (const [, , rest = ''] of text.matchAll(command)) {
    const args = rest.trim().split(/\s+/).filter(Boolean)
    // With --package, the first other argument is the command to run, not a package.
    let packaged = false
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!
      const packageOption = /^(?:--package|-p)(?:=(.+))?$/.exec(arg)
      if (packageOption) {
        const value = packageOption[1] ?? args[++i]
        if (value) found.push(packageName(value))
        packaged = true
        continue
      }
      if (arg.startsWith('-')) continue
      // A path (a tarball `npm pack` wrote, a folder) is installed from the disk, not fetched.
      if (!packaged && !/^(?:\.{1,2}\/|\/)/.test(arg)) found.push(packageName(arg))
      break
    }
  }
  return found
}

function fetchedInDocs(): Fetched[] {
  return PAGES.flatMap((page) =>
    readFileSync(path.join(ROOT, page), 'utf8')
      .split('\n')
      .flatMap((text, index) =>
        fetchedPackages(text).map((name) => ({ page, line: index + 1, text: text.trim(), name }))
      )
  )
}

describe('the package name we publish under', () => {
  it("is package.json's name, its one bin, and the name the command calls itself", () => {
    expect(Object.keys(manifest.bin)).toEqual([manifest.name])
    expect(COMMAND).toBe(manifest.name)
  })

  it('is not the name another project held when it was chosen', () => {
    // `npm view sonar-quality-gate` names an unrelated package (bin quality-gate): the reason
    // this project is published under another name.
    expect(manifest.name).not.toBe('sonar-quality-gate')
  })
})

describe('every npx, npm exec and npm install line of the README and docs/', () => {
  const fetched = fetchedInDocs()

  it("names package.json's name, or a vetted package of another project", () => {
    const strangers = fetched
      .filter(({ name }) => name !== manifest.name && !(name in VETTED))
      .map(({ page, line, text }) => `${page}:${line}: ${text}`)
    expect(strangers).toEqual([])
  })

  it('include the recipes that run the command (so the check above has lines to read)', () => {
    const ours = fetched.filter(({ name }) => name === manifest.name)
    expect(ours.map(({ page }) => page)).toContain('README.md')
    expect(ours.map(({ page }) => page)).toContain('docs/command.md')
    expect(ours.length).toBeGreaterThanOrEqual(6)
  })
})

describe('reading a command line for the package it fetches', () => {
  it.each([
    ['npx --yes sonar-quality-gate@1 --junit x.xml', ['sonar-quality-gate']],
    ['npm install --global sonar-quality-gate', ['sonar-quality-gate']],
    ['npm i -g some-thing@^2', ['some-thing']],
    ['npm exec --package=@scope/tool@1 -- tool', ['@scope/tool']],
    ['npx -p other tool', ['other']],
    ['npx -p one -p two tool', ['one', 'two']],
    ["sh 'npx --yes @sonar/scan'", ['@sonar/scan']],
    ['- run: npx sonar-scanner', ['sonar-scanner']],
    ['Run it with `npx --yes name@1`, install it', ['name']],
    ['npm install --global ./sonar-quality-gate-check-1.0.0.tgz', []],
    ['npx --yes ../tool.tgz', []],
    ['no command here', []]
  ])('%s → %j', (line, names) => {
    expect(fetchedPackages(line)).toEqual(names)
  })
})
