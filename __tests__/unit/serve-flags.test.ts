import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readStartNodeFlags, startNodeFlags, StartScriptError } from '../../bench/service-start.js'

type Scripts = Record<string, string>
const scriptsOf = (file: string): Scripts =>
  (JSON.parse(readFileSync(file, 'utf8')) as { scripts: Scripts }).scripts

describe('the service benchmark starts node with the flags of the service\'s "start" script', () => {
  it('reads the --flags between "exec node" and the entry point, in order', () => {
    expect(startNodeFlags('exec node --max-semi-space-size=2 --no-opt dist/index.js')).toEqual([
      '--max-semi-space-size=2',
      '--no-opt'
    ])
  })

  it('reads no flags when there are none', () => {
    expect(startNodeFlags('tsc -p tsconfig.json && exec node dist/index.js')).toEqual([])
  })

  it('refuses a script it could read differently from the shell, naming the shape it needs', () => {
    for (const script of [
      'node dist/index.js',
      'exec node "--max-semi-space-size=2" dist/index.js',
      'exec node $NODE_FLAGS dist/index.js',
      'exec node --max-semi-space-size=2 dist/other.js',
      'exec node dist/index.js --flag'
    ]) {
      expect(() => startNodeFlags(script)).toThrow(StartScriptError)
    }
    expect(() => startNodeFlags('node x.js')).toThrow(/exec node \[--flag…\] dist\/index\.js/)
  })

  it("reads the service's own start script, which keeps the young generation small", () => {
    const flags = readStartNodeFlags('service/package.json')
    expect(scriptsOf('service/package.json')['start']).toBe(
      ['exec node', ...flags, 'dist/index.js'].join(' ')
    )
    expect(flags.some((flag) => flag.startsWith('--max-semi-space-size='))).toBe(true)
  })
})

describe('npm run serve, from the root or the service, starts node as npm start does', () => {
  it("the service's serve compiles, then execs the start command itself", () => {
    const scripts = scriptsOf('service/package.json')
    expect(scripts['serve']).toBe(`tsc -p tsconfig.json && ${scripts['start']}`)
  })

  it("the root's serve, serve:dev and service:build delegate to the service's package", () => {
    const root = scriptsOf('package.json')
    expect(root['serve']).toBe('exec npm --prefix service run serve')
    expect(root['serve:dev']).toBe('exec npm --prefix service run dev')
    expect(root['service:build']).toBe('npm --prefix service run build')
  })

  it('the container runs the same command as npm start, as PID 1 (exec form)', () => {
    const flags = readStartNodeFlags('service/package.json')
    const command = JSON.stringify(['node', ...flags, 'dist/index.js']).replaceAll(',', ', ')
    expect(readFileSync('service/Containerfile', 'utf8')).toMatch(
      new RegExp(`^CMD ${command.replace(/[[\]]/g, '\\$&')}$`, 'm')
    )
  })
})
