// How the service benchmark starts the service: with the node flags of the production start
// command, package.json's `serve` script, read from there so that the two cannot drift apart.
import { readFileSync } from 'node:fs'

/** The entry point the `serve` script runs after compiling `src/service`. */
export const SERVICE_ENTRY = 'build/service/index.js'

/** The `serve` script does not run `exec node [--flags] build/service/index.js`. */
export class ServeScriptError extends Error {
  constructor(script: string) {
    super(
      `package.json's "serve" script must end in "exec node [--flag…] ${SERVICE_ENTRY}" ` +
        `for the service benchmark to start the service the same way; it is: ${script}`
    )
    this.name = 'ServeScriptError'
  }
}

/**
 * The node flags of a `serve` script, in order, e.g.
 * `serveNodeFlags('tsc -p x.json && exec node --max-semi-space-size=2 build/service/index.js')`
 * is `['--max-semi-space-size=2']`. Only `--flag` and `--flag=value` words are accepted (no
 * quoting, no environment), so the script and the benchmark cannot read them differently.
 */
export function serveNodeFlags(script: string): string[] {
  const match = /(?:^|&&|;)\s*exec node((?:\s+--[\w-]+(?:=[\w.,/-]+)?)*)\s+(\S+)\s*$/.exec(script)
  if (match === null || match[2] !== SERVICE_ENTRY) throw new ServeScriptError(script)
  return (match[1] ?? '').split(/\s+/).filter((word) => word !== '')
}

/** The node flags of the `serve` script in the package.json at `path`. */
export function readServeNodeFlags(path: string): string[] {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { scripts?: Record<string, string> }
  return serveNodeFlags(manifest.scripts?.serve ?? '')
}
