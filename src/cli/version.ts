import packageJson from '../../package.json' with { type: 'json' }

/** The command's version: package.json's, bundled into dist/cli.js at build time. */
export const VERSION: string = packageJson.version
