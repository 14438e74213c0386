import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { messageOf } from '../errors.js'
import { renderSarif } from '../findings/sarif.js'
import { makeFolders } from '../folders.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { Log } from '../log.js'
import { analysisFindings, sarifTool } from '../report/analysis-findings.js'
import { issuesFileLine } from '../report/issues-file-line.js'
import type { Sink } from '../sink.js'
import { msg, theSetting } from '../words.js'

/**
 * The new issues as SARIF (see renderSarif), through the file's sink: every form of the token
 * removed. A file that cannot be written is a warning: the verdict never changes because of the
 * issues.
 *
 * @example await writeSarifFile(settings.sarifFile, outcomes, { log, sink: sinks.sarif })
 */
export async function writeSarifFile(
  file: string,
  outcomes: readonly AnalysisOutcome[],
  { log, sink }: { log: Log; sink: Sink }
): Promise<void> {
  const sarif = renderSarif(analysisFindings(outcomes), sarifTool(outcomes), sink)
  try {
    const target = path.resolve(file)
    await makeFolders(path.dirname(target))
    await writeFile(target, sarif.json)
    const tally = { written: sarif.results, unlocated: sarif.unlocated, omitted: sarif.omitted }
    log.info(issuesFileLine('as SARIF', file, tally, outcomes))
  } catch (error) {
    log.warning(
      msg`The SARIF file was not written to ${file}: ${messageOf(error)}. Check ${theSetting('sarif')}.`
    )
  }
}
