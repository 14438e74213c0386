/**
 * Who runs SonarQube. Its search engine (Elasticsearch) refuses to run as root, so under root the
 * harness runs the server as an unprivileged system user it creates once, whose home holds the
 * unpacked distributions (root's own home is usually closed to other users). Under any other
 * user the server runs as that user, with the distributions in its cache folder.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { HarnessFailure } from './failure.js'

/** The system user that runs the servers when the tests run as root. */
export const SERVICE_USER = 'sonar-gate-check'

/** Its home, where the distributions are unpacked when the tests run as root. */
const SERVICE_HOME = '/var/lib/sonar-quality-gate-check'

export interface ServerUser {
  /** Set when the server must run as another user than this process. */
  uid?: number
  gid?: number
  /** The folder of unpacked distributions and run folders, writable by that user. */
  cache: string
}

/**
 * The user the servers run as and their cache: `REAL_SERVER_CACHE` when set, else the service
 * user's home under root, else `${XDG_CACHE_HOME:-~/.cache}/sonar-quality-gate-check/real-server`.
 */
export function serverUser(env: NodeJS.ProcessEnv = process.env): ServerUser {
  if (process.getuid?.() !== 0) {
    const cache =
      env['REAL_SERVER_CACHE'] ??
      path.join(
        env['XDG_CACHE_HOME'] ?? path.join(homedir(), '.cache'),
        'sonar-quality-gate-check/real-server'
      )
    mkdirSync(cache, { recursive: true })
    return { cache }
  }
  const step = `create the unprivileged user ${SERVICE_USER} (Elasticsearch refuses root)`
  let ids = idsOf(SERVICE_USER)
  if (!ids) {
    try {
      execFileSync(
        'useradd',
        [
          '--system',
          '--home-dir',
          SERVICE_HOME,
          '--create-home',
          '--shell',
          '/usr/sbin/nologin',
          SERVICE_USER
        ],
        { stdio: 'pipe', timeout: 30_000 }
      )
    } catch (error) {
      // Another run started side by side may have created it first.
      if (idsOf(SERVICE_USER)) return serverUser(env)
      throw new HarnessFailure(
        step,
        `useradd failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}; create the user by hand or run the tests as a non-root user`
      )
    }
    ids = idsOf(SERVICE_USER)
    if (!ids) throw new HarnessFailure(step, 'useradd succeeded but the user cannot be found')
  }
  const cache = env['REAL_SERVER_CACHE'] ?? path.join(SERVICE_HOME, 'real-server')
  mkdirSync(cache, { recursive: true })
  // The folder alone: what is in it is given to the user where it is made (giveTo), and runs of
  // other versions side by side delete their own folders in it meanwhile.
  execFileSync('chown', [`${ids.uid}:${ids.gid}`, cache], { stdio: 'pipe', timeout: 30_000 })
  return { ...ids, cache }
}

/** Gives a folder, recursively, to the server's user (when it is another user). */
export function giveTo(user: ServerUser, folder: string): void {
  if (user.uid === undefined || user.gid === undefined) return
  chown(folder, { uid: user.uid, gid: user.gid })
}

function chown(folder: string, ids: { uid: number; gid: number }): void {
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, folder], {
    stdio: 'pipe',
    timeout: 120_000
  })
}

function idsOf(user: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: 'pipe' }).trim())
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: 'pipe' }).trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}
