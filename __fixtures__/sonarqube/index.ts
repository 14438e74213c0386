import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const load = (file: string): unknown => JSON.parse(readFileSync(path.join(here, file), 'utf8'))

/** The server's own example of `GET api/ce/task`: a SUCCESS task with warnings. */
export const taskExample = load('task-example.json') as {
  task: { id: string; analysisId: string; warnings: string[]; status: string }
}

/** The server's own example of `GET api/qualitygates/project_status`: ERROR, odd shapes. */
export const projectStatusExample = load('project_status-example.json') as {
  projectStatus: { status: string; conditions: Record<string, string>[] }
}

/** The server's own example of `GET api/project_analyses/search`: three analyses, newest first. */
export const projectAnalysesExample = load('project_analyses-search-example.json') as {
  analyses: { key: string; date: string; revision?: string }[]
}

/** The server's own example of `GET api/ce/component`: one task queued, the last one FAILED. */
export const componentTasksExample = load('ce-component-example.json') as {
  queue: { id: string; status: string }[]
  current: { id: string; status: string; errorMessage: string }
}

/** The server's own example of `GET api/project_branches/list`: a feature branch, then main. */
export const branchesExample = load('project_branches-list-example.json') as {
  branches: { name: string; isMain: boolean }[]
}

/** The server's own example of `GET api/hotspots/search`: three hotspots to review in one file. */
export const hotspotsExample = load('hotspots-search-example.json') as {
  paging: { total: number }
  hotspots: { key: string; message: string; line: number }[]
}
