/** The log calls the core logic makes; `@actions/core` in the action, a recorder in tests. */
export interface Log {
  info(message: string): void
  warning(message: string): void
  notice(message: string): void
  startGroup(name: string): void
  endGroup(): void
}

/**
 * The runner's log as a Log. Messages may quote the server (statuses, ids): `info` is kept to one
 * line so no text can start a line with `::` and become a workflow command. The annotation and
 * group commands of `@actions/core` escape their text themselves.
 */
export function runnerLog(core: Log): Log {
  return {
    info: (message) => core.info(message.replace(/[\r\n]+/g, ' ')),
    warning: (message) => core.warning(message),
    notice: (message) => core.notice(message),
    startGroup: (name) => core.startGroup(name),
    endGroup: () => core.endGroup()
  }
}
