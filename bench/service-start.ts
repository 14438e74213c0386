// How the service benchmark starts the service: with the node flags of the production start
// command, the `start` script of service/package.json, read from there so that the two cannot
// drift apart.
import { readFileSync } from 'node:fs'

/** The entry point the `start` script runs, relative to the service's package. */
export const START_ENTRY = 'dist/index.js'

/** The same entry point from the repository's root, where the benchmark runs. */
export const SERVICE_ENTRY = `service/${START_ENTRY}`

/** The `start` script does not run `exec node [--flags] dist/index.js`. */
export class StartScriptError extends Error {
  constructor(script: string) {
    super(
      `service/package.json's "start" script must be "exec node [--flag…] ${START_ENTRY}" ` +
        `for the service benchmark to start the service the same way; it is: ${script}`
    )
    this.name = 'StartScriptError'
  }
}

/**
 * The node flags of a `start` script, in order, e.g.
 * `startNodeFlags('exec node --max-semi-space-size=2 dist/index.js')` is
 * `['--max-semi-space-size=2']`. Only `--flag` and `--flag=value` words are accepted (no
 * quoting, no environment), so the script and the benchmark cannot read them differently.
 */
export function startNodeFlags(script: string): string[] {
  const match = /(?:^|&&|;)\s*exec node((?:\s+--[\w-]+(?:=[\w.,/-]+)?)*)\s+(\S+)\s*$/.exec(script)
  if (match === null || match[2] !== START_ENTRY) throw new StartScriptError(script)
  return (match[1] ?? '').split(/\s+/).filter((word) => word !== '')
}

/** The node flags of the `start` script in the package.json at `path`. */
export function readStartNodeFlags(path: string): string[] {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { scripts?: Record<string, string> }
  return startNodeFlags(manifest.scripts?.start ?? '')
}
