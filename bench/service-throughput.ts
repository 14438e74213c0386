// Throughput of GET /genre through the service against a bare node:http floor, in one run;
// a second floor writes its replies per turn like the service, to show what the service's
// own work costs. Each server is a child process, so autocannon (in this process) does not
// share its event loop; everything is on loopback. Run with `npm run bench:service`.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const DURATION_SEC = Number(process.env.BENCH_DURATION_SEC ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const CLIENT_ID = 'bench-client'
/** `autocannon` (default, in this process) or `wrk` (a separate C process, lighter). */
const LOAD = process.env.BENCH_LOAD ?? 'autocannon'

interface Target {
  name: string
  url: string
  child: ChildProcess
  headers: Record<string, string>
}

interface Sample {
  rps: number
  /** CPU time (user + system) the server process used per request, in microseconds. */
  cpuUsPerRequest: number
  p99: number
  non2xx: number
  errors: number
  rssMb: number
  /** CPU the load generator used, in cores (1 = one core busy for the whole round). */
  loadCores: number
}

interface LoadResult {
  rps: number
  total: number
  p99: number
  non2xx: number
  errors: number
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function untilUp(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await (await fetch(url)).arrayBuffer()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw new Error(`${url} did not come up`)
}

/** utime + stime of a process in milliseconds (Linux, 100 ticks per second). */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

async function runAutocannon(target: Target, durationSec: number): Promise<LoadResult> {
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: durationSec,
    headers: target.headers
  })
  return {
    rps: result.requests.average,
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

/** wrk with one thread; its CPU is sampled from /proc while it runs (`onPid`). */
function runWrk(
  target: Target,
  durationSec: number,
  onPid: (pid: number | undefined) => void
): Promise<LoadResult> {
  const headers = Object.entries(target.headers).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`
  ])
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${durationSec}s`, '--latency', ...headers, target.url]
  return new Promise((resolve, reject) => {
    const child = execFile('wrk', args, (error, stdout) => {
      if (error) return reject(error)
      const number = (pattern: RegExp): number => Number(pattern.exec(stdout)?.[1] ?? 0)
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(stdout)
        ?.slice(1)
        .reduce((sum, value) => sum + Number(value), 0)
      resolve({
        rps: number(/Requests\/sec:\s+([\d.]+)/),
        total: number(/(\d+) requests in/),
        p99: wrkMs(/\s99%\s+(\S+)/.exec(stdout)?.[1]),
        non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
        errors: socketErrors ?? 0
      })
    })
    onPid(child.pid)
  })
}

async function measure(target: Target, durationSec: number): Promise<Sample> {
  let peak = 0
  let loadPid: number | undefined
  let loadCpuMs = 0
  const startedAt = performance.now()
  let sampledAt = startedAt
  const ownCpu = process.cpuUsage()
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(target.child.pid))
    if (loadPid === undefined) return
    try {
      loadCpuMs = cpuMs(loadPid)
      sampledAt = performance.now()
    } catch {
      // wrk has just exited; keep the last sample.
    }
  }, 250)
  const cpuBefore = cpuMs(target.child.pid)
  const result =
    LOAD === 'wrk'
      ? await runWrk(target, durationSec, (pid) => (loadPid = pid))
      : await runAutocannon(target, durationSec)
  const serverCpuMs = cpuMs(target.child.pid) - cpuBefore
  clearInterval(sampler)
  const own = process.cpuUsage(ownCpu)
  const loadCores =
    LOAD === 'wrk'
      ? loadCpuMs / (sampledAt - startedAt)
      : (own.user + own.system) / 1000 / (performance.now() - startedAt)
  return {
    rps: result.rps,
    cpuUsPerRequest: (serverCpuMs * 1000) / result.total,
    p99: result.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    rssMb: peak,
    loadCores
  }
}

async function main(): Promise<void> {
  if (LOAD !== 'autocannon' && LOAD !== 'wrk')
    throw new Error(`BENCH_LOAD: autocannon or wrk, got ${LOAD}`)
  if (LOAD === 'wrk' && spawnSync('wrk', ['-v']).error !== undefined) {
    console.error('BENCH_LOAD=wrk needs wrk on the PATH (Debian: apt-get install -y wrk)')
    process.exit(1)
  }
  // A loopback identity provider: one RS256 key, like Google's.
  const { privateKey, publicKey } = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }
  const idp = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`
  const token = await new SignJWT({ aud: CLIENT_ID, azp: CLIENT_ID, sub: 'bench-user' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey)

  // Request logs go to /dev/null: the service still formats and writes one line per request.
  const devNull = openSync('/dev/null', 'w')
  const startService = async (name: string, verifyCache: 'on' | 'off'): Promise<Target> => {
    const port = await freePort()
    const child = spawn(process.execPath, ['build/service/index.js'], {
      env: {
        PATH: process.env.PATH ?? '',
        CLIENT_ID,
        ALLOWED_ORIGIN: 'https://app.example.com',
        HOST: '127.0.0.1',
        PORT: String(port),
        OIDC_ISSUER: issuer,
        OIDC_JWKS_URL: `${issuer}/jwks`,
        VERIFY_CACHE: verifyCache,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info'
      },
      stdio: ['ignore', devNull, 'inherit']
    })
    const url = `http://127.0.0.1:${port}/genre`
    await untilUp(`http://127.0.0.1:${port}/`)
    return { name, url, child, headers: { Authorization: token } }
  }
  const startFloor = async (name: string, mode: 'bare' | 'batched'): Promise<Target> => {
    const port = await freePort()
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/service-floor-server.ts', String(port), mode],
      {
        stdio: ['ignore', 'ignore', 'inherit']
      }
    )
    const url = `http://127.0.0.1:${port}/genre`
    await untilUp(url)
    // The floor receives the same request, token included, and ignores it.
    return { name, url, child, headers: { Authorization: token } }
  }

  const targets: Target[] = [
    await startFloor('floor (bare node:http)', 'bare'),
    await startFloor('floor, replies batched per turn like the service', 'batched'),
    await startService('service, verification cache on', 'on'),
    await startService('service, verification cache off', 'off')
  ]
  const samples = new Map<string, Sample[]>(targets.map((target) => [target.name, []]))
  try {
    for (const target of targets) await measure(target, 2) // warm-up, JIT and key fetch
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate the order so that drift in the machine's load does not favour one target.
      const order = round % 2 === 1 ? targets : [...targets].reverse()
      for (const target of order) {
        const sample = await measure(target, DURATION_SEC)
        samples.get(target.name)?.push(sample)
        console.log(
          `round ${round} ${target.name}: ${Math.round(sample.rps)} req/s, ` +
            `${sample.cpuUsPerRequest.toFixed(1)} µs CPU/req, p99 ${sample.p99} ms, ` +
            `non-2xx ${sample.non2xx}, errors ${sample.errors}, RSS ${sample.rssMb} MB, ` +
            `${LOAD} ${sample.loadCores.toFixed(2)} cores`
        )
      }
    }
  } finally {
    for (const target of targets) target.child.kill('SIGTERM')
    idp.close()
  }

  const bareFloor = samples.get(targets[0]?.name ?? '') ?? []
  const batchedFloor = samples.get(targets[1]?.name ?? '') ?? []
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
  }
  console.log(
    `\n${new Date().toISOString()}  node ${process.version}  ${ROUNDS} rounds × ${DURATION_SEC} s, ` +
      `${CONNECTIONS} connections, load from ${LOAD}\n`
  )
  console.log(
    '| target | req/s (mean) | ratio to bare floor | ratio to batched floor | ' +
      'server CPU µs/req (median) | p99 ms (worst round) | non-2xx | errors | peak RSS MB | ' +
      `${LOAD} cores (median) |`
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  // A ratio is the median of the per-round ratios: runs made seconds apart, which cancels
  // slow drift in the machine's load.
  const ratio = (list: Sample[], floor: Sample[]): string =>
    median(list.map((sample, round) => sample.rps / (floor[round]?.rps ?? NaN))).toFixed(2)
  for (const [name, list] of samples) {
    console.log(
      `| ${name} | ${Math.round(mean(list.map((s) => s.rps)))} | ${ratio(list, bareFloor)} | ` +
        `${ratio(list, batchedFloor)} | ` +
        `${median(list.map((s) => s.cpuUsPerRequest)).toFixed(1)} | ` +
        `${Math.max(...list.map((s) => s.p99))} | ${list.reduce((a, s) => a + s.non2xx, 0)} | ` +
        `${list.reduce((a, s) => a + s.errors, 0)} | ${Math.max(...list.map((s) => s.rssMb))} | ` +
        `${median(list.map((s) => s.loadCores)).toFixed(2)} |`
    )
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
