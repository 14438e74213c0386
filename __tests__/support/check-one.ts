import { checkQualityGates, type AnalysesDependencies } from '../../src/gate/check-analyses.js'
import type { GateResult } from '../../src/gate/check.js'
import { overallDeadline } from '../../src/deadline.js'
import type { Settings } from '../../src/settings.js'
import { inActionWords } from '../../__fixtures__/sinks.js'

/**
 * The check of settings that name exactly one analysis, as the action sees it: its gate, or its
 * failure thrown (the check's own, or the analysis's), its message in the action's words (the
 * core's messages name settings by key). The deadline, unless given, is the settings' time-out
 * from `startedAt`, as the edges compute it.
 */
export async function checkOneQualityGate(
  settings: Settings,
  deps: Omit<AnalysesDependencies, 'deadline'> & { deadline?: number }
): Promise<GateResult> {
  const deadline = deps.deadline ?? overallDeadline(deps.startedAt, settings.timeoutMs)
  const outcomes = await checkQualityGates(settings, { ...deps, deadline }).catch(
    (error: Error) => {
      throw inTheActionsWords(error)
    }
  )
  const [only] = outcomes
  if (outcomes.length !== 1 || !only) {
    throw new Error(`expected one analysis, found ${outcomes.length}`)
  }
  if (!only.read) throw inTheActionsWords(only.error)
  return only.result
}

/** The error, its message said as the action says it. */
function inTheActionsWords(error: Error): Error {
  return Object.assign(error, { message: inActionWords(error) })
}
