/**
 * Judged queries over the deterministic sample catalogue (seed 20240601; items are the same at
 * every size, so the judgments hold at 5,000, 100,000 and 1,000,000 items). A known-item judgment
 * names the item(s) that must come first; a set judgment says which items are relevant by the
 * words of their text (description, notes, manufacturer), written by hand for each query.
 */

export type Family = "exact" | "scanned" | "hyphenless" | "part numbers" | "plurals" | "typos" | "phrases" | "exclusions" | "multi-word";

export const FAMILIES: readonly Family[] = ["exact", "scanned", "hyphenless", "part numbers", "plurals", "typos", "phrases", "exclusions", "multi-word"];

export type Judgment =
  /** The item with this item number is the one wanted. */
  | { family: Family; q: string; item: string }
  /** Any item whose manufacturer part number is this one (separators and case ignored) is wanted. */
  | { family: Family; q: string; mfrPartNumber: string }
  /** Any item whose item number starts with this is wanted (a part-number prefix). */
  | { family: Family; q: string; itemPrefix: string }
  /** Items whose text has every word of `words` (a word or its inflections), none of `without`, and each `phrases` in order. */
  | { family: Family; q: string; words: string[]; without?: string[]; phrases?: string[]; correction?: string };

const exact = (item: string): Judgment => ({ family: "exact", q: item, item });
const scanned = (q: string, item: string): Judgment => ({ family: "scanned", q, item });
const hyphenless = (item: string): Judgment => ({ family: "hyphenless", q: item.replaceAll("-", ""), item });

export const JUDGMENTS: readonly Judgment[] = [
  // Item numbers as printed.
  ...["W16444458", "DB36-44634C", "WB63M12644", "W12126780", "MRO-3237418", "W20429240", "DA21-24499A", "2421297779", "WB18X92671", "WR89T48452"].map(exact),

  // What a barcode scanner types, then Enter: the search opens the item (item or manufacturer part number).
  scanned("MRO-8595673", "MRO-8595673"),
  scanned("W12497199", "W12497199"),
  scanned("mro-5443044", "MRO-5443044"),
  scanned("DE72-03833A", "DE72-03833A"),
  scanned("dc06 46208d", "DC06-46208D"),
  scanned("AS870", "WB18X92671"),
  scanned("DJ77107", "2421297779"),
  scanned("678-994-686", "W20429240"),
  scanned("830U5433", "DB36-44634C"),
  scanned("ZB060S", "WB63M12644"),

  // Item numbers typed without their hyphen.
  ...["MRO-5443044", "DE72-03833A", "MRO-3652209", "DG26-76728B", "DC06-46208D", "DC00-78218B", "MRO-1184990", "MRO-0300716", "DA01-84457D", "MRO-3596867"].map(hyphenless),

  // Manufacturer part numbers as written, spaced or run together, and item-number prefixes.
  { family: "part numbers", q: "190-983-333", mfrPartNumber: "190-983-333" },
  { family: "part numbers", q: "674 983 658", mfrPartNumber: "674-983-658" },
  { family: "part numbers", q: "304189087", mfrPartNumber: "304-189-087" },
  { family: "part numbers", q: "AK8332E-XH", mfrPartNumber: "AK8332E-XH" },
  { family: "part numbers", q: "ae5379cxw", mfrPartNumber: "AE5379C-XW" },
  { family: "part numbers", q: "879-274-510", mfrPartNumber: "879-274-510" },
  { family: "part numbers", q: "LC17184T", mfrPartNumber: "LC17184T" },
  { family: "part numbers", q: "WB63M126", itemPrefix: "WB63M126" },
  { family: "part numbers", q: "DA21-244", itemPrefix: "DA21-244" },
  { family: "part numbers", q: "MRO-32374", itemPrefix: "MRO-32374" },

  // Plurals of words the catalogue has in the singular.
  ...["pump", "valve", "oven", "refrigerator", "filter", "hinge", "belt", "gasket", "damper", "bearing", "knob", "hose", "seal"].map(
    (word): Judgment => ({ family: "plurals", q: `${word}s`, words: [word] }),
  ),
  { family: "plurals", q: "switches", words: ["switch"] },

  // Misspellings: the page offers the correction ("Did you mean"), and the correction finds the items.
  ...(
    [
      ["refrigerater", "refrigerator"],
      ["dishwahser", "dishwasher"],
      ["replaecment", "replacement"],
      ["compresor", "compressor"],
      ["thermostst", "thermostat"],
      ["gaskett", "gasket"],
      ["evaporater", "evaporator"],
      ["microwve", "microwave"],
      ["condensor", "condenser"],
      ["dispensr", "dispenser"],
      ["hinje", "hinge"],
    ] as const
  ).map(([q, correction]): Judgment => ({ family: "typos", q, words: [correction], correction })),
  { family: "typos", q: "drian pump", words: ["drain", "pump"], correction: "drain pump" },
  // A three-letter slip in one word of several (issue 29).
  { family: "typos", q: "condensate pmp", words: ["condensate", "pump"], correction: "condensate pump" },

  // Phrases: the words together and in order.
  ...["wall oven", "drain pump", "water level", "door seal", "fresh food", "surface element", "control board", "room air conditioner", "spark igniter", "bake element"].map(
    (phrase): Judgment => ({ family: "phrases", q: `"${phrase}"`, words: phrase.split(" "), phrases: [phrase] }),
  ),

  // Exclusions: the first word without the excluded one.
  ...(
    [
      ["oven", "wall"],
      ["pump", "drain"],
      ["filter", "water"],
      ["valve", "water"],
      ["seal", "door"],
      ["element", "bake"],
      ["belt", "dryer"],
      ["motor", "fan"],
      ["hinge", "door"],
      ["switch", "door"],
    ] as const
  ).map(([word, without]): Judgment => ({ family: "exclusions", q: `${word} -${without}`, words: [word], without: [without] })),

  // Several words, in any order.
  ...["dryer belt", "refrigerator door gasket", "dishwasher pump", "range surface element", "oven bake element", "evaporator fan motor", "water filter", "stainless hinge", "washer drain hose", "ice maker"].map(
    (q): Judgment => ({ family: "multi-word", q, words: q.split(" ") }),
  ),
];
