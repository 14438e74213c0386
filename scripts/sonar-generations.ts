/**
 * How each server generation differs, as the simulator plays it: the auth schemes it takes, the
 * version its scanner writes in report-task.txt, whether a finished task's warnings come without
 * being asked, and the shape of its quality gate reply. Facts from SonarQube's own web service
 * changelogs (api/ce/task, api/qualitygates/project_status) and documentation.
 */

export type Generation = '8.9' | '9.9' | '10.x' | '2025.x' | 'cloud'

export interface GenerationTraits {
  /** What `serverVersion=` says in the report file. */
  serverVersion: string
  /** Auth schemes the server takes: Bearer from 10.0 and on the cloud; Basic everywhere but the cloud. */
  auth: readonly ('basic' | 'bearer')[]
  /** api/ce/task sends a finished task's warnings without additionalFields=warnings (10.1+). */
  warningsAlways: boolean
  /** `organization=` in the report file: the cloud's scanners write it. */
  organization?: string
  /** The gate reply in this generation's shape, from the simulator's generation-neutral one. */
  gateShape(projectStatus: Record<string, unknown>): Record<string, unknown>
}

const PERIOD = { mode: 'PREVIOUS_VERSION', date: '2025-01-15T10:00:00+0000' }

/** `periods` (deprecated in 8.5, removed in 10.0) and the `periodIndex` of new-code conditions. */
function withPeriods(projectStatus: Record<string, unknown>): Record<string, unknown> {
  const conditions = Array.isArray(projectStatus['conditions']) ? projectStatus['conditions'] : []
  return {
    ...projectStatus,
    periods: [{ index: 1, ...PERIOD }],
    conditions: conditions.map((condition: Record<string, unknown>) =>
      String(condition['metricKey']).startsWith('new_')
        ? { ...condition, periodIndex: 1 }
        : condition
    )
  }
}

/** Without the fields a generation does not know. */
function without(projectStatus: Record<string, unknown>, ...keys: string[]) {
  return Object.fromEntries(Object.entries(projectStatus).filter(([key]) => !keys.includes(key)))
}

export const GENERATIONS: Record<Generation, GenerationTraits> = {
  '8.9': {
    serverVersion: '8.9.10.61524',
    auth: ['basic'],
    warningsAlways: false,
    // period from 8.5 beside periods; no caycStatus before 9.9.
    gateShape: (status) => withPeriods({ ...without(status, 'caycStatus'), period: PERIOD })
  },
  '9.9': {
    serverVersion: '9.9.4.87374',
    auth: ['basic'],
    warningsAlways: false,
    gateShape: (status) => withPeriods({ ...status, period: PERIOD })
  },
  '10.x': {
    serverVersion: '10.7.0.96327',
    auth: ['basic', 'bearer'],
    warningsAlways: true,
    gateShape: (status) => ({ ...status, period: PERIOD })
  },
  '2025.x': {
    serverVersion: '2025.1.0.102418',
    auth: ['basic', 'bearer'],
    warningsAlways: true,
    gateShape: (status) => ({ ...status, period: { ...PERIOD, mode: 'previous_version' } })
  },
  cloud: {
    serverVersion: '8.0.0.65736',
    auth: ['bearer'],
    warningsAlways: false,
    organization: 'demo-org',
    gateShape: (status) => withPeriods(without(status, 'period'))
  }
}
