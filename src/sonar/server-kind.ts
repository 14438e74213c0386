/**
 * Which server the action talks to, as far as it changes what the action sends: SonarQube Cloud
 * (sonarcloud.io, sonarqube.us) or a SonarQube server of a known version. The report file tells:
 * its host, its `organization` (written only for SonarQube Cloud) and its `serverVersion`.
 */

export interface ServerKind {
  /** SonarQube Cloud (formerly SonarCloud). */
  cloud: boolean
  /** A SonarQube server's major and minor version; undefined when unknown or on the cloud. */
  version: readonly [major: number, minor: number] | undefined
}

const CLOUD_HOSTS = ['sonarcloud.io', 'sonarqube.us']

/**
 * @example serverKind(new URL('https://sonar.example.com'), { serverVersion: '9.9.4.87374' }) // { cloud: false, version: [9, 9] }
 */
export function serverKind(
  serverUrl: URL,
  report: { serverVersion?: string; organization?: string } = {}
): ServerKind {
  const host = serverUrl.hostname.toLowerCase()
  const cloud =
    CLOUD_HOSTS.some((cloudHost) => host === cloudHost || host.endsWith(`.${cloudHost}`)) ||
    report.organization !== undefined
  const version = /^(\d{1,4})\.(\d{1,4})(?:\.|$)/.exec(report.serverVersion ?? '')
  return {
    cloud,
    version: !cloud && version ? [Number(version[1]), Number(version[2])] : undefined
  }
}

/** true when the server's version is known to be at least `major.minor`. */
export function atLeast(kind: ServerKind, major: number, minor: number): boolean {
  if (!kind.version) return false
  const [hasMajor, hasMinor] = kind.version
  return hasMajor > major || (hasMajor === major && hasMinor >= minor)
}

/**
 * How the token is sent first: `Bearer` on SonarQube Cloud and SonarQube 10.0 and later, which
 * document it; Basic (the token as user, empty password) on 9.x and older and when the version is
 * unknown, since every version takes it. The client tries the other once after a 401.
 */
export function firstAuthScheme(kind: ServerKind): 'bearer' | 'basic' {
  return kind.cloud || atLeast(kind, 10, 0) ? 'bearer' : 'basic'
}

/**
 * Whether `api/ce/task` must be asked for a finished task's warnings
 * (`additionalFields=warnings`): on the cloud and on SonarQube before 10.1, which send them only
 * when asked. 10.1 and later send them always; a server of unknown version is not asked (most
 * are recent, and the report file, which names the version, is the usual source).
 */
export function asksForTaskWarnings(kind: ServerKind): boolean {
  return kind.cloud || (kind.version !== undefined && !atLeast(kind, 10, 1))
}
