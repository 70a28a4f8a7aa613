/**
 * The overhead target of `bench:overhead` as ratios: the search page's overhead over a floor
 * measured in the same round (the empty document, or the harness alone), so that a slow spell of
 * the shared machine, which slows both, does not decide the verdict.
 */
import { median } from "./lib";

/**
 * Below this a floor's overhead is within autocannon's resolution (whole milliseconds): a ratio
 * over it says nothing, so the round is left out rather than reported as a huge number.
 */
export const MIN_FLOOR_MS = 1;

/** One round's overheads (latency minus the stand-in's fixed time), in ms. */
export interface RoundOverhead {
  page: number;
  floor: number;
}

export interface Ratio {
  /** The median of the rounds' ratios, or null when no round had a measurable floor. */
  value: number | null;
  /** How many rounds had a floor of at least MIN_FLOOR_MS. */
  rounds: number;
  of: number;
}

/** One round's page ÷ floor, or null when the floor is too small to divide by. */
export function roundRatio({ page, floor }: RoundOverhead): number | null {
  return floor >= MIN_FLOOR_MS ? page / floor : null;
}

/** Each round's page ÷ floor, then the median over the rounds (not the ratio of two medians). */
export function medianRatio(rounds: readonly RoundOverhead[]): Ratio {
  const ratios = rounds.map(roundRatio).filter((r) => r !== null);
  return { value: ratios.length > 0 ? median(ratios) : null, rounds: ratios.length, of: rounds.length };
}

/** "1.7", or why there is no figure. */
export function formatRatio(ratio: Ratio): string {
  if (ratio.value === null) return `no figure (the floor's overhead was under ${MIN_FLOOR_MS} ms in every round)`;
  const left = ratio.of - ratio.rounds;
  const note = left > 0 ? ` (${ratio.rounds} of ${ratio.of} rounds; ${left} with the floor under ${MIN_FLOOR_MS} ms left out)` : "";
  return `${ratio.value.toFixed(2)}${note}`;
}

export function verdict(ratio: Ratio, atMost: number): "PASS" | "MISS" | "NO FIGURE" {
  if (ratio.value === null) return "NO FIGURE";
  return ratio.value <= atMost ? "PASS" : "MISS";
}
