import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The layers of src/, lowest first. A module may import from its own folder or from a lower
 * layer, never from a higher one, and never from a peer folder of its own layer: the edges
 * (the action, the command, the service) know nothing of each other. `.` is the foundation, the
 * files directly in src/ (untrusted text, errors, the log, settings, the report file...).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['.'],
  ['http'],
  ['sonar'],
  ['findings'],
  ['gate'],
  ['report'],
  ['ci'],
  ['platforms'],
  ['action', 'cli']
]

/**
 * Inside src/platforms/, each platform's folder imports only its own folder, the interface's
 * module (review-platform.ts) and the HTTP layer: never another platform, nor the driver. The
 * driver's modules (the files directly in src/platforms/) import no platform: the edges open one.
 */
function platformViolations(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = []
  for (const [file, text] of files) {
    const parts = file.split('/')
    if (parts[0] !== 'platforms') continue
    const own = parts.length === 3 ? `platforms/${parts[1]}/` : undefined
    for (const specifier of importsOf(text)) {
      if (!specifier.startsWith('.')) continue
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      const allowed = own
        ? to.startsWith(own) ||
          to === 'platforms/review-platform.js' ||
          to.startsWith('http/') ||
          to.startsWith('../')
        : to.split('/').length !== 3 || !to.startsWith('platforms/')
      if (!allowed) violations.push({ from: file, to })
    }
  }
  return violations
}

const SRC = path.resolve(import.meta.dirname, '../../src')

/** The folder of src/ a file belongs to: its first path segment, or `.` for src/ itself. */
function folderOf(file: string): string {
  const parts = file.split('/')
  return parts.length === 1 ? '.' : (parts[0] ?? '.')
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((folders) => folders.includes(folder))
}

/** Every module a file names: static imports, `export … from`, `import type` and `import()`. */
function importsOf(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true)
  return importedFiles.map(({ fileName }) => fileName)
}

interface Violation {
  from: string
  to: string
}

/**
 * The imports that break the layers, for files given by their path inside src/. Imports of
 * packages and of files outside src/ (package.json) are not layered.
 */
function layerViolations(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = []
  for (const [file, text] of files) {
    const from = folderOf(file)
    for (const specifier of importsOf(text)) {
      if (!specifier.startsWith('.')) continue
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      if (to.startsWith('..')) continue
      const target = folderOf(to)
      if (target === from) continue
      if (layerOf(target) >= layerOf(from)) violations.push({ from: file, to })
    }
  }
  return violations
}

function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>()
  const entries = readdirSync(SRC, { recursive: true, withFileTypes: true })
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    const absolute = path.join(entry.parentPath, entry.name)
    const relative = path.relative(SRC, absolute).split(path.sep).join('/')
    files.set(relative, readFileSync(absolute, 'utf8'))
  }
  return files
}

describe('layers point down: no module of src/ imports from a higher layer or a peer edge', () => {
  const files = sourceFiles()

  it('every folder of src/ has a declared layer', () => {
    const folders = new Set([...files.keys()].map(folderOf))
    expect([...folders].filter((folder) => layerOf(folder) === -1)).toEqual([])
    expect(files.size).toBeGreaterThan(50)
  })

  it('no import in src/ runs upward or sideways between edges', () => {
    expect(layerViolations(files)).toEqual([])
  })

  it('a platform imports only its own folder, the interface and the HTTP layer; the driver no platform', () => {
    expect(platformViolations(files)).toEqual([])
    expect([...files.keys()].filter((file) => file.startsWith('platforms/gitlab/'))).not.toEqual([])
    const planted = new Map<string, string>()
      .set('platforms/gitea/planted.ts', "import { x } from '../github/github.js'\n")
      .set('platforms/gitea/report.ts', "import { y } from '../../report/markup.js'\n")
      .set('platforms/gitea/driver.ts', "import { z } from '../decorate.js'\n")
      .set('platforms/planted.ts', "import { w } from './gitlab/gitlab.js'\n")
      .set(
        'platforms/gitea/fine.ts',
        "import { v } from '../review-platform.js'\nimport './api.js'\nimport { u } from '../../http/rest-api.js'\n"
      )
    expect(platformViolations(planted).map(({ from }) => from)).toEqual([
      'platforms/gitea/planted.ts',
      'platforms/gitea/report.ts',
      'platforms/gitea/driver.ts',
      'platforms/planted.ts'
    ])
  })

  it('the check sees the imports src/ has: the core on the foundation, the edges on the core', () => {
    const imported = [...files].flatMap(([file, text]) =>
      importsOf(text).map((specifier) => `${folderOf(file)} → ${specifier}`)
    )
    expect(imported).toContain('gate → ../sonar/client.js')
    expect(imported).toContain('action → ../gate/check-analyses.js')
  })

  describe('a planted import that breaks the layers is caught', () => {
    it.each([
      [
        'the core importing the presentation',
        'gate/planted.ts',
        "import { x } from '../report/summary.js'"
      ],
      [
        'a type-only upward import',
        'sonar/planted.ts',
        "import type { X } from '../gate/check.js'"
      ],
      ['an upward re-export', 'planted.ts', "export { x } from './sonar/client.js'"],
      ['an upward dynamic import', 'report/planted.ts', "const m = await import('../cli/main.js')"],
      ['one edge importing another', 'cli/planted.ts', "import { run } from '../action/main.js'"]
    ])('%s', (_, file, line) => {
      const violations = layerViolations(new Map([[file, `${line}\n`]]))
      expect(violations).toHaveLength(1)
      expect(violations[0]?.from).toBe(file)
    })

    it('while an import down the layers or inside a folder passes', () => {
      const planted = new Map<string, string>()
        .set('report/planted.ts', "import { x } from '../gate/check.js'\nimport './summary.js'\n")
        .set('cli/planted.ts', "import { y } from '../../package.json' with { type: 'json' }\n")
      expect(layerViolations(planted)).toEqual([])
    })
  })
})
