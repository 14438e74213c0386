/**
 * `npm run serve:dev`, run as a user runs it: the printed curl line answers 200 with the
 * genres, the printed browser address lists them in a real browser with no Google involved,
 * and SIGTERM stops all three servers. Under NODE_ENV=production, or on a port in use, it
 * refuses to start with one line.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, noBrowser } from './support/chromium.js'
import { occupiedPort, runEntry, type EntryRun } from './support/entry.js'
import { headerOf, rawRequest } from './support/raw-http.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const ENTRY = path.join(ROOT, 'service/src/dev/index.ts')
const GENRES = JSON.parse(
  readFileSync(path.join(ROOT, 'service/data/genres.json'), 'utf8')
) as unknown
const PAGE_FILE = readFileSync(path.join(ROOT, 'examples/browser-client/index.html'), 'utf8')

/** Only what a shell gives; HOST is set to show that dev mode ignores it. */
const BASE_ENV = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  HOST: '0.0.0.0',
  PORT: '0',
  DEV_PAGE_PORT: '0'
}

interface Printed {
  serviceUrl: string
  issuer: string
  minutes: number
  curlLine: string
  token: string
  browserUrl: string
}

/** Reads the lines dev mode prints once everything listens. */
function readReady(output: string): Printed | undefined {
  if (!output.includes('Ctrl+C stops everything.')) return undefined
  const find = (pattern: RegExp): string => {
    const match = pattern.exec(output)?.[1]
    if (match === undefined) throw new Error(`${pattern} not in the output:\n${output}`)
    return match
  }
  return {
    serviceUrl: find(/^genre service \(dev mode\) listening on (\S+)$/m),
    issuer: find(/^local identity provider \(no Google\): (\S+)$/m),
    minutes: Number(find(/this token is valid for (\d+) minutes/)),
    curlLine: find(/^ {2}(curl .*)$/m),
    token: find(/^ {2}curl -H 'Authorization: ([^']+)'/m),
    browserUrl: find(/^browser example: (\S+)$/m)
  }
}

interface Started {
  child: ChildProcess
  printed: Printed
  output: () => string
}

/** As the user runs it, or (`entry`) the command the script execs, without npm in between. */
function startDevMode(how: 'npm' | 'entry' = 'npm'): Promise<Started> {
  const [command, args] =
    how === 'npm' ? ['npm', ['run', 'serve:dev']] : [process.execPath, ['--import', 'tsx', ENTRY]]
  const child = spawn(command, args, {
    cwd: ROOT,
    env: BASE_ENV,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString()
      const printed = readReady(output)
      if (printed !== undefined) resolve({ child, printed, output: () => output })
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`exited ${code} before it was ready:\n${output}`)))
  })
}

/** Runs the entry (what the script execs) to its end. */
/** The entry run with `env` over the file's base environment, until it exits. */
const start = (env: Record<string, string>): Promise<EntryRun> =>
  runEntry(ENTRY, { ...BASE_ENV, ...env }, { cwd: ROOT })

function shell(line: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('sh', ['-c', line], { timeout: 10_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout)
    )
  )
}

/** The outcome of a request: its status, or the connection error's code. */
async function statusOf(url: string, init: RequestInit = {}): Promise<number | string> {
  try {
    const response = await fetch(url, init)
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    return cause?.code ?? 'error'
  }
}

describe('npm run serve:dev', () => {
  let started: Started
  let pageOrigin: string

  beforeAll(async () => {
    started = await startDevMode()
    pageOrigin = new URL(started.printed.browserUrl).origin
  }, 60_000)

  afterAll(() => {
    if (started?.child.exitCode === null) started.child.kill('SIGKILL')
  })

  describe('everything listens on loopback only, whatever HOST says', () => {
    it('the service, the identity provider and the page are all on 127.0.0.1', () => {
      const { serviceUrl, issuer, browserUrl } = started.printed
      for (const url of [serviceUrl, issuer, browserUrl]) {
        expect(new URL(url).hostname).toBe('127.0.0.1')
      }
    })
  })

  describe('the printed curl line', () => {
    it('answers 200 with the genres when pasted into a shell', async () => {
      const { curlLine, serviceUrl } = started.printed
      expect(curlLine).toBe(`curl -H 'Authorization: ${started.printed.token}' ${serviceUrl}genre`)
      expect(JSON.parse(await shell(`${curlLine} --silent --fail`))).toEqual(GENRES)
    })

    it('carries a token valid for an hour, issued by the local provider for the dev client', () => {
      const { token, issuer, minutes } = started.printed
      const payload = JSON.parse(
        Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()
      ) as Record<string, unknown>
      expect(minutes).toBe(60)
      expect(payload).toMatchObject({ iss: issuer, sub: 'dev-user' })
      expect(Number(payload.exp) - Number(payload.iat)).toBe(3600)
    })

    it('the token is the only token printed, and the log names the dev user', async () => {
      const { serviceUrl, token } = started.printed
      await statusOf(`${serviceUrl}genre`, { headers: { Authorization: token } })
      const tokens = started.output().match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g) ?? []
      expect(tokens).toEqual([token])
      expect(started.output()).toMatch(/"path":"\/genre","status":200,.*"sub":"dev-user"/)
    })

    it('the service still refuses a request without a token', async () => {
      expect(await statusOf(`${started.printed.serviceUrl}genre`)).toBe(401)
    })
  })

  describe('the page server', () => {
    it('serves the browser example with a dev token source added, the file itself unchanged', async () => {
      const served = await (await fetch(started.printed.browserUrl)).text()
      expect(served).toContain('window.__ID_TOKEN_SOURCE__ = async () =>')
      expect(served.replace(/ {2}<script>\n {6}\/\/ Dev mode[\s\S]*?<\/script>\n {2}/, '')).toBe(
        PAGE_FILE
      )
      expect(PAGE_FILE).not.toContain('/dev/id-token')
    })

    it('gives a fresh token to a POST from its own origin, and the service accepts it', async () => {
      const response = await fetch(`${pageOrigin}/dev/id-token`, {
        method: 'POST',
        headers: { Origin: pageOrigin }
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      const token = await response.text()
      expect(token).not.toBe(started.printed.token)
      const genres = await fetch(`${started.printed.serviceUrl}genre`, {
        headers: { Authorization: token }
      })
      expect(await genres.json()).toEqual(GENRES)
    })

    it('gives no token to another origin, another host name, or a GET', async () => {
      const url = `${pageOrigin}/dev/id-token`
      const port = new URL(pageOrigin).port
      expect(
        await statusOf(url, { method: 'POST', headers: { Origin: 'https://evil.example.com' } })
      ).toBe(403)
      // A site rebinding its DNS name to 127.0.0.1 sends its own name as Host.
      expect(await statusOf(`http://localhost:${port}/dev/id-token`, { method: 'POST' })).toBe(403)
      expect(await statusOf(url)).toBe(405)
    })

    it('tells a refused token request which address to open, and logs why', async () => {
      const port = new URL(pageOrigin).port
      const response = await fetch(`http://localhost:${port}/dev/id-token`, { method: 'POST' })
      expect(response.status).toBe(403)
      expect(await response.text()).toBe(
        `open the browser example at ${started.printed.browserUrl}, as dev mode printed it: ` +
          `the service accepts calls from ${pageOrigin} only (to a browser, localhost and ` +
          '127.0.0.1 are different origins)'
      )
      const refusals = started
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"dev token refused"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(refusals).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          because: 'addressed to another host name',
          open: started.printed.browserUrl
        })
      )
    })

    it('sends the page opened as localhost on to 127.0.0.1, with its path and query', async () => {
      const port = new URL(pageOrigin).port
      const target = new URL(started.printed.browserUrl)
      for (const [path, host] of [
        [`${target.pathname}${target.search}`, `localhost:${port}`],
        ['/', `LocalHost:${port}`]
      ] as const) {
        const reply = await rawRequest(
          pageOrigin,
          `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
        )
        expect(reply.status).toBe(307)
        expect(headerOf(reply, 'location')).toBe(`${pageOrigin}${path}`)
      }
      // Addressed as 127.0.0.1, as printed, the page itself.
      const printed = await rawRequest(
        pageOrigin,
        `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`
      )
      expect(printed.status).toBe(200)
    })
  })

  describe.skipIf(noBrowser)('the printed browser address', () => {
    it('lists the genres in a real browser, with no request leaving loopback', async () => {
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        const requested: string[] = []
        page.on('request', (request) => requested.push(request.url()))
        await page.goto(started.printed.browserUrl)
        await page.waitForSelector('#status[data-state="loaded"], #status[data-state="error"]')
        expect(await page.textContent('#status')).toBe('10 genres')
        const names = (GENRES as { name: string }[]).map((genre) => genre.name)
        expect(await page.locator('#genres li').allTextContents()).toEqual(names)
        expect(requested.length).toBeGreaterThanOrEqual(3)
        for (const url of requested) expect(new URL(url).hostname).toBe('127.0.0.1')
      } finally {
        await browser.close()
      }
    }, 60_000)

    it('opened as localhost instead, lands on 127.0.0.1 and lists the genres', async () => {
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        const asLocalhost = new URL(started.printed.browserUrl)
        asLocalhost.hostname = 'localhost'
        await page.goto(asLocalhost.href)
        await page.waitForSelector('#status[data-state="loaded"], #status[data-state="error"]')
        expect(await page.textContent('#status')).toBe('10 genres')
        expect(page.url()).toBe(started.printed.browserUrl)
      } finally {
        await browser.close()
      }
    }, 60_000)
  })

  describe('SIGTERM', () => {
    it('stops the service, the page and the identity provider, and exits 0', async () => {
      const { serviceUrl, issuer } = started.printed
      const exited = new Promise<number | null>((resolve) =>
        started.child.on('exit', (code) => resolve(code))
      )
      started.child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(started.output()).toMatch(/"msg":"shutting down","signal":"SIGTERM"/)
      for (const url of [serviceUrl, `${issuer}/jwks`, pageOrigin]) {
        expect(await statusOf(url)).toBe('ECONNREFUSED')
      }
    })
  })
})

describe('SIGINT (Ctrl+C) to the entry', () => {
  it('stops everything too, and exits 0', async () => {
    const { child, printed, output } = await startDevMode('entry')
    expect(
      await statusOf(`${printed.serviceUrl}genre`, { headers: { Authorization: printed.token } })
    ).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(output()).toMatch(/"msg":"shutting down","signal":"SIGINT"/)
    for (const url of [
      printed.serviceUrl,
      `${printed.issuer}/jwks`,
      new URL(printed.browserUrl).origin
    ]) {
      expect(await statusOf(url)).toBe('ECONNREFUSED')
    }
  })
})

describe('a failure to stop', () => {
  it('exits 1 with one "stop failed" line, no stack', async () => {
    // Closing the service's server throws here, so dev mode's close() rejects.
    const failingClose = `data:text/javascript,${encodeURIComponent(
      "import http from 'node:http'\n" +
        "http.Server.prototype.closeIdleConnections = () => { throw new TypeError('close') }"
    )}`
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', failingClose, ENTRY], {
      cwd: ROOT,
      env: BASE_ENV,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const ready = new Promise<Printed>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const printed = readReady(stdout)
        if (printed !== undefined) resolve(printed)
      })
    })
    // An answer means the signal handlers, set just after those lines, are there.
    expect(await statusOf((await ready).serviceUrl)).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(1)
    const entries = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.at(-1)).toMatchObject({ level: 'error', msg: 'stop failed', error: 'TypeError' })
    expect(stderr).toBe('')
  })
})

describe('dev mode refuses to start with exit code 1, saying what to change', () => {
  it('under NODE_ENV=production, pointing to npm run serve', async () => {
    const { code, stdout, stderr } = await start({ NODE_ENV: 'production' })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'genre service (dev mode) refused to start: NODE_ENV is "production"; dev mode trusts a ' +
        'local identity provider that signs tokens for anyone: use npm run serve\n'
    )
  })

  it.each([['PORT'], ['DEV_PAGE_PORT'], ['DEV_ISSUER_PORT']])(
    'when the port %s names is in use, naming the setting',
    async (variable) => {
      const taken = await occupiedPort()
      try {
        const { code, stdout, stderr } = await start({ [variable]: String(taken.port) })
        expect(code).toBe(1)
        expect(stdout).toBe('')
        expect(stderr).toBe(
          `genre service (dev mode) refused to start: ${variable}: port ${taken.port} on ` +
            `127.0.0.1 is in use; set ${variable} to another port (0 picks a free one)\n`
        )
      } finally {
        await new Promise((resolve) => taken.server.close(resolve))
      }
    }
  )

  it("naming every bad setting at once, its own and the service's", async () => {
    const { code, stdout, stderr } = await start({
      PORT: '70000',
      LOG_LEVEL: 'loud',
      DEV_PAGE_PORT: 'eighty',
      DEV_ISSUER_PORT: '-1'
    })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      [
        'genre service (dev mode) refused to start: 4 settings to fix:',
        '  PORT: must be a whole number from 0 to 65535, got "70000"',
        '  LOG_LEVEL: must be one of silent, error, warn, info, debug, got "loud"',
        '  DEV_PAGE_PORT: must be a whole number from 0 to 65535, got "eighty"',
        '  DEV_ISSUER_PORT: must be a whole number from 0 to 65535, got "-1"',
        ''
      ].join('\n')
    )
  })

  it('when a port setting is not a port', async () => {
    const { code, stderr } = await start({ DEV_PAGE_PORT: 'eighty' })
    expect(code).toBe(1)
    expect(stderr).toBe(
      'genre service (dev mode) refused to start: DEV_PAGE_PORT: must be a whole number from 0 ' +
        'to 65535, got "eighty"\n'
    )
  })
})

describe('the production entry cannot reach dev mode', () => {
  it('no module imported from service/src/index.ts is under service/src/dev/', () => {
    const seen = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      const source = readFileSync(file, 'utf8')
      for (const [, specifier] of source.matchAll(/from '(\.[^']+)'/g)) {
        visit(path.resolve(path.dirname(file), specifier!.replace(/\.js$/, '.ts')))
      }
    }
    visit(path.join(ROOT, 'service/src/index.ts'))
    expect(seen.size).toBeGreaterThan(10)
    expect([...seen].filter((file) => file.includes(`${path.sep}dev${path.sep}`))).toEqual([])
  })

  it('the production build leaves service/src/dev out', () => {
    const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'service/tsconfig.json'), 'utf8'))
    expect(tsconfig.exclude).toContain('src/dev')
    expect(existsSync(path.join(ROOT, 'service/dist/index.js'))).toBe(true)
    expect(existsSync(path.join(ROOT, 'service/dist/dev'))).toBe(false)
  })
})
