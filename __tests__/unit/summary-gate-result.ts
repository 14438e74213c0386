import type { GateResult } from '../../src/gate/check.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { decodeProjectStatus, type Condition } from '../../src/sonar/types.js'
import { projectStatusExample } from '../../__fixtures__/sonarqube/index.js'

export const SERVER = 'https://sonar.example.com/'

/** The result of a check of the server's own project_status example, with `fields` changed. */
export function gateResult(fields: Partial<GateResult> = {}): GateResult {
  const gate = decodeProjectStatus(projectStatusExample)
  return {
    status: gate.status,
    qualityGateStatus: 'FAILED',
    analysisId: 'AYAnalysis1',
    taskId: 'AYTask1',
    serverUrl: SERVER,
    dashboardUrl: 'https://sonar.example.com/dashboard?id=my-project',
    projectKey: 'my-project',
    conditions: evaluateConditions(gate.conditions),
    taskWarnings: [],
    elapsedMs: 4200,
    ...fields
  }
}

/** A condition as the decoder makes it, an ERROR on new coverage unless `fields` say otherwise. */
export function condition(fields: Partial<Condition> = {}): Condition {
  return {
    status: 'ERROR',
    metricKey: 'new_coverage',
    comparator: 'LT',
    errorThreshold: '85',
    warningThreshold: undefined,
    actualValue: '82.5',
    periodIndex: undefined,
    ...fields
  }
}
