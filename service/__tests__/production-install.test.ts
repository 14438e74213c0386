/**
 * From a fresh clone, one command installs the service for production with only its runtime
 * dependencies and starts it, as the README says: `npm ci --omit=dev && npm start`, in a clean
 * copy of service/, with the machine's node and npm and nothing of the repository's root.
 */
import { execFile, spawn } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanCopyOfService, freshShellEnv } from './support/clean-copy.js'

let copy: string

beforeAll(async () => {
  copy = cleanCopyOfService()
  // --prefer-offline: the root's `npm ci` has put the same jose (same lock version, see
  // package.test.ts) in npm's cache, so no registry is needed when it is there.
  await promisify(execFile)(
    'npm',
    ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: copy, env: freshShellEnv(), timeout: 120_000 }
  )
}, 150_000)

afterAll(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true })
})

describe('npm ci --omit=dev && npm start, in a clean copy of service/', () => {
  it('installs jose and nothing else', () => {
    expect(readdirSync(path.join(copy, 'node_modules')).sort()).toEqual([
      '.package-lock.json',
      'jose'
    ])
  })

  it('starts: the listening line, 200 on the root, 401 without a token, 0 on SIGTERM', async () => {
    const child = spawn('npm', ['start'], {
      cwd: copy,
      env: freshShellEnv({
        CLIENT_ID: 'production-install-test.apps.googleusercontent.com',
        ALLOWED_ORIGIN: 'https://app.example.com',
        HOST: '127.0.0.1',
        PORT: '0'
      }),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 20_000)
        child.stdout.on('data', () => {
          const found = /^genre service listening on (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(output)
          if (found) {
            clearTimeout(timer)
            resolve(found[1]!)
          }
        })
        void exited.then((code) => reject(new Error(`exited ${code}:\n${output}`)))
      })
      const root = await fetch(url)
      expect([root.status, await root.json()]).toEqual([200, { status: 'ok' }])
      const genre = await fetch(`${url}genre`)
      expect([genre.status, await genre.json()]).toEqual([
        401,
        { httpStatusCode: 401, error: 'Not authorised: could not authenticate user' }
      ])
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(output).toMatch(/"msg":"stopped","outcome":"drained"/)
  }, 30_000)
})
