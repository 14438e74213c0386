import { readSettings, withVariables, type Settings } from '../settings.js'
import { COMMAND_NAMES } from './names.js'
import { commandSettings, type CommandLine } from './options.js'
import { readRootCertFile } from './root-cert-file.js'

/**
 * The command line (and SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT) as Settings; the CA
 * certificate of --root-cert-file is read first, relative to `cwd`.
 *
 * @example const settings = await readCommandSettings(line, process.env, process.cwd())
 */
export async function readCommandSettings(
  line: Extract<CommandLine, { kind: 'check' }>,
  env: NodeJS.ProcessEnv,
  cwd: string
): Promise<Settings> {
  const rootCert = line.rootCertFile ? await readRootCertFile(line.rootCertFile, cwd) : undefined
  return readSettings(withVariables(commandSettings(line, rootCert), COMMAND_NAMES, env))
}
