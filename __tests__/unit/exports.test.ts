import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Nothing dead in src/: every export is imported by another file, and one that only tests,
 * fixtures, benches or scripts import is listed below with why it is exported. Imports are read
 * with TypeScript's parser (`import { a } from './x.js'`, `import * as x`, `export { a } from`,
 * `import('./x.js')`), never by searching for the name, so a comment that names an export does
 * not keep it alive.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const READERS = ['src', '__tests__', '__fixtures__', 'bench', 'scripts']

const LIMIT = 'a bound the tests reach exactly, without writing its number again'
const STEP = "one step of the module's work, which the tests drive on its own"
const SHAPE = "the type a test's fake or stub is written to"
const REFUSAL = 'the error class a test tells a refusal by'
const VALUE = 'a value the tests compare what is written with'

/** `file name` of each export only outside src/ imports, and why it is exported. */
const FOR_TESTS: Readonly<Record<string, string>> = {
  'src/cli/exit-codes.ts EXIT_CODE_OF': VALUE,
  'src/cli/junit.ts escapeXml': STEP,
  'src/cli/options.ts UsageError': REFUSAL,
  'src/cli/result-files.ts ResultFileError': REFUSAL,
  'src/cli/terminal-log.ts forTheTerminal': STEP,
  'src/clock.ts MAX_TIMER_MS': LIMIT,
  'src/findings/code-quality.ts CodeQualityIssue': SHAPE,
  'src/findings/sarif.ts SARIF_SCHEMA': VALUE,
  'src/fit.ts cutToBytes': STEP,
  'src/gate/check-analyses.ts AnalysesDependencies': SHAPE,
  'src/gate/evaluate.ts isConditionBreached': STEP,
  'src/gate/new-issues.ts NEW_ISSUE_LIMITS': LIMIT,
  'src/gate/targets.ts MAX_ANALYSES': LIMIT,
  'src/gate/what-changed.ts NEW_CODE_MEASURES': VALUE,
  'src/gate/what-changed.ts OVERALL_MEASURES': VALUE,
  'src/gate/what-changed.ts ISSUE_COUNT_MEASURES': VALUE,
  'src/gate/what-changed.ts WhatChangedSource': SHAPE,
  'src/github-event.ts EVENT_FILE_BYTES': LIMIT,
  'src/http/rest-api.ts REST_LIMITS': LIMIT,
  'src/http/retry-policy.ts backoffMs': STEP,
  'src/http/retry-policy.ts parseRetryAfter': STEP,
  'src/http/transport.ts MAX_BODY_BYTES': LIMIT,
  'src/log.ts RunnerCommands': SHAPE,
  'src/log.ts ANNOTATION_LIMITS': LIMIT,
  'src/log.ts logLine': STEP,
  'src/log.ts forTheLog': STEP,
  'src/platforms/bitbucket-cloud/bitbucket-cloud.ts BITBUCKET_LIMITS': LIMIT,
  'src/platforms/decorate.ts verdictOf': STEP,
  'src/platforms/decorate.ts statusWords': STEP,
  'src/platforms/decorate.ts decorationStep': STEP,
  'src/platforms/decorate.ts decorating': STEP,
  'src/platforms/gitea/gitea.ts GiteaTarget': SHAPE,
  'src/platforms/github/github-api.ts isRefusal': STEP,
  'src/platforms/github/github.ts GITHUB_LIMITS': LIMIT,
  'src/platforms/github/github.ts GitHubTarget': SHAPE,
  'src/platforms/gitlab/gitlab.ts GitLabTarget': SHAPE,
  'src/platforms/gitlab/gitlab.ts GITLAB_LIMITS': LIMIT,
  'src/report/markup.ts markdownText': STEP,
  'src/report/outputs.ts resultsOutput': STEP,
  'src/report/outputs.ts gateOutputs': STEP,
  'src/report/outputs.ts conditionsOutput': STEP,
  'src/report/pull-request-comment-body.ts commentMarker': VALUE,
  'src/report/pull-request-comment-body.ts outcomeMarker': VALUE,
  'src/report/pull-request-comment-body.ts carriesMarker': STEP,
  'src/report/wording.ts comparatorWords': STEP,
  'src/report-file.ts MAX_REPORT_BYTES': LIMIT,
  'src/report-file.ts parseReportFile': STEP,
  'src/secrets.ts REDACTED': VALUE,
  'src/settings.ts LIMITS': LIMIT,
  'src/sonar/client.ts SonarClientOptions': SHAPE,
  'src/sonar/client.ts ANALYSES_PAGE_SIZE': LIMIT,
  'src/sonar/types.ts ProjectAnalysis': SHAPE,
  'src/words.ts PLACE_KEYS': VALUE,
  'src/words.ts FORMS': VALUE,
  'src/words.ts reference': STEP
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(file)
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : []
  })
}

/** Files by their path from the repository's root, and their text. */
type Files = ReadonlyMap<string, string>

interface ExportUse {
  /** `file name`, as FOR_TESTS keys it. */
  key: string
  /** Whether a file of src/ other than its own imports it. */
  fromSrc: boolean
  /** Whether any other file imports it. */
  fromAny: boolean
}

/** What `from` (a relative specifier in `file`) names: `./x.js` is `x.ts`. */
function target(file: string, from: string): string | undefined {
  if (!from.startsWith('.')) return undefined
  return path.posix.join(path.posix.dirname(file), from).replace(/\.js$/, '.ts')
}

/** Each file's imports: the names it takes from each file, `*` for all of them. */
function importsOf(files: Files): Map<string, Map<string, Set<string>>> {
  const imports = new Map<string, Map<string, Set<string>>>()
  for (const [file, text] of files) {
    const taken = new Map<string, Set<string>>()
    const take = (from: string, names: string[]): void => {
      const into = target(file, from)
      if (into === undefined) return
      const set = taken.get(into) ?? new Set()
      names.forEach((name) => set.add(name))
      taken.set(into, set)
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        take(node.moduleSpecifier.text, importedNames(node))
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        take(node.arguments[0].text, ['*'])
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    imports.set(file, taken)
  }
  return imports
}

function importedNames(node: ts.ImportDeclaration | ts.ExportDeclaration): string[] {
  if (ts.isExportDeclaration(node)) {
    const clause = node.exportClause
    if (!clause || !ts.isNamedExports(clause)) return ['*']
    return clause.elements.map((element) => (element.propertyName ?? element.name).text)
  }
  const bindings = node.importClause?.namedBindings
  if (!bindings) return node.importClause?.name ? ['default'] : []
  if (ts.isNamespaceImport(bindings)) return ['*']
  return bindings.elements.map((element) => (element.propertyName ?? element.name).text)
}

/** The names a file declares with `export`. */
function exportsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  return source.statements.flatMap((statement) => {
    const exported = ts
      .getModifiers(statement as ts.HasModifiers)
      ?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    if (!exported) return []
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((declaration) =>
        ts.isIdentifier(declaration.name) ? [declaration.name.text] : []
      )
    }
    const name = (statement as { name?: ts.Node }).name
    return name && ts.isIdentifier(name) ? [name.text] : []
  })
}

/** Every export of src/ and who imports it. */
function exportUses(files: Files): ExportUse[] {
  const imports = importsOf(files)
  const uses: ExportUse[] = []
  for (const [file, text] of files) {
    if (!file.startsWith('src/')) continue
    for (const name of exportsOf(file, text)) {
      const importers = [...imports].filter(
        ([by, taken]) =>
          by !== file && (taken.get(file)?.has(name) || taken.get(file)?.has('*')) === true
      )
      uses.push({
        key: `${file} ${name}`,
        fromSrc: importers.some(([by]) => by.startsWith('src/')),
        fromAny: importers.length > 0
      })
    }
  }
  return uses
}

function repositoryFiles(): Files {
  return new Map(
    READERS.flatMap((folder) => typeScriptFiles(path.join(ROOT, folder))).map((file) => [
      path.relative(ROOT, file).split(path.sep).join('/'),
      readFileSync(file, 'utf8')
    ])
  )
}

describe('the exports of src/', () => {
  const uses = exportUses(repositoryFiles())

  it('each is imported by another file', () => {
    expect(uses.length).toBeGreaterThan(400)
    expect(uses.filter((use) => !use.fromAny).map((use) => use.key)).toEqual([])
  })

  it('each that only tests, fixtures, benches or scripts import is listed, with why', () => {
    const outsideOnly = uses.filter((use) => use.fromAny && !use.fromSrc).map((use) => use.key)
    expect(outsideOnly.sort()).toEqual(Object.keys(FOR_TESTS).sort())
  })

  it('an export nobody imports, and one only a test imports, are found', () => {
    const planted = exportUses(
      new Map([
        ['src/a.ts', 'export const used = 1\nexport const dead = 2\nexport function forTests() {}'],
        ['src/b.ts', "import { used } from './a.js'\n// dead is named here, not imported\n"],
        ['__tests__/a.test.ts', "import { forTests } from '../src/a.js'\n"]
      ])
    )
    expect(planted).toEqual([
      { key: 'src/a.ts used', fromSrc: true, fromAny: true },
      { key: 'src/a.ts dead', fromSrc: false, fromAny: false },
      { key: 'src/a.ts forTests', fromSrc: false, fromAny: true }
    ])
  })
})
