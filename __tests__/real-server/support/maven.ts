/**
 * Maven, the one way the harness downloads anything: SonarQube's distribution and the scanner
 * CLI's jar come through `dependency:get`, so the local Maven repository is the cache of every
 * download, once per machine, and whatever mirror the machine's Maven settings name is used.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { HarnessFailure } from './failure.js'
import { lastLines, run, runOk } from './processes.js'

/** A Maven artifact: `groupId:artifactId:version[:packaging]`. */
export interface Artifact {
  groupId: string
  artifactId: string
  version: string
  packaging: 'jar' | 'zip'
}

const MAVEN_HINT = 'install Maven 3 (e.g. apt-get install maven) and make sure `mvn` is on PATH'

/** A download may take this long (a distribution is 300 to 1,000 MB). */
const DOWNLOAD_MS = 15 * 60_000

/**
 * The local repository, from `mvn help:evaluate`, else `~/.m2/repository`.
 */
export async function localRepository(env = process.env): Promise<string> {
  const finished = await run(
    'mvn',
    ['-q', '-B', 'help:evaluate', '-Dexpression=settings.localRepository', '-DforceStdout'],
    { step: 'find the local Maven repository', timeoutMs: 180_000, env, missingHint: MAVEN_HINT }
  )
  const said = finished.output.trim().split(/\r?\n/).pop()?.trim()
  if (finished.exitCode === 0 && said && path.isAbsolute(said)) return said
  return path.join(homedir(), '.m2/repository')
}

/** Where an artifact lies in a local repository. */
export function artifactPath(repository: string, artifact: Artifact): string {
  const { groupId, artifactId, version, packaging } = artifact
  return path.join(
    repository,
    ...groupId.split('.'),
    artifactId,
    version,
    `${artifactId}-${version}.${packaging}`
  )
}

/**
 * The artifact's file in the local repository, downloaded through `mvn dependency:get` when it
 * is not there yet.
 */
export async function fetchArtifact(artifact: Artifact, env = process.env): Promise<string> {
  const repository = await localRepository(env)
  const file = artifactPath(repository, artifact)
  if (existsSync(file)) return file
  const coordinates = `${artifact.groupId}:${artifact.artifactId}:${artifact.version}:${artifact.packaging}`
  const step = `download ${coordinates} through Maven`
  const finished = await run(
    'mvn',
    ['-q', '-B', 'dependency:get', `-Dartifact=${coordinates}`, '-Dtransitive=false'],
    { step, timeoutMs: DOWNLOAD_MS, env, missingHint: MAVEN_HINT }
  )
  if (finished.exitCode !== 0 || !existsSync(file)) {
    throw new HarnessFailure(
      step,
      'Maven could not download it: check the network, the proxy and the mirror in ~/.m2/settings.xml, and that this version is published',
      lastLines(finished.output, 20)
    )
  }
  return file
}

/** Runs Maven with `args` in `cwd`, failing the step unless it exits 0. */
export function maven(
  args: string[],
  options: { cwd: string; step: string; timeoutMs: number; env?: NodeJS.ProcessEnv }
) {
  return runOk('mvn', ['-B', ...args], { ...options, missingHint: MAVEN_HINT })
}
