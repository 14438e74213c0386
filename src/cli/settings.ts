import type { Log } from '../log.js'
import { readSettings, withVariables, type Settings } from '../settings.js'
import { withTheCisAnalysis } from '../ci/ci-analysis.js'
import { COMMAND_NAMES } from './names.js'
import { commandSettings, type CheckLine } from './options.js'
import { readRootCertFile } from './root-cert-file.js'

/**
 * The command line (and SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT) as Settings; the CA
 * certificate of --root-cert-file is read first, relative to `cwd`. With --project alone, the
 * branch or pull request and the commit come from the CI it runs in (one line of `log` says so);
 * without --project, --commit is the run's commit (Settings.runCommit), not the analysis's.
 *
 * @example const settings = await readCommandSettings(line, process.env, process.cwd(), log)
 */
export async function readCommandSettings(
  line: CheckLine,
  env: NodeJS.ProcessEnv,
  cwd: string,
  log: Log
): Promise<Settings> {
  const rootCert = line.rootCertFile ? await readRootCertFile(line.rootCertFile, cwd) : undefined
  const settings = readSettings(withVariables(commandSettings(line, rootCert), COMMAND_NAMES, env))
  // Without --project, --commit does not choose the analysis: it is the commit decorated, which
  // the check compares with the one the server records for the analysis.
  if (line.projects.length === 0 && line.commit) return { ...settings, runCommit: line.commit }
  return withTheCisAnalysis(settings, env, log)
}
