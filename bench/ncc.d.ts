/**
 * The part of `@vercel/ncc`'s API (it ships no types) that action-overhead.ts and
 * scripts/bundle-action.ts use.
 */
declare module '@vercel/ncc' {
  export default function ncc(
    entry: string,
    options?: { quiet?: boolean; license?: string; minify?: boolean }
  ): Promise<{ code: string; assets: Record<string, { source: string | Buffer }> }>
}
