/**
 * How long the project's previous analysis took to process, as the latency bench sets it for
 * each round: this analysis's processing time over a ratio that differs from round to round.
 * The ratios walk a golden-ratio sequence, so a few rounds already spread evenly over the range.
 */

/** Two spreads: a wide one that tests the predictions, and one as close as real servers run. */
export const PREVIOUS_ANALYSIS_SPREADS = {
  /** The previous analysis took from 1/1.2 to 1.2 times as long as this one. */
  wide: { name: 'previous 1/1.2–1.2×', ratio: (k: number) => 1.2 ** (2 * walk(k) - 1) },
  /** Each analysis takes within 15 % of the previous one: this / previous in 0.85–1.15. */
  close: { name: 'previous within 15 %', ratio: (k: number) => 1 / (0.85 + 0.3 * walk(k)) }
} as const

export type PreviousAnalysisSpread = keyof typeof PREVIOUS_ANALYSIS_SPREADS

/**
 * The previous analysis's processing time in round `k`, for an analysis that processes for
 * `processingMs`.
 *
 * @example previousProcessingMs(2000, 3, 'close') // between 2000 / 1.15 and 2000 / 0.85
 */
export function previousProcessingMs(
  processingMs: number,
  k: number,
  spread: PreviousAnalysisSpread
): number {
  return processingMs * PREVIOUS_ANALYSIS_SPREADS[spread].ratio(k)
}

/** 0 ≤ walk(k) < 1, evenly spread over the first rounds. */
function walk(k: number): number {
  return (k * 0.618034) % 1
}
