/** The log calls the core logic makes; `@actions/core` in the action, a recorder in tests. */
export interface Log {
  info(message: string): void
  warning(message: string): void
  notice(message: string): void
  startGroup(name: string): void
  endGroup(): void
}
