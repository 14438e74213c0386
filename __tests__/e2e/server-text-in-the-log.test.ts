import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { RUNTIMES, runAction, TOKEN, workspace } from './run-action.js'

const INJECTED = ['::error::injected by the server', '::set-output name=status::OK']

describe.each(RUNTIMES)('text from the server in the log, on $runtime', ({ node }) => {
  // A server whose task status and gate status carry new lines followed by workflow commands.
  let server: LoopbackServer
  beforeAll(async () => {
    server = await startLoopbackServer((request, response, count) => {
      if (request.url?.startsWith('/api/ce/task')) {
        const status = count === 1 ? ['PENDING', ...INJECTED].join('\n') : 'SUCCESS'
        json(response, { task: { id: 'AYTask0001', status, analysisId: 'AYAnalysis0001' } })
      } else {
        json(response, {
          projectStatus: { status: ['OK', ...INJECTED].join('\n'), conditions: [] }
        })
      }
    })
  })
  afterAll(() => server.close())

  describe('text the server sends never becomes a workflow command', () => {
    it('logs statuses with new lines without starting a line with its commands', async () => {
      const ws = await workspace()

      const run = await runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, taskId: 'AYTask0001', sonarHostUrl: server.url }
      })

      const lines = run.stdout.split('\n')
      for (const command of INJECTED) {
        expect(lines.filter((line) => line.startsWith(command))).toEqual([])
      }
    })
  })
})
