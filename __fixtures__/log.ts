import type { AnnotationWhere, RunnerCommands } from '../src/log.js'
import { ACTION_NAMES } from '../src/action/names.js'
import { inWords, type Names, type Said } from '../src/words.js'

type Kind = 'info' | 'warning' | 'notice' | 'error' | 'group' | 'endgroup' | 'failed' | 'secret'

/**
 * A Log that keeps every line, tagged with its kind, for assertions. It also stands for the
 * runner's commands (`setFailed` included), so `runnerLog(new RecordingLog())` records what the
 * action would send to the runner.
 */
export class RecordingLog implements RunnerCommands {
  readonly lines: { kind: Kind; text: string; where?: AnnotationWhere }[] = []

  /** `names`: the edge whose words a message of the core is kept in (the action's by default). */
  constructor(private readonly names: Names = ACTION_NAMES) {}

  info(said: Said): void {
    this.lines.push({ kind: 'info', text: inWords(said, this.names) })
  }
  warning(said: Said, where?: AnnotationWhere): void {
    this.lines.push({
      kind: 'warning',
      text: inWords(said, this.names),
      ...(where ? { where } : {})
    })
  }
  notice(said: Said, where?: AnnotationWhere): void {
    this.lines.push({
      kind: 'notice',
      text: inWords(said, this.names),
      ...(where ? { where } : {})
    })
  }
  error(text: string, where?: AnnotationWhere): void {
    this.lines.push({ kind: 'error', text, ...(where ? { where } : {}) })
  }
  startGroup(text: string): void {
    this.lines.push({ kind: 'group', text })
  }
  endGroup(): void {
    this.lines.push({ kind: 'endgroup', text: '' })
  }
  setFailed(text: string): void {
    this.lines.push({ kind: 'failed', text })
  }
  setSecret(text: string): void {
    this.lines.push({ kind: 'secret', text })
  }

  of(kind: Kind): string[] {
    return this.lines.filter((line) => line.kind === kind).map((line) => line.text)
  }
}
