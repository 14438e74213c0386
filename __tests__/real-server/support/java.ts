/**
 * Which Java runs a SonarQube distribution: the one its launcher was compiled for (the class file
 * version of `org.sonar.application.App`: 61 is Java 17, 65 is Java 21) or the nearest newer one
 * installed, looked for in JAVA_HOME, under /usr/lib/jvm and on PATH.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { HarnessFailure } from './failure.js'

/** A Java installation: its home and its feature version (17, 21, 25...). */
export interface Java {
  home: string
  feature: number
  /** `<home>/bin/java`. */
  binary: string
}

/** The class file major version of Java 8; later releases add one each. */
const JAVA_8_CLASS_VERSION = 52

/**
 * The Java feature version a class file needs, from its header (magic, minor, major).
 *
 * @example javaOfClassFile(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 61])) // 17
 */
export function javaOfClassFile(header: Buffer): number {
  if (header.length < 8 || header.readUInt32BE(0) !== 0xcafebabe) {
    throw new Error('not a Java class file')
  }
  return header.readUInt16BE(6) - JAVA_8_CLASS_VERSION + 8
}

/**
 * The feature version of a Java home, from its `release` file (`JAVA_VERSION="17.0.15"`), else
 * by asking `java -version`.
 */
export function featureOf(home: string): number | undefined {
  const release = path.join(home, 'release')
  let version: string | undefined
  if (existsSync(release)) {
    version = /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(release, 'utf8'))?.[1]
  }
  if (!version) {
    try {
      const said = execFileSync(path.join(home, 'bin/java'), ['-version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 20_000
      })
      version = /version "([^"]+)"/.exec(said)?.[1]
    } catch (error) {
      version = /version "([^"]+)"/.exec(String((error as { stderr?: string }).stderr ?? ''))?.[1]
    }
  }
  if (!version) return undefined
  const [first, second] = version.split('.').map(Number)
  return first === 1 ? second : first
}

/** Every Java home found: JAVA_HOME, each folder of /usr/lib/jvm, the `java` on PATH. */
export function installedJavas(env: NodeJS.ProcessEnv = process.env): Java[] {
  const homes = new Set<string>()
  const add = (home: string | undefined) => {
    if (!home || !existsSync(path.join(home, 'bin/java'))) return
    homes.add(realpathSync(home))
  }
  add(env['JAVA_HOME'])
  const jvm = '/usr/lib/jvm'
  if (existsSync(jvm)) for (const entry of readdirSync(jvm)) add(path.join(jvm, entry))
  for (const directory of (env['PATH'] ?? '').split(path.delimiter)) {
    const java = path.join(directory, 'java')
    if (existsSync(java)) add(path.dirname(path.dirname(realpathSync(java))))
  }
  return [...homes].flatMap((home) => {
    const feature = featureOf(home)
    return feature ? [{ home, feature, binary: path.join(home, 'bin/java') }] : []
  })
}

/**
 * The Java to run a distribution on: the oldest installed that is at least `needed` (a newer Java
 * than a server was built for is the likelier to refuse it).
 */
export function javaFor(needed: number, step: string, javas = installedJavas()): Java {
  const fitting = javas
    .filter((java) => java.feature >= needed)
    .sort((a, b) => a.feature - b.feature)
  const chosen = fitting[0]
  if (chosen) return chosen
  const found = javas.map((java) => `Java ${java.feature} (${java.home})`).join(', ') || 'none'
  throw new HarnessFailure(
    step,
    `it needs Java ${needed} or later; found ${found}. Install a JDK ${needed} under /usr/lib/jvm or point JAVA_HOME at one.`
  )
}
