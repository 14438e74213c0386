/**
 * The simulator as a program (`npm run simulator -- …`) and its background starter
 * (__fixtures__/simulator/start-simulator.ts), run as child processes the way a person or the CI job runs them.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { SCENARIOS } from '../../__fixtures__/simulator/sonar-simulator.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SIMULATOR = path.join(ROOT, '__fixtures__/simulator/sonar-simulator.ts')
const STARTER = path.join(ROOT, '__fixtures__/simulator/start-simulator.ts')

interface Exit {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a script with node and tsx until it exits, or until `until` sees what it waits for. */
function run(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; until?: RegExp } = {}
): Promise<Exit & { stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, SIMULATOR_TOKEN: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  const stop = (): Promise<number | null> => {
    child.kill('SIGTERM')
    return exited
  }
  return new Promise((resolve) => {
    const seen = (): void => {
      if (options.until?.test(stdout)) resolve({ code: null, stdout, stderr, stop })
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), seen()))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    void exited.then((code) => resolve({ code, stdout, stderr, stop }))
  })
}

/** A loopback port something already listens on. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return { port: address.port, server }
}

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
})

describe('--help documents every option', () => {
  it('lists each option and each scenario, and exits 0', async () => {
    const { code, stdout, stderr } = await run(SIMULATOR, ['--help'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    for (const option of ['--port', '--scenario', '--report', '--token', '--help', '-h']) {
      expect(stdout).toContain(option)
    }
    expect(stdout).toContain('SIMULATOR_TOKEN')
    for (const name of SCENARIOS) expect(stdout).toContain(name)
  })

  it('gives commands that work as written: every one after --token passes the token', async () => {
    const { stdout } = await run(SIMULATOR, ['--help'])
    const runs = stdout.split('\n').filter((line) => /action:local|dist\/cli\.js/.test(line))
    expect(runs.length).toBeGreaterThanOrEqual(2)
    for (const line of runs) expect(line).toMatch(/^\s*SONAR_TOKEN=local-token /)
  })
})

describe('docs/development.md lists the same scenarios as the simulator', () => {
  it('each scenario, in a row of its table', async () => {
    const page = await readFile(path.join(ROOT, 'docs/development.md'), 'utf8')
    const table = page.slice(page.indexOf('The scenarios:'))
    const rows = table
      .split('\n\n')[1]!
      .split('\n')
      .filter((line) => line.startsWith('| `'))
    const named = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map(([, name]) => name)
    )
    expect([...named].sort()).toEqual([...SCENARIOS].sort())
  })
})

describe('a mistake on the command line is one line and exit code 2', () => {
  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--scenario', 'nope'], /Unknown scenario "nope"/],
    [['--port', 'ninety'], /--port is "ninety": it must be a whole number from 0 to 65535/]
  ])('%j', async (args, message) => {
    const { code, stdout, stderr } = await run(SIMULATOR, args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(message)
    expect(stderr).toContain('--help')
  })
})

describe('a port in use is a one-line error that says what to do', () => {
  it('exits 1 with the port and the way out, and no stack', async () => {
    const { port, server } = await occupiedPort()
    cleanups.push(() => new Promise((resolve) => server.close(resolve)))
    const { code, stderr } = await run(SIMULATOR, ['--port', String(port)])
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toEqual([
      `sonar-simulator: port ${port} on 127.0.0.1 is in use (by another simulator?): stop what listens there, or choose another port with --port (0 picks a free one).`
    ])
  })
})

describe('started, it serves one analysis until stopped', () => {
  it('writes the report file, answers for its task, and stops on SIGTERM', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'simulator-command-'))
    cleanups.push(() => rm(folder, { recursive: true, force: true }))
    const report = path.join(folder, '.scannerwork/report-task.txt')
    const started = await run(
      SIMULATOR,
      ['--port', '0', '--scenario', 'done', '--report', report, '--token', 'cli-token'],
      { until: /Simulator listening on (\S+?);/ }
    )
    const url = /Simulator listening on (\S+?);/.exec(started.stdout)?.[1] ?? ''
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const text = await readFile(report, 'utf8')
    expect(text).toContain(`serverUrl=${url}\n`)
    const taskId = /^ceTaskId=(.+)$/m.exec(text)?.[1] ?? ''
    const reply = await fetch(`${url}/api/ce/task?id=${taskId}`, {
      headers: { authorization: 'Bearer cli-token' }
    })
    expect(reply.status).toBe(200)
    expect(((await reply.json()) as { task: { status: string } }).task.status).toBe('SUCCESS')
    expect(await started.stop()).toBe(0)
  })
})

/** Whether something accepts a connection on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

describe('npm run simulator ends with the npm process that runs it', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to npm alone: the port is free within 5 s, no child left serving it',
    async (signal) => {
      // Its own process group, so that what it leaves behind can be ended here whatever happens.
      const npm = spawn('npm', ['run', 'simulator', '--', '--port', '0', '--scenario', 'done'], {
        cwd: ROOT,
        env: { ...process.env, SIMULATOR_TOKEN: '' },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true
      })
      cleanups.push(async () => {
        try {
          process.kill(-npm.pid!, 'SIGKILL')
        } catch {
          // The group is gone: nothing was left.
        }
      })
      let stdout = ''
      const port = await new Promise<number>((resolve, reject) => {
        npm.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
          const found = /Simulator listening on http:\/\/127\.0\.0\.1:(\d+);/.exec(stdout)
          if (found) resolve(Number(found[1]))
        })
        npm.once('close', () =>
          reject(new Error(`npm ended before the simulator listened: ${stdout}`))
        )
      })
      expect(await listening(port)).toBe(true)
      npm.kill(signal)
      const deadline = Date.now() + 5_000
      while ((await listening(port)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(await listening(port)).toBe(false)
    }
  )
})

describe('the background starter', () => {
  it('returns once the simulator listens, writes its address as the step output url, and leaves it running', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'simulator-start-'))
    cleanups.push(() => rm(folder, { recursive: true, force: true }))
    const outputFile = path.join(folder, 'github_output')
    await writeFile(outputFile, '')
    const log = path.join(folder, 'simulator.log')
    const { code, stdout } = await run(
      STARTER,
      ['--log', log, '--port', '0', '--report', path.join(folder, 'report-task.txt')],
      { env: { GITHUB_OUTPUT: outputFile } }
    )
    expect(code).toBe(0)
    const url = /^url=(.+)$/m.exec(await readFile(outputFile, 'utf8'))?.[1] ?? ''
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const pid = Number(/\(process (\d+),/.exec(stdout)?.[1])
    cleanups.unshift(async () => process.kill(pid, 'SIGTERM'))
    const reply = await fetch(`${url}/api/ce/task?id=AYTask0001`)
    expect(reply.status).toBe(200)
  })

  it('fails with the simulator log when the simulator cannot start', async () => {
    const { port, server } = await occupiedPort()
    cleanups.push(() => new Promise((resolve) => server.close(resolve)))
    const folder = await mkdtemp(path.join(tmpdir(), 'simulator-start-'))
    cleanups.push(() => rm(folder, { recursive: true, force: true }))
    const { code, stderr } = await run(STARTER, [
      '--log',
      path.join(folder, 'simulator.log'),
      '--port',
      String(port)
    ])
    expect(code).toBe(1)
    expect(stderr).toContain('The simulator stopped with exit code 1')
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`)
  })
})
