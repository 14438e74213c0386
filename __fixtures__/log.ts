import type { Log } from '../src/log.js'

/** A Log that keeps every line, tagged with its kind, for assertions. */
export class RecordingLog implements Log {
  readonly lines: { kind: 'info' | 'warning' | 'notice' | 'group' | 'endgroup'; text: string }[] =
    []

  info(text: string): void {
    this.lines.push({ kind: 'info', text })
  }
  warning(text: string): void {
    this.lines.push({ kind: 'warning', text })
  }
  notice(text: string): void {
    this.lines.push({ kind: 'notice', text })
  }
  startGroup(text: string): void {
    this.lines.push({ kind: 'group', text })
  }
  endGroup(): void {
    this.lines.push({ kind: 'endgroup', text: '' })
  }

  of(kind: RecordingLog['lines'][number]['kind']): string[] {
    return this.lines.filter((line) => line.kind === kind).map((line) => line.text)
  }
}
