import type { AnnotationWhere, RunnerCommands } from '../src/log.js'
import type { Said } from '../src/words.js'

type Kind = 'info' | 'warning' | 'notice' | 'error' | 'group' | 'endgroup' | 'failed' | 'secret'

/**
 * A Log that keeps every line, tagged with its kind, for assertions. It also stands for the
 * runner's commands (`setFailed` included), so `runnerLog(new RecordingLog())` records what the
 * action would send to the runner.
 */
export class RecordingLog implements RunnerCommands {
  readonly lines: { kind: Kind; text: string; where?: AnnotationWhere }[] = []

  info(said: Said): void {
    this.lines.push({ kind: 'info', text: String(said) })
  }
  warning(said: Said, where?: AnnotationWhere): void {
    this.lines.push({ kind: 'warning', text: String(said), ...(where ? { where } : {}) })
  }
  notice(said: Said, where?: AnnotationWhere): void {
    this.lines.push({ kind: 'notice', text: String(said), ...(where ? { where } : {}) })
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
