import { describe, expect, it } from 'vitest'
import { inCommandWords } from '../../src/cli/command-words.js'
import { loadReportFile } from '../../src/report-file.js'

describe("the core's messages say the command's options, not the action's inputs", () => {
  it('a report file not found names --report', async () => {
    const error = await loadReportFile(
      'build/x/report-task.txt',
      '/repo',
      async () => undefined
    ).catch((caught: Error) => caught)
    const words = inCommandWords((error as Error).message)
    expect(words).toContain('set --report to where yours is')
    expect(words).not.toContain('scanMetadataReportFile')
  })

  it.each([
    ['raise pollingTimeoutSec (now 60.0 s).', 'raise --timeout (now 60.0 s).'],
    [
      'or set the sonarHostUrl input to build the task address',
      'or set the --host option to build the task address'
    ],
    ['the taskId input is wrong.', 'the --task-id option is wrong.'],
    ['the token goes in sonarToken or SONAR_TOKEN.', 'the token goes in SONAR_TOKEN.'],
    ['sonarRootCert (or SONAR_ROOT_CERT) is not', 'SONAR_ROOT_CERT or --root-cert-file is not'],
    // The server's field keeps its name.
    [
      "the analysisId of a finished task (the server's api/ce/task answer)",
      "the analysisId of a finished task (the server's api/ce/task answer)"
    ]
  ])('%s', (core, command) => {
    expect(inCommandWords(core)).toBe(command)
  })
})
