import type { Task } from '../src/sonar/types.js'

/** A task as a poll returns it: SUCCESS ones name their analysis; `fields` change the rest. */
export const task = (status: string, fields: Partial<Task> = {}): Task => ({
  id: 'AYTask1',
  status,
  analysisId: status === 'SUCCESS' ? 'AYAnalysis1' : undefined,
  errorMessage: undefined,
  warnings: [],
  componentKey: 'p',
  ...fields
})
