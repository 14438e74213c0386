/**
 * The real-server suite's global setup: for each version of REAL_SERVER_VERSIONS (by default
 * every version the suite holds to), the distribution fetched and unpacked, a server started on
 * its own ports with its administrator's password set; the tests get them through
 * `inject('realServers')`. Without Java, Maven, unzip or git the suite is skipped, saying why,
 * unless REAL_SERVER_TEST=required (CI), where that fails it.
 */
import { execFileSync } from 'node:child_process'
import type { TestProject } from 'vitest/node'
import { distributionOf } from './distribution.js'
import { HarnessFailure } from './failure.js'
import { installedJavas } from './java.js'
import { portsFrom } from './ports.js'
import {
  hasPristineData,
  keepPristineData,
  runningServer,
  startServer,
  stopServer,
  type RunningServer
} from './server.js'
import { serverUser } from './service-user.js'
import { administrator } from './web-api.js'

/** The versions the suite is held to: the newest 9.9 LTA, the newest 10.x, a Community Build. */
export const VERSIONS = ['9.9.8.100196', '10.7.0.96327', '26.9.0.129388']

declare module 'vitest' {
  export interface ProvidedContext {
    realServers: RunningServer[]
    /** Why the suite does not run, when it does not. */
    realServersSkipped: string
  }
}

/** What the suite needs on the machine, and what is missing of it. */
export function missingPrerequisites(): string[] {
  const missing: string[] = []
  for (const [tool, args] of [
    ['mvn', ['-v']],
    ['unzip', ['-v']],
    ['git', ['--version']]
  ] as const) {
    try {
      execFileSync(tool, [...args], { stdio: 'ignore', timeout: 60_000 })
    } catch {
      missing.push(tool)
    }
  }
  if (!installedJavas().some((java) => java.feature >= 17)) missing.push('Java 17 or later')
  return missing
}

/** The versions of REAL_SERVER_VERSIONS (comma-separated), or every version the suite holds to. */
export function versions(): string[] {
  const given = process.env['REAL_SERVER_VERSIONS']?.trim()
  return given
    ? given
        .split(',')
        .map((version) => version.trim())
        .filter(Boolean)
    : VERSIONS
}

const startTimeoutMs = () => Number(process.env['REAL_SERVER_START_TIMEOUT'] ?? 1200) * 1000

export default async function setup(project: TestProject) {
  const missing = missingPrerequisites()
  if (missing.length) {
    const reason = `the real-server tests need ${missing.join(', ')}: install them to run SonarQube here`
    if (process.env['REAL_SERVER_TEST'] === 'required')
      throw new HarnessFailure('real-server tests', reason)
    console.warn(`Skipped: ${reason}.`)
    project.provide('realServers', [])
    project.provide('realServersSkipped', reason)
    return
  }
  const user = serverUser()
  // REAL_SERVER_KEEP=1 leaves the servers running after the suite and uses them again in the
  // next run, to try a test again in seconds instead of minutes; a run without it stops them.
  const keep = process.env['REAL_SERVER_KEEP'] === '1'
  const base = Number(process.env['REAL_SERVER_PORT_BASE'] ?? 9000)
  const servers: RunningServer[] = []
  const results = await Promise.allSettled(
    versions().map(async (version, index) => {
      const started = Date.now()
      const distribution = await distributionOf(version, user)
      const ports = portsFrom(base + 20 * index)
      const kept = await runningServer(distribution, user, ports)
      if (kept && keep) {
        console.info(`SonarQube ${version} kept from an earlier run at ${kept.url}`)
        servers.push(kept)
        return kept
      }
      // A server an earlier run kept is stopped: this run starts its own, fresh.
      if (kept) await stopServer(kept)
      const firstStart = !hasPristineData(distribution)
      let server = await startServer(
        distribution,
        user,
        portsFrom(base + 20 * index),
        startTimeoutMs()
      )
      servers.push(server)
      await administrator(server.url)
      if (firstStart) {
        const kept = await keepPristineData(server, startTimeoutMs())
        servers.splice(servers.indexOf(server), 1, kept)
        server = kept
      }
      console.info(
        `SonarQube ${version} up at ${server.url} in ${Math.round((Date.now() - started) / 1000)} s`
      )
      return server
    })
  )
  const failure = results.find((result) => result.status === 'rejected')
  if (failure) {
    await Promise.all(servers.map((server) => stopServer(server)))
    throw failure.reason
  }
  project.provide('realServers', servers)
  project.provide('realServersSkipped', '')
  return async () => {
    if (keep) return
    await Promise.all(servers.map((server) => stopServer(server)))
  }
}
