/** The part of `@vercel/ncc`'s API (it ships no types) that action-overhead.ts uses. */
declare module '@vercel/ncc' {
  export default function ncc(
    entry: string,
    options?: { quiet?: boolean; license?: string }
  ): Promise<{ code: string; assets: Record<string, { source: string | Buffer }> }>
}
