/**
 * The simulator held to real servers: for each SonarQube version whose replies were recorded
 * (__fixtures__/sonarqube/real/<version>/, by scripts/real-server/record-replies.ts), the
 * simulator's generation that claims to play it is asked the same requests, and each reply must
 * have the recorded one's status and structure: the same field paths with the same JSON types,
 * and enum-like fields with values the server sends (reply-shape.ts). Literal values differ.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Generation } from '../../__fixtures__/simulator/sonar-generations.js'
import {
  commitSha,
  MAIN_BRANCH,
  SAMPLE_FILES,
  scenario,
  Simulator,
  type Analysis
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { sampleHotspots } from '../../__fixtures__/simulator/sonar-measures.js'
import type { RecordedReply } from '../../scripts/real-server/record-replies.js'
import { authorization } from '../../src/sonar/authorization.js'
import { firstAuthScheme, serverKind } from '../../src/sonar/server-kind.js'
import { shapeDifferences, shapeOf } from '../support/reply-shape.js'

const REAL = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../__fixtures__/sonarqube/real'
)

/** The requests the simulator does not serve, since the product never sends them. */
const NOT_PLAYED = new Set([
  'server-version',
  'system-status',
  'authentication-validate',
  'ce-activity'
])

/** The simulator's generation that claims to play a server version. */
function generationOf(version: string): Generation {
  const major = Number(version.split('.')[0])
  if (major === 9) return '9.9'
  if (major === 10) return '10.x'
  if (major >= 25) return '2025.x'
  throw new Error(`No simulator generation claims SonarQube ${version}.`)
}

/** The scenario the simulator plays for each generation, as the e2e tests run it. */
const SCENARIO_OF: Partial<Record<Generation, string>> = {
  '9.9': 'sonarqube-9.9',
  '10.x': 'sonarqube-10',
  '2025.x': 'sonarqube-2025'
}

/**
 * Values the server's sources define for enum-like fields beyond those the recorded project
 * happened to show (by path, any endpoint).
 */
const DOCUMENTED: Record<string, readonly string[]> = {
  'task.status': ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'CANCELED'],
  'current.status': ['SUCCESS', 'FAILED', 'CANCELED'],
  'queue[].status': ['PENDING', 'IN_PROGRESS'],
  'projectStatus.status': ['OK', 'ERROR'],
  'projectStatus.conditions[].status': ['OK', 'ERROR'],
  'projectStatus.conditions[].comparator': ['GT', 'LT'],
  'projectStatus.caycStatus': ['compliant', 'non-compliant', 'over-compliant'],
  'issues[].severity': ['BLOCKER', 'CRITICAL', 'MAJOR', 'MINOR', 'INFO'],
  'issues[].type': ['BUG', 'VULNERABILITY', 'CODE_SMELL'],
  'issues[].impacts[].softwareQuality': ['MAINTAINABILITY', 'RELIABILITY', 'SECURITY'],
  'issues[].impacts[].severity': ['HIGH', 'MEDIUM', 'LOW'],
  'hotspots[].vulnerabilityProbability': ['HIGH', 'MEDIUM', 'LOW']
}

/** The software qualities' severities BLOCKER and INFO, added in 10.8. */
const DOCUMENTED_FROM_10_8: Record<string, readonly string[]> = {
  'issues[].impacts[].severity': ['BLOCKER', 'HIGH', 'MEDIUM', 'LOW', 'INFO']
}

interface Recorded extends RecordedReply {
  name: string
}

function recordedVersions(): { version: string; replies: Recorded[] }[] {
  return readdirSync(REAL)
    .sort()
    .map((folder) => {
      const files = readdirSync(path.join(REAL, folder)).filter((file) => file.endsWith('.json'))
      const replies = files.map((file) => ({
        name: file.replace(/\.json$/, ''),
        ...(JSON.parse(readFileSync(path.join(REAL, folder, file), 'utf8')) as RecordedReply)
      }))
      const version = replies.find((reply) => reply.name === 'server-version')?.body
      if (typeof version !== 'string') throw new Error(`${folder} has no server-version.json`)
      return { version, replies }
    })
}

const TOKEN = 'conformance-token'
const FORBIDDEN_TOKEN = 'conformance-forbidden-token'
const PROJECT = 'fixture-project'
/** The project whose task is still running, for the replies recorded with `--queued`. */
const QUEUED_PROJECT = 'fixture-project-queued'

/**
 * The reply with the gate's details (a JSON text in the `quality_gate_details` measure) parsed,
 * so their structure is compared too.
 */
function withGateDetails(body: unknown): unknown {
  const measures = (body as { component?: { measures?: unknown } } | null)?.component?.measures
  if (!Array.isArray(measures)) return body
  const component = (body as { component: Record<string, unknown> }).component
  return {
    ...(body as object),
    component: {
      ...component,
      measures: measures.map((measure: Record<string, unknown>) =>
        measure['metric'] === 'quality_gate_details' && typeof measure['value'] === 'string'
          ? { ...measure, value: JSON.parse(measure['value']) as unknown }
          : measure
      )
    }
  }
}

describe.each(recordedVersions())(
  'the simulator against SonarQube $version',
  ({ version, replies }) => {
    const generation = generationOf(version)
    let simulator: Simulator
    let done: Analysis
    let queued: Analysis

    beforeAll(async () => {
      // The recorded servers are Community Edition (Build): the main branch only.
      simulator = await Simulator.start({
        token: TOKEN,
        forbiddenToken: FORBIDDEN_TOKEN,
        edition: 'community'
      })
      // A server that analysed the project once answers as for a first analysis: no new code yet.
      const analysed = replies.find((reply) => reply.name === 'project-analyses')?.body as
        { paging?: { total?: number } } | undefined
      const firstOfProject = analysed?.paging?.total === 1
      const played = await scenario(SCENARIO_OF[generation]!)
      const script = {
        ...played,
        generation,
        projectKey: PROJECT,
        branch: undefined,
        pullRequest: undefined,
        finishAfterMs: 0,
        hotspots: sampleHotspots(2, SAMPLE_FILES)
      }
      if (firstOfProject) {
        done = simulator.addAnalysis({ ...script, revision: commitSha('first'), firstOfProject })
      } else {
        simulator.addAnalysis({ ...script, revision: commitSha('first'), scannedAgoMs: 60_000 })
        done = simulator.addAnalysis({ ...script, revision: commitSha('second') })
      }
      // Running for 400 s of 600 s, as the recorded task was.
      queued = simulator.addAnalysis(
        { ...script, projectKey: QUEUED_PROJECT, finishAfterMs: 600_000, firstOfProject },
        Date.now() - 400_000
      )
    })
    afterAll(() => simulator.stop())

    const played = replies.filter((reply) => !NOT_PLAYED.has(reply.name))
    it.each(played.map((reply) => [reply.name, reply] as const))('%s', async (_, recorded) => {
      const running = recorded.name.endsWith('-queued')
      const names: Record<string, string> = {
        project: running ? QUEUED_PROJECT : PROJECT,
        branch: MAIN_BRANCH,
        task: (running ? queued : done).taskId,
        analysis: done.analysisId
      }
      const request = recorded.request.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(names[name] ?? '')
      )
      const token =
        recorded.auth === 'forbidden-token'
          ? FORBIDDEN_TOKEN
          : recorded.auth === 'wrong-token'
            ? 'squ_wrong'
            : TOKEN
      const scheme = firstAuthScheme(serverKind(new URL(simulator.url), { serverVersion: version }))
      const reply = await fetch(`${simulator.url}/${request}`, {
        headers: recorded.auth === 'none' ? {} : { authorization: authorization(token, scheme) }
      })
      const text = await reply.text()
      const body: unknown = text === '' ? '' : JSON.parse(text)
      expect({ request: recorded.request, status: reply.status }).toEqual({
        request: recorded.request,
        status: recorded.status
      })
      expect(
        shapeDifferences(shapeOf(withGateDetails(recorded.body)), shapeOf(withGateDetails(body)), {
          ...DOCUMENTED,
          ...(generation === '2025.x' ? DOCUMENTED_FROM_10_8 : {})
        })
      ).toEqual([])
    })
  }
)

describe('the recordings', () => {
  it('are there, each of a version a simulator generation claims', () => {
    const versions = recordedVersions().map(({ version }) => version)
    expect(versions.length).toBeGreaterThan(0)
    for (const version of versions) expect(generationOf(version)).toBeTruthy()
  })
})
