import type { Log } from '../log.js'
import { messageOf } from '../errors.js'

/** What the job summary is written with: `@actions/core`'s summary, or a test's. */
interface SummaryWriter {
  addRaw(text: string, addEOL?: boolean): { write(): Promise<unknown> }
}

/** The job summary, written once; the text comes from the summary's sink. */
export interface JobSummary {
  write(html: string): Promise<void>
  /** Whether the summary was written (or there is none to write: GITHUB_STEP_SUMMARY unset). */
  readonly done: boolean
}

/**
 * Best-effort: a summary that cannot be written never fails the job (as docker/build-push-action
 * does); it is one line of the log. Without GITHUB_STEP_SUMMARY there is nothing to write.
 *
 * @example const summary = jobSummary(core.summary, process.env, log); await summary.write(html)
 */
export function jobSummary(writer: SummaryWriter, env: NodeJS.ProcessEnv, log: Log): JobSummary {
  let done = false
  return {
    get done() {
      return done
    },
    async write(html) {
      done = true
      if (!env['GITHUB_STEP_SUMMARY']) return
      try {
        await writer.addRaw(html, true).write()
      } catch (error) {
        log.info(`Could not write the job summary: ${messageOf(error)}`)
      }
    }
  }
}
