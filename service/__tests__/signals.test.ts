/**
 * The documented start command stops the service gracefully on SIGTERM sent to the process it
 * creates, as `docker stop` or a supervisor sends it: `npm run serve` execs node, so npm forwards
 * the signal to the service itself instead of to a shell that would leave node serving.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Starts `npm run serve` on a free port; resolves with the process and the address it prints. */
function serve(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('npm', ['run', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      CLIENT_ID: 'signals-test.apps.googleusercontent.com',
      ALLOWED_ORIGIN: 'https://app.example.com',
      HOST: '127.0.0.1',
      PORT: '0'
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 45_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        resolve({ child, url, output: () => output })
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output}`)))
  })
}

function get(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    req.end()
  })
}

describe('SIGTERM to the process the start command creates stops the service gracefully', () => {
  it(
    'npm run serve: the service logs its shutdown, exits, and stops answering',
    { timeout: 90_000 },
    async () => {
      const { child, url, output } = await serve()
      expect(await get(url)).toBe(200)

      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code))
      )
      child.kill('SIGTERM')
      const code = await exited

      expect(code).toBe(0)
      expect(output()).toMatch(/"msg":"shutting down","signal":"SIGTERM"/)
      expect(output()).toMatch(/"msg":"stopped","outcome":"drained"/)
      // Nothing is left serving, re-parented.
      expect(await get(url)).toBe('ECONNREFUSED')
    }
  )
})
