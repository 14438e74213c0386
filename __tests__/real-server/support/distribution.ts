/**
 * A SonarQube distribution on this machine: downloaded through Maven
 * (`org.sonarsource.sonarqube:sonar-application`, packaging zip), unpacked once into the cache,
 * given to the server's user, with the Java it needs.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { HarnessFailure } from './failure.js'
import { javaFor, javaOfClassFile, type Java } from './java.js'
import { fetchArtifact } from './maven.js'
import { runOk } from './processes.js'
import { giveTo, type ServerUser } from './service-user.js'

export interface Distribution {
  version: string
  /** The unpacked `sonarqube-<version>` folder (SONAR_HOME). */
  home: string
  /** `lib/sonar-application-<version>.jar`, the launcher `sonar.sh` runs. */
  launcher: string
  /** The Java it runs on. */
  java: Java
}

/** Written last into an unpacked folder: its absence means an unpacking was cut short. */
const COMPLETE = '.unpacked'

/**
 * The distribution of `version`, unpacked in `user.cache`, downloading and unpacking it first when
 * it is not there.
 *
 * @example const distribution = await distributionOf('10.7.0.96327', serverUser())
 */
export async function distributionOf(version: string, user: ServerUser): Promise<Distribution> {
  const folder = path.join(user.cache, version)
  const home = path.join(folder, `sonarqube-${version}`)
  if (!existsSync(path.join(folder, COMPLETE))) {
    const zip = await fetchArtifact({
      groupId: 'org.sonarsource.sonarqube',
      artifactId: 'sonar-application',
      version,
      packaging: 'zip'
    })
    await rm(folder, { recursive: true, force: true })
    await runOk('unzip', ['-q', zip, '-d', folder], {
      step: `unpack SonarQube ${version}`,
      timeoutMs: 10 * 60_000,
      missingHint: 'install unzip (e.g. apt-get install unzip)'
    })
    if (!existsSync(home)) {
      throw new HarnessFailure(
        `unpack SonarQube ${version}`,
        `the zip holds no sonarqube-${version} folder`
      )
    }
    giveTo(user, folder)
    writeFileSync(path.join(folder, COMPLETE), `${new Date().toISOString()}\n`)
  }
  setAsideUnusedPlugins(folder, home)
  const launcher = path.join(home, 'lib', `sonar-application-${version}.jar`)
  const needed = javaOfClassFile(classHeader(launcher, 'org/sonar/application/App.class'))
  return { version, home, launcher, java: javaFor(needed, `run SonarQube ${version}`) }
}

/**
 * The analysers the samples need (Java with JaCoCo, Python) and the Clean as You Code plugin.
 * The others are set aside: every analyser's rules are registered and indexed at start and
 * downloaded by every scanner, which on a busy machine costs minutes of each start and seconds of
 * each analysis.
 */
const KEPT_PLUGINS = /^sonar-(java|java-symbolic-execution|jacoco|python|cayc)-plugin-/

function setAsideUnusedPlugins(folder: string, home: string): void {
  const plugins = path.join(home, 'lib/extensions')
  const aside = path.join(folder, 'unused-plugins')
  mkdirSync(aside, { recursive: true })
  for (const plugin of readdirSync(plugins)) {
    if (plugin.endsWith('.jar') && !KEPT_PLUGINS.test(plugin)) {
      renameSync(path.join(plugins, plugin), path.join(aside, plugin))
    }
  }
}

/** The first 8 bytes of one class of a jar, read with unzip. */
function classHeader(jar: string, entry: string): Buffer {
  try {
    return execFileSync('unzip', ['-p', jar, entry], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024
    }).subarray(0, 8)
  } catch (error) {
    throw new HarnessFailure(`read ${entry} of ${path.basename(jar)}`, String(error))
  }
}
