import { checkQualityGates, type AnalysesDependencies } from '../../src/gate/check-analyses.js'
import type { GateResult } from '../../src/gate/check.js'
import type { Settings } from '../../src/settings.js'

/**
 * The check of settings that name exactly one analysis, as the action sees it: its gate, or its
 * failure thrown.
 */
export async function checkOneQualityGate(
  settings: Settings,
  deps: AnalysesDependencies
): Promise<GateResult> {
  const outcomes = await checkQualityGates(settings, deps)
  const [only] = outcomes
  if (outcomes.length !== 1 || !only) {
    throw new Error(`expected one analysis, found ${outcomes.length}`)
  }
  if (!only.read) throw only.error
  return only.result
}
