import { mix, Rng } from "./sample-random";
import { FRIGIDAIRE_PREFIXES, GE_APPLIANCE_LETTER, LG_PREFIXES, SAMSUNG_PREFIX, type Appliance } from "./sample-vocabulary";

/*
 * Sample item numbers, unique by construction: each item belongs to one of six part-number families,
 * and within a family its serial is a bijection of its rank, formatted into the family's pattern
 * (`WR55X10942`, `DA97-07365A`, `W10295370`, `5304506469`, `EBR78940601`, `MRO-0104233`). The
 * patterns cannot overlap, so numbers are unique across families too.
 */

export interface Family {
  /** Serials available; ranks map onto 0..capacity-1 one to one. */
  capacity: number;
  /** Appliance parts or plant-maintenance stock. */
  mro: boolean;
  format(serial: number, appliance: Appliance, rng: Rng): string;
}

export const pad = (n: number, width: number) => String(n).padStart(width, "0");

const FAMILIES: readonly Family[] = [
  {
    // GE: W + appliance letter + 2 digits + X/T/M + 5 digits (WR55X10942)
    capacity: 100 * 3 * 100_000,
    mro: false,
    format: (s, appliance) =>
      `W${GE_APPLIANCE_LETTER[appliance]}${pad(s % 100, 2)}${"XTM"[Math.floor(s / 100) % 3]}${pad(Math.floor(s / 300), 5)}`,
  },
  {
    // Samsung: DA97-07365A
    capacity: 100 * 100_000 * 4,
    mro: false,
    format: (s, appliance) =>
      `${SAMSUNG_PREFIX[appliance]}${pad(s % 100, 2)}-${pad(Math.floor(s / 400) % 100_000, 5)}${"ABCD"[Math.floor(s / 100) % 4]}`,
  },
  {
    // Whirlpool: W10295370
    capacity: 20_000_000,
    mro: false,
    format: (s) => `W${10_000_000 + s}`,
  },
  {
    // Frigidaire: 5304506469
    capacity: 1_000_000,
    mro: false,
    format: (s, _appliance, rng) => `${rng.pick(FRIGIDAIRE_PREFIXES)}${pad(s, 6)}`,
  },
  {
    // LG: EBR78940601
    capacity: 100_000_000,
    mro: false,
    format: (s, _appliance, rng) => `${rng.pick(LG_PREFIXES)}${pad(s, 8)}`,
  },
  {
    // Plant maintenance stock: MRO-0104233
    capacity: 10_000_000,
    mro: true,
    format: (s) => `MRO-${pad(s, 7)}`,
  },
];

/** Family of each slot in a block of 20 items; shuffled per block so families interleave. */
const FAMILY_SLOTS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5];
/** Items per block: every block holds each family in the same proportion. */
export const BLOCK = FAMILY_SLOTS.length;
const FAMILY_WEIGHT = FAMILIES.map((_, f) => FAMILY_SLOTS.filter((s) => s === f).length);

/**
 * A keyed bijection of 0..n-1 that scatters neighbours: a 4-round Feistel network over the next
 * even power of two, walking the cycle until the value falls back inside the range. Consecutive
 * ranks then get unrelated serials (`WR55X10942`, `WD12X80304`) instead of counting up.
 *
 * A simpler bijection, such as the affine one `generateBoms` uses, would keep every guarantee the
 * tests check, but it would renumber every sample item. Catalogues are built only when missing
 * (`data/catalog.db`, the browser tests' `.cache/e2e/*.db`), so one built before such a change would
 * disagree with one built after it, and the benchmarks name a sample item (`/product/W29686752`).
 * It stays as long as the sample data must stay the same.
 */
function scramble(value: number, n: number, key: number): number {
  let bits = Math.max(2, Math.ceil(Math.log2(n)));
  if (bits % 2 === 1) bits++;
  const half = bits / 2;
  const mask = (1 << half) - 1;
  let x = value;
  do {
    let left = x >>> half;
    let right = x & mask;
    for (let round = 0; round < 4; round++) {
      const next = left ^ (mix(key, round, right) & mask);
      left = right;
      right = next;
    }
    x = left * (1 << half) + right;
  } while (x >= n);
  return x;
}

/** The family of each slot of a block, a shuffle of FAMILY_SLOTS of its own. */
export function blockFamilies(block: number, seed: number): number[] {
  const slots = [...FAMILY_SLOTS];
  const rng = new Rng(mix(seed, block, 0xb10c));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [slots[i], slots[j]] = [slots[j]!, slots[i]!];
  }
  return slots;
}

/**
 * The family of item `index` and its serial in that family. `families` is the item's block as
 * `blockFamilies` gives it, for callers that walk a block item by item.
 */
export function itemSerial(
  index: number,
  seed: number,
  families = blockFamilies(Math.floor(index / BLOCK), seed),
): { family: Family; serial: number } {
  const slot = index % BLOCK;
  const familyIndex = families[slot]!;
  let rank = 0;
  for (let s = 0; s < slot; s++) if (families[s] === familyIndex) rank++;
  const family = FAMILIES[familyIndex]!;
  const k = Math.floor(index / BLOCK) * FAMILY_WEIGHT[familyIndex]! + rank;
  return { family, serial: scramble(k, family.capacity, mix(seed, familyIndex)) };
}
