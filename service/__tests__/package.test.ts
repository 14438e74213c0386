/**
 * The service is a package of its own (service/package.json, its own lock file): what it needs
 * at run time is under `dependencies`, and the repository's tests, which run from the root,
 * use the very versions the service's lock file installs in production.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

interface Manifest {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}
interface Lock {
  packages: Record<string, { version?: string; dev?: boolean }>
}
const read = <T>(file: string): T => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T
const service = read<Manifest>('service/package.json')
const serviceLock = read<Lock>('service/package-lock.json')
const rootLock = read<Lock>('package-lock.json')

/** Every module the compiled service imports by a bare name, node: built-ins left out. */
function importedPackages(): Set<string> {
  const names = new Set<string>()
  const visit = (file: string): void => {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
      if (specifier!.startsWith('.')) visit(path.resolve(path.dirname(file), specifier!))
      else if (!specifier!.startsWith('node:')) names.add(specifier!)
    }
  }
  visit(path.join(ROOT, 'service/dist/index.js'))
  return names
}

describe("the service's package", () => {
  it('lists what the compiled service imports under dependencies, and nothing else', () => {
    expect(Object.keys(service.dependencies ?? {}).sort()).toEqual([...importedPackages()].sort())
    expect(Object.keys(service.dependencies ?? {})).toEqual(['jose'])
  })

  it('installs for production nothing but its dependencies (the lock file says so)', () => {
    const production = Object.entries(serviceLock.packages)
      .filter(([name, entry]) => name !== '' && entry.dev !== true)
      .map(([name]) => name)
    expect(production).toEqual(['node_modules/jose'])
  })

  it('pins the versions the root installs for the tests and the build', () => {
    for (const name of ['jose', 'typescript', '@types/node', 'tsx']) {
      const pinned = serviceLock.packages[`node_modules/${name}`]?.version
      expect(pinned, name).toBeDefined()
      expect(rootLock.packages[`node_modules/${name}`]?.version, name).toBe(pinned)
    }
  })
})
