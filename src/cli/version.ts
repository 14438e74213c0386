import packageJson from '../../package.json' with { type: 'json' }

/** The command's version: package.json's, bundled into dist/cli.js at build time. */
export const VERSION: string = packageJson.version

/**
 * The command's name, as published and installed: package.json's name, which is also its one
 * `bin` (a test holds them together), so `npx <name>` and the installed command agree.
 */
export const COMMAND: string = packageJson.name
