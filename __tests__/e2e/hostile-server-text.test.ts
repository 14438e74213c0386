/**
 * A hostile server against the built action: every text field it sends carries workflow
 * commands, a lone CR, Markdown, HTML, links and the token itself. Nothing of it may become a
 * runner command, a heading, an element or a link in the summary, or show the token.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { HOSTILE_STRINGS } from '../fault-kit/faults.js'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { foreignCommands } from '../support/runner-log.js'
import { annotations, RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

const EVERY_HOSTILE = HOSTILE_STRINGS.join(' ')
/** Elements the action's own summary is made of. */
const OWN_ELEMENTS = new Set([
  'h2',
  'h3',
  'p',
  'code',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'ul',
  'li',
  'a'
])

describe.each(RUNTIMES)('a hostile server, on $runtime', ({ node }) => {
  const servers: LoopbackServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  async function hostile(task: object, gate: object, status = 200) {
    const server = await startLoopbackServer((request, response) => {
      if (request.url?.startsWith('/api/ce/task')) json(response, task)
      else json(response, gate, status)
    })
    servers.push(server)
    const run = await runAction(await workspace(), {
      node,
      inputs: { sonarToken: TOKEN, taskId: 'AYTask1', sonarHostUrl: server.url }
    })
    return { run, server, summary: renderAsGitHub(run.summary) }
  }

  /** What every run must hold, whatever the verdict. */
  function expectNothingInjected(
    { run, server, summary }: Awaited<ReturnType<typeof hostile>>,
    heading: string
  ) {
    expect(foreignCommands(run.stdout)).toEqual([])
    expect(run.stderr).toBe('')
    expect(summary.of('h2').map((element) => element.text)).toEqual([heading])
    expect(summary.elements.filter((element) => !OWN_ELEMENTS.has(element.tag))).toEqual([])
    for (const link of summary.of('a'))
      expect(link.attributes['href']).toMatch(new RegExp(`^${server.url}/`))
    expect(run.summary).not.toContain(TOKEN)
    expect(Object.values(run.outputs).join('\n')).not.toContain(TOKEN)
  }

  it('a FAILED task whose message holds commands, a CR heading, HTML and the token', async () => {
    const result = await hostile(
      {
        task: { id: 'AYTask1', status: 'FAILED', errorMessage: `${EVERY_HOSTILE} token ${TOKEN}` }
      },
      {}
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate check failed')
    // Quoted on one line, its line breaks shown as \n and \r: the server's words stay readable.
    expect(annotations(result.run.stdout, 'error')[0]).toMatch(
      /^The analysis task AYTask1 ended FAILED: PENDING\\n::error::injected by the server x\\r::set-output/
    )
  })

  it('an ERROR gate whose conditions, warnings and component hold hostile text', async () => {
    const conditions = HOSTILE_STRINGS.map((text) => ({
      status: 'ERROR',
      metricKey: text,
      comparator: text,
      errorThreshold: text,
      actualValue: text
    }))
    const result = await hostile(
      {
        task: {
          id: 'AYTask1',
          status: 'SUCCESS',
          analysisId: 'AYAnalysis1',
          componentKey: EVERY_HOSTILE,
          warnings: [...HOSTILE_STRINGS, '<a href="javascript:alert(1)">click</a>', `echo ${TOKEN}`]
        }
      },
      { projectStatus: { status: 'ERROR', conditions } }
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate failed')
    // Every hostile value is there to read, as text.
    const rows = result.summary.of('tr').slice(1)
    expect(rows).toHaveLength(HOSTILE_STRINGS.length)
    expect(result.summary.text).toContain('<img src=x onerror=alert(1)><script>alert(2)</script>')
    expect(result.summary.text).toContain('click (javascript:alert(1))')
  })

  it('a line break inside a metric key or project key never starts a line of its own', async () => {
    const fake = '✅ Quality Gate passed'
    const result = await hostile(
      {
        task: {
          id: 'AYTask1',
          status: 'SUCCESS',
          analysisId: 'AYAnalysis1',
          componentKey: `my-project\n${fake}`
        }
      },
      {
        projectStatus: {
          status: 'ERROR',
          conditions: [
            {
              status: 'ERROR',
              metricKey: `new_coverage\n${fake}`,
              comparator: 'LT',
              errorThreshold: '80',
              actualValue: '12'
            },
            { status: 'OK', metricKey: `bugs\r\n${fake}`, comparator: 'GT', errorThreshold: '0' }
          ]
        }
      }
    )
    expect(result.run.exitCode).toBe(1)
    const [failure] = annotations(result.run.stdout, 'error')
    expect(failure).toContain(`for my-project\\n${fake}:`)
    expect(failure).toContain(`- Coverage\\n${fake} on New Code is 12`)
    // Every line of every annotation and of the log is one of the action's own.
    const lines = [
      ...(['error', 'warning', 'notice'] as const).flatMap((command) =>
        annotations(result.run.stdout, command).flatMap((message) => message.split('\n'))
      ),
      ...result.run.stdout.split('\n')
    ]
    expect(lines.filter((line) => line.trimStart().startsWith(fake))).toEqual([])
  })

  it('a 404 whose message echoes the token: not in the summary, the outputs or the log', async () => {
    const result = await hostile(
      { task: { id: 'AYTask1', status: 'SUCCESS', analysisId: 'AYAnalysis1' } },
      { errors: [{ msg: `Analysis not found for token ${TOKEN}` }] },
      404
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate check failed')
    expect(annotations(result.run.stdout, 'error')[0]).toMatch(
      /^The server says: "Analysis not found for token \*\*\*"/
    )
  })

  it('an unknown gate status passes, says so, and gives quality-gate-status NONE', async () => {
    const result = await hostile(
      { task: { id: 'AYTask1', status: 'SUCCESS', analysisId: 'AYAnalysis1' } },
      { projectStatus: { status: 'FAILED', conditions: [] } }
    )
    expect(result.run.exitCode).toBe(0)
    expect(result.run.outputs).toMatchObject({ status: 'FAILED', 'quality-gate-status': 'NONE' })
    expect(annotations(result.run.stdout, 'warning')).toContain(
      'Unknown Quality Gate status "FAILED": failOn does not name NONE, so the check passes (quality-gate-status NONE).'
    )
    expectNothingInjected(result, '❔ Unknown Quality Gate status FAILED: the check passes')
  })
})
