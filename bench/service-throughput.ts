// Throughput, memory and cold verification of the genre service, over several runs, each
// figure printed as the range over the runs. Run with `npm run bench:service -- [options]`.
//
// Every run starts fresh child processes, with a clean environment: two node:http floors
// (`service-floor-server.mjs`, bare and batched per turn), the compiled service with its
// verification cache on (one token, then 64 in turn) and with it off, started with the node
// flags of service/package.json's `start`
// script (`service-start.ts`), and, for the cold-verification reference, a plain
// `crypto.verify` loop (`service-verify-floor.mjs`). A run has a few rounds; in each, the load
// (autocannon in this process, or wrk) runs against one target at a time, in an order that
// rotates every round. The peak RSS of each server is its `VmHWM`, read from /proc at the end
// of the run (`service-proc.ts`).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose'
import { median, printTable, range } from './stats.js'
import { readCpuMs, readPeakRssMb } from './service-proc.js'
import { readStartNodeFlags, SERVICE_ENTRY } from './service-start.js'

const CLIENT_ID = 'bench-client'
/** Distinct tokens of the cold-verification arms, sent in rotation. */
const COLD_TOKENS = 64
/** Targets of the issue this bench answers. */
const TARGET_RATIO = 0.85
const TARGET_PEAK_RSS_MB = 110

const USAGE = `npm run bench:service -- [--runs 3] [--rounds 3] [--duration 3] [--warmup 2]
  [--connections 32]
  [--load autocannon|wrk] [--log-level info] [--service-flags='<node flags>'] [--pin auto|on|off]

--service-flags replaces the node flags of service/package.json's "start" script, to compare
others ('' for none); without it the service starts exactly as "npm start" starts it there.
--pin puts the load generator on CPU 0 and the servers on CPU 1 (taskset); auto does so when
taskset is there and the machine has at least 2 CPUs.`

interface Options {
  runs: number
  rounds: number
  durationSec: number
  warmupSec: number
  connections: number
  load: 'autocannon' | 'wrk'
  logLevel: string
  serviceFlags: string[]
  flagsFrom: string
  /** Load generator on CPU 0, servers on CPU 1 (with taskset). */
  pin: boolean
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32' },
      load: { type: 'string', default: 'autocannon' },
      'log-level': { type: 'string', default: 'info' },
      'service-flags': { type: 'string' },
      pin: { type: 'string', default: 'auto' },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const whole = (name: string, text: string, min: number): number => {
    const value = Number(text)
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name}: a whole number from ${min}, got "${text}"\n${USAGE}`)
    return value
  }
  if (values.load !== 'autocannon' && values.load !== 'wrk')
    throw new Error(`--load: autocannon or wrk, got "${values.load}"`)
  if (!['auto', 'on', 'off'].includes(values.pin))
    throw new Error(`--pin: auto, on or off, got "${values.pin}"`)
  const canPin = spawnSync('taskset', ['-V']).error === undefined && availableParallelism() >= 2
  if (values.pin === 'on' && !canPin) throw new Error('--pin on needs taskset and 2 CPUs')
  const given = values['service-flags']
  return {
    runs: whole('runs', values.runs, 1),
    rounds: whole('rounds', values.rounds, 1),
    durationSec: whole('duration', values.duration, 1),
    warmupSec: whole('warmup', values.warmup, 0),
    connections: whole('connections', values.connections, 1),
    load: values.load,
    logLevel: values['log-level'],
    serviceFlags:
      given === undefined
        ? readStartNodeFlags('service/package.json')
        : given.split(/\s+/).filter((word) => word !== ''),
    flagsFrom: given === undefined ? 'service/package.json\'s "start" script' : '--service-flags',
    pin: values.pin === 'on' || (values.pin === 'auto' && canPin)
  }
}

interface Sample {
  /** Requests per second, or verifications per second for the crypto.verify reference. */
  rate: number
  /** CPU time (user + system) the server used per request, in microseconds. */
  cpuUsPerRequest: number
  p99: number
  non2xx: number
  errors: number
  /** CPU the load generator used, in cores (1 = one core busy for the whole measurement). */
  loadCores: number
}

interface LoadResult {
  rate: number
  total: number
  p99: number
  non2xx: number
  errors: number
}

/** One thing measured in every run: a server under load, or the crypto.verify loop. */
interface Arm {
  name: string
  /** Whether the arm needs a warm-up under load before it is measured (servers do). */
  warmsUp: boolean
  /** Starts the arm's process for one run; the returned handle measures and stops it. */
  start(): Promise<RunningArm>
}

interface RunningArm {
  measure(durationSec: number): Promise<Sample>
  /** Peak RSS in MiB over the process's life so far (NaN when there is no lasting process). */
  peakRssMb(): number
  stop(): Promise<void>
}

/** The load generator's CPU and the servers' CPU when pinned. */
const LOAD_CPU = 0
const SERVER_CPU = 1

/** `command args` to run on `cpu` when pinning (taskset execs the command: same pid). */
function onCpu(options: Options, cpu: number, command: string, args: string[]): [string, string[]] {
  return options.pin ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function untilUp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`)
    try {
      await (await fetch(url)).arrayBuffer()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw new Error(`${url} did not come up`)
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function runAutocannon(
  url: string,
  tokens: readonly string[],
  connections: number,
  durationSec: number
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: durationSec,
    requests: tokens.map((token) => ({ headers: { Authorization: token } }))
  })
  return {
    rate: result.requests.average,
    total: result.requests.total,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts
  }
}

/** Milliseconds from wrk's latency notation (`850.00us`, `2.10ms`, `1.02s`). */
function wrkMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '')
  if (match === null) return NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

/** wrk with one thread; several tokens go through a Lua script that rotates them. */
function runWrk(
  options: Options,
  url: string,
  tokens: readonly string[],
  connections: number,
  durationSec: number,
  onPid: (pid: number | undefined) => void
): Promise<LoadResult> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-service-'))
  let tokenArgs: string[]
  if (tokens.length === 1) {
    tokenArgs = ['-H', `Authorization: ${tokens[0]}`]
  } else {
    const script = path.join(scratch, 'tokens.lua')
    writeFileSync(
      script,
      `local tokens = { ${tokens.map((token) => JSON.stringify(token)).join(', ')} }\n` +
        'local i = 0\n' +
        'request = function()\n' +
        '  i = i % #tokens + 1\n' +
        '  return wrk.format(nil, nil, { Authorization = tokens[i] })\n' +
        'end\n'
    )
    tokenArgs = ['-s', script]
  }
  const args = ['-t1', `-c${connections}`, `-d${durationSec}s`, '--latency', ...tokenArgs, url]
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = onCpu(options, LOAD_CPU, 'wrk', args)
    const child = execFile(command, commandArgs, { env: {} }, (error, stdout) => {
      rmSync(scratch, { recursive: true, force: true })
      if (error) return reject(error)
      const number = (pattern: RegExp): number => Number(pattern.exec(stdout)?.[1] ?? 0)
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(stdout)
        ?.slice(1)
        .reduce((sum, value) => sum + Number(value), 0)
      resolve({
        rate: number(/Requests\/sec:\s+([\d.]+)/),
        total: number(/(\d+) requests in/),
        p99: wrkMs(/\s99%\s+(\S+)/.exec(stdout)?.[1]),
        non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
        errors: socketErrors ?? 0
      })
    })
    onPid(child.pid)
  })
}

/** Loads a server with the given tokens and samples its CPU and the load generator's. */
async function measureServer(
  options: Options,
  server: ChildProcess,
  url: string,
  tokens: readonly string[],
  durationSec: number
): Promise<Sample> {
  const pid = server.pid as number
  let loadPid: number | undefined
  let loadCpuMs = 0
  const startedAt = performance.now()
  let sampledAt = startedAt
  const ownCpu = process.cpuUsage()
  const sampler = setInterval(() => {
    if (loadPid === undefined) return
    try {
      loadCpuMs = readCpuMs(loadPid)
      sampledAt = performance.now()
    } catch {
      // wrk has just exited; keep the last sample.
    }
  }, 250)
  const cpuBefore = readCpuMs(pid)
  let result: LoadResult
  try {
    result =
      options.load === 'wrk'
        ? await runWrk(
            options,
            url,
            tokens,
            options.connections,
            durationSec,
            (id) => (loadPid = id)
          )
        : await runAutocannon(url, tokens, options.connections, durationSec)
  } finally {
    clearInterval(sampler)
  }
  const serverCpuMs = readCpuMs(pid) - cpuBefore
  const own = process.cpuUsage(ownCpu)
  if (server.exitCode !== null) throw new Error(`${url}: the server exited under load`)
  if (result.total === 0) throw new Error(`${url}: no request completed`)
  return {
    rate: result.rate,
    cpuUsPerRequest: (serverCpuMs * 1000) / result.total,
    p99: result.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    loadCores:
      options.load === 'wrk'
        ? loadCpuMs / (sampledAt - startedAt)
        : (own.user + own.system) / 1000 / (performance.now() - startedAt)
  }
}

/** An HTTP server as an arm: started per run, measured at `url` with `tokens`. */
function serverArm(
  options: Options,
  name: string,
  tokens: readonly string[],
  spawnServer: (port: number) => ChildProcess,
  paths: { probe: string; load: string }
): Arm {
  return {
    name,
    warmsUp: true,
    async start() {
      const port = await freePort()
      const child = spawnServer(port)
      const base = `http://127.0.0.1:${port}`
      await untilUp(`${base}${paths.probe}`, child)
      return {
        measure: (durationSec) =>
          measureServer(options, child, `${base}${paths.load}`, tokens, durationSec),
        peakRssMb: () => readPeakRssMb(child.pid as number),
        stop: () => stopChild(child)
      }
    }
  }
}

/** The crypto.verify reference as an arm: one child process per measurement. */
function verifyArm(
  options: Options,
  name: string,
  publicKeyPem: string,
  tokens: readonly string[]
): Arm {
  const measure = async (durationSec: number): Promise<Sample> => {
    const child = spawn(
      ...onCpu(options, SERVER_CPU, process.execPath, ['bench/service-verify-floor.mjs']),
      {
        env: {},
        stdio: ['pipe', 'pipe', 'inherit']
      }
    )
    let stdout = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.stdin?.end(JSON.stringify({ publicKeyPem, tokens, durationMs: durationSec * 1000 }))
    const code = await exited
    if (code !== 0) throw new Error(`the crypto.verify reference exited with ${code}`)
    const { verifications, ms } = JSON.parse(stdout) as { verifications: number; ms: number }
    return {
      rate: (verifications * 1000) / ms,
      cpuUsPerRequest: (ms * 1000) / verifications,
      p99: NaN,
      non2xx: 0,
      errors: 0,
      loadCores: NaN
    }
  }
  return {
    name,
    warmsUp: false,
    start: async () => ({ measure, peakRssMb: () => NaN, stop: async () => {} })
  }
}

interface Bench {
  arms: Arm[]
  close(): void
}

async function prepare(options: Options): Promise<Bench> {
  // A loopback identity provider: one RS256 key, like Google's.
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }
  const idp = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`
  const mint = (key: CryptoKey, subject: string): Promise<string> =>
    new SignJWT({ aud: CLIENT_ID, azp: CLIENT_ID, sub: subject })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(key)
  const token = await mint(privateKey, 'bench-user')
  const coldTokens = await Promise.all(
    Array.from({ length: COLD_TOKENS }, (_, i) => mint(privateKey, `bench-user-${i}`))
  )

  // Request logs go to /dev/null: the service still formats and writes one line per request.
  const devNull = openSync('/dev/null', 'w')
  const service = (verifyCache: 'on' | 'off') => (port: number) =>
    spawn(
      ...onCpu(options, SERVER_CPU, process.execPath, [...options.serviceFlags, SERVICE_ENTRY]),
      {
        // Only what the service needs, as a supervisor would set it: nothing of this shell.
        env: {
          CLIENT_ID,
          ALLOWED_ORIGIN: 'https://app.example.com',
          HOST: '127.0.0.1',
          PORT: String(port),
          OIDC_ISSUER: issuer,
          OIDC_JWKS_URL: `${issuer}/jwks`,
          VERIFY_CACHE: verifyCache,
          LOG_LEVEL: options.logLevel
        },
        stdio: ['ignore', devNull, 'inherit']
      }
    )
  const floor = (mode: 'bare' | 'batched') => (port: number) =>
    spawn(
      ...onCpu(options, SERVER_CPU, process.execPath, [
        'bench/service-floor-server.mjs',
        String(port),
        mode
      ]),
      {
        env: {},
        stdio: ['ignore', 'ignore', 'inherit']
      }
    )
  // The floors receive the same request, token included, and ignore it.
  const genre = { probe: '/genre', load: '/genre' }
  const arms = [
    serverArm(options, 'floor (bare node:http)', [token], floor('bare'), genre),
    serverArm(options, 'floor, replies batched per turn', [token], floor('batched'), genre),
    serverArm(options, 'service, verification cache on', [token], service('on'), {
      probe: '/',
      load: '/genre'
    }),
    // Each connection sends the 64 tokens in turn: every request changes token, so the
    // connection's memory of its last token never answers and each one is looked up by its
    // SHA-256 in the cache.
    serverArm(options, 'service, cache on, 64 tokens in turn', coldTokens, service('on'), {
      probe: '/',
      load: '/genre'
    }),
    serverArm(options, 'service, cache off (cold)', coldTokens, service('off'), {
      probe: '/',
      load: '/genre'
    }),
    verifyArm(options, 'crypto.verify, same tokens', await exportSPKI(publicKey), coldTokens)
  ]
  return { arms, close: () => idp.close() }
}

interface Run {
  /** Per round, each arm's sample. */
  rounds: Map<string, Sample>[]
  /** Each arm over the run's rounds: medians, the worst p99, total non-2xx and errors. */
  samples: Map<string, Sample>
  peakRssMb: Map<string, number>
}

function overRounds(samples: Sample[]): Sample {
  const medianOf = (figure: (sample: Sample) => number): number => median(samples.map(figure))
  return {
    rate: medianOf((s) => s.rate),
    cpuUsPerRequest: medianOf((s) => s.cpuUsPerRequest),
    p99: Math.max(...samples.map((s) => s.p99)),
    non2xx: samples.reduce((sum, s) => sum + s.non2xx, 0),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    loadCores: medianOf((s) => s.loadCores)
  }
}

async function oneRun(options: Options, arms: Arm[], index: number): Promise<Run> {
  const running: { arm: Arm; handle: RunningArm }[] = []
  try {
    for (const arm of arms) running.push({ arm, handle: await arm.start() })
    // Warm-up: JIT, the key-set fetch, the service's first verification.
    if (options.warmupSec > 0)
      for (const { arm, handle } of running)
        if (arm.warmsUp) await handle.measure(options.warmupSec)
    const rounds: Map<string, Sample>[] = []
    for (let round = 0; round < options.rounds; round++) {
      // The order rotates every round, so drift in the machine's load favours no arm.
      const shift = index * options.rounds + round
      const order = running.map((_, i) => running[(i + shift) % running.length])
      const samples = new Map<string, Sample>()
      for (const { arm, handle } of order as typeof running) {
        const sample = await handle.measure(options.durationSec)
        samples.set(arm.name, sample)
        console.log(
          `run ${index + 1} round ${round + 1} ${arm.name}: ${Math.round(sample.rate)}/s, ` +
            `${sample.cpuUsPerRequest.toFixed(1)} µs CPU each, p99 ${sample.p99} ms, ` +
            `non-2xx ${sample.non2xx}, errors ${sample.errors}, ` +
            `${options.load} ${sample.loadCores.toFixed(2)} cores`
        )
      }
      rounds.push(samples)
    }
    const samples = new Map(
      arms.map((arm) => [
        arm.name,
        overRounds(rounds.map((round) => round.get(arm.name) as Sample))
      ])
    )
    const peakRssMb = new Map(running.map(({ arm, handle }) => [arm.name, handle.peakRssMb()]))
    return { rounds, samples, peakRssMb }
  } finally {
    for (const { handle } of running) await handle.stop()
  }
}

async function main(): Promise<void> {
  const options = readOptions()
  if (options.load === 'wrk' && spawnSync('wrk', ['-v']).error !== undefined) {
    console.error('--load wrk needs wrk on the PATH (Debian: apt-get install -y wrk)')
    process.exit(1)
  }
  const flags = options.serviceFlags.join(' ') || '(none)'
  console.log(`service: node ${flags} ${SERVICE_ENTRY} (flags from ${options.flagsFrom})`)
  if (options.pin) {
    // autocannon runs in this process: all its threads go to the load generator's CPU.
    const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(LOAD_CPU), String(process.pid)])
    if (pinned.status !== 0)
      throw new Error(`taskset could not pin the bench: ${pinned.stderr.toString()}`)
  }
  const pinning = options.pin
    ? `load generator on CPU ${LOAD_CPU}, servers on CPU ${SERVER_CPU}`
    : 'not pinned'
  const bench = await prepare(options)
  const runs: Run[] = []
  try {
    for (let index = 0; index < options.runs; index++) {
      const run = await oneRun(options, bench.arms, index)
      runs.push(run)
      const rss = [...run.peakRssMb].filter(([, mb]) => !Number.isNaN(mb))
      console.log(
        `run ${index + 1} peak RSS: ${rss.map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`
      )
    }
  } finally {
    bench.close()
  }

  const [bare, batched, cacheOn, rotating, cold, verify] = bench.arms.map((arm) => arm.name)
  const of = (name: string | undefined, figure: (sample: Sample) => number): number[] =>
    runs.map((run) => {
      const sample = run.samples.get(name ?? '')
      return sample === undefined ? NaN : figure(sample)
    })
  // A run's ratio is the median of its per-round ratios: arms measured seconds apart.
  const per = (name: string | undefined, other: string | undefined): number[] =>
    runs.map((run) =>
      median(
        run.rounds.map(
          (round) => (round.get(name ?? '')?.rate ?? NaN) / (round.get(other ?? '')?.rate ?? NaN)
        )
      )
    )
  const peak = (name: string | undefined): number[] =>
    runs.map((run) => run.peakRssMb.get(name ?? '') ?? NaN)
  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)

  console.log(
    `\n${new Date().toISOString()}  node ${process.version}  ${options.runs} runs × ` +
      `${options.rounds} rounds × ${options.durationSec} s per target ` +
      `(after ${options.warmupSec} s of warm-up), ` +
      `${options.connections} connections, load from ${options.load}; ` +
      `service flags: ${flags}; ${pinning}\n` +
      'Each cell is the range over the runs (min–max) of the per-run figure: the median over ' +
      "the run's rounds (of per-round ratios for a ratio), the worst p99; non-2xx and errors " +
      'are totals.\n'
  )
  const isVerify = (name: string): boolean => name === verify
  printTable(
    [
      'target',
      'req/s',
      'ratio to bare floor',
      'ratio to batched floor',
      'server CPU µs/req',
      'p99 ms',
      'non-2xx',
      'errors',
      'peak RSS MB',
      `${options.load} cores`
    ],
    bench.arms
      .map((arm) => arm.name)
      .map((name) =>
        isVerify(name)
          ? [name, `${range(of(name, (s) => s.rate))} verifications/s`, '-', '-'].concat([
              range(
                of(name, (s) => s.cpuUsPerRequest),
                1
              ),
              '-',
              '-',
              '-',
              '-',
              '-'
            ])
          : [
              name,
              range(of(name, (s) => s.rate)),
              range(per(name, bare), 2),
              range(per(name, batched), 2),
              range(
                of(name, (s) => s.cpuUsPerRequest),
                1
              ),
              range(
                of(name, (s) => s.p99),
                1
              ),
              String(sum(of(name, (s) => s.non2xx))),
              String(sum(of(name, (s) => s.errors))),
              range(peak(name)),
              range(
                of(name, (s) => s.loadCores),
                2
              )
            ]
      )
  )

  const met = (values: number[], ok: (value: number) => boolean): string =>
    `met in ${values.filter(ok).length} of ${values.length} runs`
  const ratio = per(cacheOn, bare)
  const rssOn = peak(cacheOn)
  const rssCold = peak(cold)
  const rssRotating = peak(rotating)
  const non2xx = sum(of(cacheOn, (s) => s.non2xx))
  console.log(
    `\nservice, cache on / bare floor: ${range(ratio, 2)} (median ${median(ratio).toFixed(2)}); ` +
      `target ≥ ${TARGET_RATIO}: ${met(ratio, (value) => value >= TARGET_RATIO)}; ` +
      `non-2xx ${non2xx} (target 0); with 64 tokens in turn ` +
      `${range(per(rotating, bare), 2)}\n` +
      `peak RSS, service cache on: ${range(rssOn)} MB, with 64 tokens ${range(rssRotating)} MB, ` +
      `cache off: ${range(rssCold)} MB; ` +
      `target ≤ ${TARGET_PEAK_RSS_MB} MB: ${met(
        rssOn.map((mb, i) => Math.max(mb, rssCold[i] ?? NaN, rssRotating[i] ?? NaN)),
        (mb) => mb <= TARGET_PEAK_RSS_MB
      )} (the three service arms)\n` +
      `cold verification: service, cache off ${range(of(cold, (s) => s.rate))} req/s; ` +
      `crypto.verify of the same ${COLD_TOKENS} tokens ${range(of(verify, (s) => s.rate))}/s; ` +
      `ratio ${range(per(cold, verify), 2)}`
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
