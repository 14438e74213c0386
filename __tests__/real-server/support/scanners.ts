/**
 * SonarSource's scanners, as users run them: the Maven plugin
 * (`org.sonarsource.scanner.maven:sonar-maven-plugin`, writes `target/sonar/report-task.txt`)
 * and the scanner CLI (`org.sonarsource.scanner.cli:sonar-scanner-cli`, a self-contained jar,
 * writes `.scannerwork/report-task.txt`), both fetched through Maven. They analyse on the Java
 * that runs them: no JRE is fetched from the server.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { installedJavas } from './java.js'
import { fetchArtifact, maven } from './maven.js'
import { run, type Finished } from './processes.js'
import { HarnessFailure } from './failure.js'
import { createProject, type WebApi } from './web-api.js'

export const MAVEN_PLUGIN = 'org.sonarsource.scanner.maven:sonar-maven-plugin:5.8.0.7211'
const SCANNER_CLI_VERSION = '8.1.0.6389'

/** One analysis submitted: the scanner's run and its report file's fields. */
export interface Scan extends Finished {
  /** The report file's path. */
  reportFile: string
  /** Its fields: projectKey, serverUrl, ceTaskId, dashboardUrl... */
  report: Record<string, string>
}

export interface ScanOptions {
  /** The folder analysed. */
  cwd: string
  serverUrl: string
  /** The server's version (`10.7.0.96327`): it decides the scanner's Java and its token property. */
  version: string
  token: string
  projectKey: string
  /** More `sonar.*` properties, e.g. `{ 'sonar.qualitygate.wait': 'true' }`. */
  properties?: Record<string, string>
  /** Whether a non-zero exit fails (true by default); the peer's failed gate exits 1. */
  mustSucceed?: boolean
}

export interface MavenScanOptions extends ScanOptions {
  /**
   * `verify` (the default) builds and tests with JaCoCo, for coverage; `compile` only compiles,
   * for an analysis whose coverage no test reads (a baseline).
   */
  phase?: 'verify' | 'compile'
}

/** The server generation's major version: 9, 10, 26... */
const majorOf = (version: string) => Number(version.split('.')[0])

/**
 * The Java the scanners run on: the oldest installed that the server accepts. Community Build
 * 26.9 refuses a scanner on Java 17 ("Java 17 is not supported. Please upgrade to Java 21");
 * 9.9 and 10.x take 17.
 */
function scannerEnv(version: string): NodeJS.ProcessEnv {
  const oldest = majorOf(version) >= 25 ? 21 : 17
  const java = installedJavas()
    .filter((candidate) => candidate.feature >= oldest)
    .sort((a, b) => a.feature - b.feature)[0]
  if (!java)
    throw new HarnessFailure(
      'run a scanner',
      `a scanner for SonarQube ${version} needs Java ${oldest} or later: install a JDK`
    )
  return {
    ...process.env,
    JAVA_HOME: java.home,
    PATH: `${path.join(java.home, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
    SONAR_TOKEN: undefined,
    SONAR_HOST_URL: undefined
  }
}

/**
 * The scanner's properties. 9.9 takes the token only as `sonar.login`: the scanner sends
 * `sonar.token` as a Bearer token, which 9.9 refuses ("Not authorized").
 */
function properties(options: ScanOptions): string[] {
  return Object.entries({
    'sonar.host.url': options.serverUrl,
    [majorOf(options.version) < 10 ? 'sonar.login' : 'sonar.token']: options.token,
    'sonar.projectKey': options.projectKey,
    'sonar.scanner.skipJreProvisioning': 'true',
    ...options.properties
  }).map(([key, value]) => `-D${key}=${value}`)
}

/**
 * Builds the Java sample (and tests it with JaCoCo, unless `phase` is `compile`), then analyses
 * it with the Maven plugin.
 */
export async function scanWithMaven(options: MavenScanOptions): Promise<Scan> {
  const step = `analyse ${options.projectKey} with ${MAVEN_PLUGIN}`
  const finished = await run(
    'mvn',
    [
      '-B',
      '--no-transfer-progress',
      options.phase ?? 'verify',
      `${MAVEN_PLUGIN}:sonar`,
      ...properties(options)
    ],
    {
      cwd: options.cwd,
      env: scannerEnv(options.version),
      step,
      timeoutMs: 10 * 60_000,
      missingHint: 'install Maven 3'
    }
  )
  return scanned(step, finished, path.join(options.cwd, 'target/sonar/report-task.txt'), options)
}

/** Analyses the folder with the scanner CLI's jar. */
export async function scanWithCli(options: ScanOptions): Promise<Scan> {
  const jar = await fetchArtifact({
    groupId: 'org.sonarsource.scanner.cli',
    artifactId: 'sonar-scanner-cli',
    version: SCANNER_CLI_VERSION,
    packaging: 'jar'
  })
  const env = scannerEnv(options.version)
  const step = `analyse ${options.projectKey} with the scanner CLI ${SCANNER_CLI_VERSION}`
  const finished = await run(
    path.join(env['JAVA_HOME'] ?? '', 'bin/java'),
    [
      '-cp',
      jar,
      `-Dproject.home=${options.cwd}`,
      'org.sonarsource.scanner.cli.Main',
      ...properties(options)
    ],
    { cwd: options.cwd, env, step, timeoutMs: 10 * 60_000 }
  )
  return scanned(step, finished, path.join(options.cwd, '.scannerwork/report-task.txt'), options)
}

function scanned(step: string, finished: Finished, reportFile: string, options: ScanOptions): Scan {
  if ((options.mustSucceed ?? true) && finished.exitCode !== 0) {
    throw new HarnessFailure(
      step,
      `the scanner exited with ${finished.exitCode ?? finished.signal}`,
      finished.output.split('\n').slice(-40)
    )
  }
  if (!existsSync(reportFile)) {
    throw new HarnessFailure(
      step,
      `no report file at ${reportFile}`,
      finished.output.split('\n').slice(-40)
    )
  }
  const report = Object.fromEntries(
    readFileSync(reportFile, 'utf8')
      .split(/\r?\n/)
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  )
  return { ...finished, reportFile, report }
}

/** Runs Maven to warm its cache of the plugins the sample needs (no server). */
export function warmMaven(cwd: string) {
  return maven(['--no-transfer-progress', '-q', 'verify'], {
    cwd,
    step: 'build the Java sample',
    timeoutMs: 10 * 60_000
  })
}

/**
 * An analysis of `cwd` submitted while the compute engine is paused (`api/ce/pause`): its task
 * waits, PENDING, until `api/ce/resume`. The project is made first; the task's id.
 */
export async function pendingScan(admin: WebApi, options: ScanOptions): Promise<string> {
  await createProject(admin, options.projectKey)
  await admin.post('api/ce/pause')
  const scan = await scanWithCli(options)
  return scan.report['ceTaskId'] ?? ''
}
