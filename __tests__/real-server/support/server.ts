/**
 * One SonarQube server on loopback, run the way `bin/linux-x86-64/sonar.sh` runs it (its launcher
 * jar, which starts the search engine, the web server and the compute engine as its children),
 * in a process group of its own so that stopping it leaves no Java behind. Its state (the
 * group's id, its ports and folders) is a plain object, so a test worker can stop and start
 * again a server the suite's setup started.
 */
import { spawn } from 'node:child_process'
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync
} from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Distribution } from './distribution.js'
import { HarnessFailure } from './failure.js'
import { checkPortsFree, type ServerPorts } from './ports.js'
import { groupAlive, killGroup, lastLines } from './processes.js'
import { giveTo, type ServerUser } from './service-user.js'

/** A started server, as the suite's setup hands it to the tests. */
export interface RunningServer {
  version: string
  /** `http://127.0.0.1:<web port>`. */
  url: string
  ports: ServerPorts
  /** The process group of the launcher and its children. */
  pid: number
  /** Its data, logs and temp folders. */
  runFolder: string
  /** How it was started, to start it again. */
  command: string[]
  home: string
  uid?: number
  gid?: number
}

/** What `sonar.sh` adds to the launcher's command line (Hazelcast needs these modules open). */
const LAUNCHER_OPTIONS = [
  '--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.management/sun.management=ALL-UNNAMED',
  '--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED'
]

/** JVM options of the search engine, web server and compute engine. */
const FAST_START = '-XX:TieredStopAtLevel=1 -XX:-AlwaysPreTouch'

/** The server's logs, in the order they are worth reading after a failure. */
const LOGS = ['sonar.log', 'es.log', 'web.log', 'ce.log']

/**
 * Starts the distribution on loopback with a fresh data folder and waits until
 * `api/system/status` says UP.
 */
export async function startServer(
  distribution: Distribution,
  user: ServerUser,
  ports: ServerPorts,
  timeoutMs: number
): Promise<RunningServer> {
  const step = `start SonarQube ${distribution.version} on port ${ports.web}`
  await checkPortsFree(ports, step)
  const server = describeServer(distribution, user, ports)
  const { runFolder } = server
  await rm(runFolder, { recursive: true, force: true })
  for (const folder of ['data', 'logs', 'temp'])
    mkdirSync(path.join(runFolder, folder), { recursive: true })
  const pristine = pristineData(distribution)
  if (existsSync(pristine)) cpSync(pristine, path.join(runFolder, 'data'), { recursive: true })
  giveTo(user, runFolder)
  return launch(server, timeoutMs, step)
}

/**
 * The server of this distribution on these ports when one runs already (its process group alive
 * and `api/system/status` UP), as a run with REAL_SERVER_KEEP left it.
 */
export async function runningServer(
  distribution: Distribution,
  user: ServerUser,
  ports: ServerPorts
): Promise<RunningServer | undefined> {
  const server = describeServer(distribution, user, ports)
  const pid = existsSync(pidFile(server)) ? Number(readFileSync(pidFile(server), 'utf8')) : 0
  if (!pid || !groupAlive(pid) || (await systemStatus(server.url)) !== 'UP') return undefined
  return { ...server, pid }
}

/**
 * A new server's data once set up (its rules registered, its administrator's password set): a
 * fresh server starts from a copy of it in a fraction of the time the first start takes.
 */
function pristineData(distribution: Pick<Distribution, 'home'>): string {
  return path.join(path.dirname(distribution.home), 'pristine-data')
}

/** Whether the distribution's set-up data is kept already. */
export function hasPristineData(distribution: Distribution): boolean {
  return existsSync(pristineData(distribution))
}

/** Stops the server, keeps a copy of its data for the next fresh starts, and starts it again. */
export async function keepPristineData(
  server: RunningServer,
  timeoutMs: number
): Promise<RunningServer> {
  await stopServer(server)
  const pristine = pristineData(server)
  const partial = `${pristine}.partial`
  await rm(partial, { recursive: true, force: true })
  cpSync(path.join(server.runFolder, 'data'), partial, { recursive: true })
  renameSync(partial, pristine)
  return restartServer(server, timeoutMs)
}

/** How a distribution runs on these ports: its command line and folders. */
function describeServer(
  distribution: Distribution,
  user: ServerUser,
  ports: ServerPorts
): RunningServer {
  const runFolder = path.join(user.cache, 'runs', `${distribution.version}-${ports.web}`)
  const command = [
    distribution.java.binary,
    ...LAUNCHER_OPTIONS,
    '-jar',
    distribution.launcher,
    '-Dsonar.web.host=127.0.0.1',
    `-Dsonar.web.port=${ports.web}`,
    '-Dsonar.search.host=127.0.0.1',
    `-Dsonar.search.port=${ports.search}`,
    `-Dsonar.es.port=${ports.searchTransport}`,
    `-Dsonar.embeddedDatabase.port=${ports.database}`,
    `-Dsonar.path.data=${path.join(runFolder, 'data')}`,
    `-Dsonar.path.logs=${path.join(runFolder, 'logs')}`,
    `-Dsonar.path.temp=${path.join(runFolder, 'temp')}`,
    // The client compiler only, no heap touched up front: the three JVMs start far faster on a
    // few busy cores, and a test server runs too briefly to gain from the optimising compiler.
    `-Dsonar.search.javaAdditionalOpts=${FAST_START}`,
    `-Dsonar.web.javaAdditionalOpts=${FAST_START}`,
    `-Dsonar.ce.javaAdditionalOpts=${FAST_START}`,
    // A busy machine starves the embedded database: 9.9's compute engine failed its start on
    // the default 8 s wait for a connection.
    '-Dsonar.jdbc.maxWait=60000',
    // No telemetry and no update center: the server must not reach out of loopback.
    '-Dsonar.telemetry.enable=false',
    '-Dsonar.updatecenter.activate=false'
  ]
  return {
    version: distribution.version,
    url: `http://127.0.0.1:${ports.web}`,
    ports,
    pid: 0,
    runFolder,
    command,
    home: distribution.home,
    uid: user.uid,
    gid: user.gid
  }
}

/** Starts a stopped server again on its data, and waits until it is UP. */
export function restartServer(server: RunningServer, timeoutMs: number): Promise<RunningServer> {
  return launch(
    server,
    timeoutMs,
    `start SonarQube ${server.version} again on port ${server.ports.web}`
  )
}

async function launch(
  server: RunningServer,
  timeoutMs: number,
  step: string
): Promise<RunningServer> {
  const [java, ...args] = server.command
  const console = openSync(path.join(server.runFolder, 'logs', 'launcher.out'), 'a')
  const child = spawn(java ?? 'java', args, {
    cwd: server.home,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: path.dirname(server.runFolder),
      LANG: 'C.UTF-8'
    },
    uid: server.uid,
    gid: server.gid,
    detached: true,
    stdio: ['ignore', console, console]
  })
  closeSync(console)
  child.unref()
  const started = { ...server, pid: child.pid ?? 0 }
  // Whoever stops it later (the suite's teardown, after a test started it again) reads it here.
  writeFileSync(pidFile(server), `${started.pid}\n`)
  let exit: string | undefined
  child.on('exit', (code, signal) => {
    exit = `the launcher exited with ${code ?? signal}`
  })
  child.on('error', (error) => {
    exit = `the launcher could not start: ${error.message}`
  })
  const deadline = Date.now() + timeoutMs
  let status = 'no answer'
  while (Date.now() < deadline) {
    if (exit) {
      await stopServer(started)
      throw new HarnessFailure(step, `${exit} before the server was up`, serverLogLines(started))
    }
    status = await systemStatus(started.url)
    if (status === 'UP') return started
    if (status === 'DOWN') break
    await sleep(2_000)
  }
  await stopServer(started)
  throw new HarnessFailure(
    step,
    `api/system/status said ${status} after ${Math.round(timeoutMs / 1000)} s (REAL_SERVER_START_TIMEOUT sets the limit in seconds)`,
    serverLogLines(started)
  )
}

/** `status` of `api/system/status`, or why there is none. */
export async function systemStatus(url: string): Promise<string> {
  try {
    const response = await fetch(`${url}/api/system/status`, { signal: AbortSignal.timeout(5_000) })
    const body = (await response.json()) as { status?: unknown }
    return typeof body.status === 'string' ? body.status : `HTTP ${response.status}`
  } catch {
    return 'no answer'
  }
}

/**
 * Stops the server: SIGTERM to its process group (the launcher stops its children in order),
 * then, past 60 s, SIGKILL to whatever of the group is left.
 */
export async function stopServer(server: RunningServer, graceMs = 60_000): Promise<void> {
  const pid = existsSync(pidFile(server))
    ? Number(readFileSync(pidFile(server), 'utf8'))
    : server.pid
  if (!pid) return
  killGroup(pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (groupAlive(pid) && Date.now() < deadline) await sleep(500)
  if (groupAlive(pid)) {
    killGroup(pid, 'SIGKILL')
    await sleep(1_000)
  }
}

/** The launcher's process group id, of its latest start. */
function pidFile(server: Pick<RunningServer, 'runFolder'>): string {
  return path.join(server.runFolder, 'launcher.pid')
}

/** The last lines of each of the server's logs, and its errors and warnings. */
export function serverLogLines(server: RunningServer, count = 15): string[] {
  const lines: string[] = []
  for (const name of ['launcher.out', ...LOGS]) {
    const file = path.join(server.runFolder, 'logs', name)
    if (!existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    const all = text.split(/\r?\n/)
    const problems = all
      .filter((line) => /\b(ERROR|WARN)\b|Exception|bootstrap check/.test(line))
      .slice(-count)
    const tail = lastLines(text, count).filter((line) => !problems.includes(line))
    if (problems.length + tail.length === 0) continue
    lines.push(
      `--- ${name}`,
      ...problems.map((line) => line.slice(0, 500)),
      ...tail.map((line) => line.slice(0, 500))
    )
  }
  return lines
}
