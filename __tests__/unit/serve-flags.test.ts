import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readServeNodeFlags, serveNodeFlags, ServeScriptError } from '../../bench/service-start.js'

describe('the service benchmark starts node with the flags of the "serve" script', () => {
  it('reads the --flags between "exec node" and the entry point, in order', () => {
    expect(
      serveNodeFlags(
        'tsc -p tsconfig.service.json && exec node --max-semi-space-size=2 --no-opt build/service/index.js'
      )
    ).toEqual(['--max-semi-space-size=2', '--no-opt'])
  })

  it('reads no flags when there are none', () => {
    expect(
      serveNodeFlags('tsc -p tsconfig.service.json && exec node build/service/index.js')
    ).toEqual([])
  })

  it('refuses a script it could read differently from the shell, naming the shape it needs', () => {
    for (const script of [
      'node build/service/index.js',
      'exec node "--max-semi-space-size=2" build/service/index.js',
      'exec node $NODE_FLAGS build/service/index.js',
      'exec node --max-semi-space-size=2 build/service/other.js',
      'exec node build/service/index.js --flag'
    ]) {
      expect(() => serveNodeFlags(script)).toThrow(ServeScriptError)
    }
    expect(() => serveNodeFlags('node x.js')).toThrow(
      /exec node \[--flag…\] build\/service\/index\.js/
    )
  })

  it("reads the project's own serve script, which keeps the service's young generation small", () => {
    const flags = readServeNodeFlags('package.json')
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(manifest.scripts['serve']).toContain(
      ['exec node', ...flags, 'build/service/index.js'].join(' ')
    )
    expect(flags.some((flag) => flag.startsWith('--max-semi-space-size='))).toBe(true)
  })
})
