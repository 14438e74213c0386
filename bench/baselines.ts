/**
 * What the benches run beside the built action (which `__fixtures__/built-action.ts` runs): the
 * step's environment every child of a bench gets, the floor, and SonarSource's script.
 */
import path from 'node:path'
import {
  REPO,
  runnerEnv,
  timeChild,
  type Exit,
  type RunnerFiles,
  type Workspace
} from '../__fixtures__/built-action.js'

/** The token the simulator demands, as Basic auth user. */
export const TOKEN = 'bench-token'

/** Where the scanner writes the report file, in a workspace's working directory. */
export const REPORT_FILE = '.scannerwork/report-task.txt'

export const FLOOR = path.join(REPO, 'bench/floor.mjs')

/**
 * The step's own variables in a bench, beside the runner's: HOME and the token. Nothing else
 * leaks in from the bench's environment (no NODE_OPTIONS, no proxy variables).
 */
export const STEP_ENV = { HOME: process.env['HOME'], SONAR_TOKEN: TOKEN }

/** The whole environment of a bench's child: every child gets the same one. */
export function benchEnv(files: RunnerFiles): Record<string, string | undefined> {
  return runnerEnv(files, STEP_ENV)
}

/** The floor: node plus the same two GETs, nothing else. */
export function runFloor(node: string, workspace: Workspace, ceTaskUrl: string): Promise<Exit> {
  return timeChild(node, [FLOOR, ceTaskUrl], { cwd: workspace.cwd, env: benchEnv(workspace) })
}

/** SonarSource's check-quality-gate.sh, started as its composite action does. */
export function runSonarSource(script: string, workspace: Workspace): Promise<Exit> {
  return timeChild('bash', [script, workspace.file(REPORT_FILE)], {
    cwd: workspace.cwd,
    env: benchEnv(workspace)
  })
}

/**
 * Where SonarSource's script is: `--sonarsource-script` or SONARSOURCE_SCRIPT. Its code is not
 * part of this repository; undefined (and a note on how to get it) when not given.
 */
export function sonarSourceScript(given: string | undefined): string | undefined {
  const script = given ?? process.env['SONARSOURCE_SCRIPT']
  if (script) return path.resolve(script)
  console.log(
    'SonarSource comparison skipped: no script given. To include it: git clone --depth 1 https://github.com/SonarSource/sonarqube-quality-gate-action ../sonarqube-quality-gate-action && pass --sonarsource-script ../sonarqube-quality-gate-action/script/check-quality-gate.sh (or set SONARSOURCE_SCRIPT).\n'
  )
  return undefined
}
