/**
 * The part of `@vercel/ncc`'s API (it ships no types) that action-overhead.ts and the bundling
 * scripts (scripts/bundle-action.ts, scripts/bundle-cli.ts) use.
 */
declare module '@vercel/ncc' {
  /** A module in webpack's stats: its name, and the modules concatenated into it. */
  interface StatsModule {
    name?: string
    modules?: StatsModule[]
  }
  export default function ncc(
    entry: string,
    options?: { quiet?: boolean; license?: string; minify?: boolean }
  ): Promise<{
    code: string
    assets: Record<string, { source: string | Buffer }>
    stats: {
      toJson(options: { modules: boolean; nestedModules: boolean }): { modules?: StatsModule[] }
    }
  }>
}
