/**
 * The product against a real server: the built action (`dist/index.js`, in the runner's
 * environment) and the built command (`dist/cli.js`), run in a sample's checkout, and the
 * server's own answers to compare them with.
 */
import { onTestFinished } from 'vitest'
import {
  CLI_ENTRY,
  createWorkspace,
  nodeBinary,
  runBuiltAction,
  timeChild,
  type ActionRun,
  type Exit
} from '../../../__fixtures__/built-action.js'
import { setTimeout as sleep } from 'node:timers/promises'
import type { WebApi } from './web-api.js'

/** Runs the built action in `cwd` with these inputs; the token goes as `sonarToken`. */
export async function runActionOn(
  cwd: string,
  inputs: Record<string, string>,
  options: { env?: Record<string, string>; killAfterMs?: number } = {}
): Promise<ActionRun> {
  const workspace = await createWorkspace('real-action-')
  onTestFinished(() => workspace.remove())
  return runBuiltAction({
    node: nodeBinary(),
    cwd,
    outputFile: workspace.outputFile,
    summaryFile: workspace.summaryFile,
    inputs,
    env: options.env,
    killAfterMs: options.killAfterMs ?? 180_000
  })
}

/** Runs the built command in `cwd` with `args`, SONAR_TOKEN and SONAR_HOST_URL from `env`. */
export function runCommandOn(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  killAfterMs = 180_000
): Promise<Exit> {
  return timeChild(nodeBinary(), [CLI_ENTRY, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    killAfterMs
  })
}

/** A compute engine task as `api/ce/task` shows it. */
export interface CeTask {
  id: string
  status: 'PENDING' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'CANCELED'
  analysisId?: string
  errorMessage?: string
  executedAt?: string
}

/** The task, as the server says it now. */
export async function ceTask(api: WebApi, id: string): Promise<CeTask> {
  return (await api.get<{ task: CeTask }>('api/ce/task', { id })).task
}

/** Polls the task until it ends (bounded); the statuses seen on the way, in order, once each. */
export async function taskEnd(
  api: WebApi,
  id: string,
  timeoutMs = 300_000
): Promise<{ task: CeTask; seen: string[] }> {
  const seen: string[] = []
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const task = await ceTask(api, id)
    if (seen.at(-1) !== task.status) seen.push(task.status)
    if (!['PENDING', 'IN_PROGRESS'].includes(task.status)) return { task, seen }
    await sleep(200)
  }
  throw new Error(
    `task ${id} did not end within ${timeoutMs / 1000} s; it went through ${seen.join(', ')}`
  )
}

/** The gate of an analysis, as `api/qualitygates/project_status` answers it. */
export interface ProjectStatus {
  status: string
  conditions: {
    status: string
    metricKey: string
    comparator: string
    errorThreshold?: string
    actualValue?: string
  }[]
}

export async function projectStatus(api: WebApi, analysisId: string): Promise<ProjectStatus> {
  return (
    await api.get<{ projectStatus: ProjectStatus }>('api/qualitygates/project_status', {
      analysisId
    })
  ).projectStatus
}

/**
 * Every address on `url`'s host found in `texts` (outputs, summaries, logs), each once, with the
 * HTML entities of a summary's links undone.
 */
export function linksTo(url: string, texts: string[]): string[] {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`${escaped}/[^\\s"'<>)\\]]*`, 'g')
  const links = texts.flatMap((text) => text.replace(/&amp;/g, '&').match(pattern) ?? [])
  return [...new Set(links.map((link) => link.replace(/[.,;]+$/, '')))]
}

/** The HTTP status a real server answers each address with, for a signed-in user. */
export async function statusesOf(api: WebApi, links: string[]): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {}
  for (const link of links) {
    const response = await fetch(link, {
      headers: { authorization: api.authorization },
      signal: AbortSignal.timeout(60_000)
    })
    await response.body?.cancel()
    statuses[link] = response.status
  }
  return statuses
}
