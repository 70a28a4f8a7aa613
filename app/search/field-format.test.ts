import { describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "./engine";
import { belowMinimumOf, belowMinimumText, formatValue, isInactive, itemDescription, snippet, truncate } from "./field-format";

describe("itemDescription", () => {
  it("follows the spec's fallback order", () => {
    const all = {
      item_description_t: "a",
      ItemDescription_t: "b",
      ItemDescription_s: "c",
      description_t: "d",
      description_s: "e",
    };
    expect(itemDescription(all)).toBe("a");
    const { item_description_t: _a, ...noA } = all;
    expect(itemDescription(noA)).toBe("b");
    const { ItemDescription_t: _b, ...noB } = noA;
    expect(itemDescription(noB)).toBe("c");
    const { ItemDescription_s: _c, ...noC } = noB;
    expect(itemDescription(noC)).toBe("d");
    const { description_t: _d, ...noD } = noC;
    expect(itemDescription(noD)).toBe("e");
  });

  it("skips blank values and joins lists", () => {
    expect(itemDescription({ item_description_t: "  ", description_s: "Pump" })).toBe("Pump");
    expect(itemDescription({ item_description_t: null, description_t: ["Drain", "", "pump"] })).toBe("Drain pump");
    expect(itemDescription({ title: "x" })).toBeNull();
  });
});

describe("snippet", () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

  it("returns short text unchanged", () => {
    expect(snippet("Drain pump")).toBe("Drain pump");
    const exact = "x".repeat(300);
    expect(snippet(exact)).toBe(exact);
  });

  it("cuts long text at a word boundary with an ellipsis, within 300 characters", () => {
    const text = words(100);
    const out = snippet(text);
    expect(out.length).toBeLessThanOrEqual(300);
    expect(out.endsWith("…")).toBe(true);
    const body = out.slice(0, -1);
    expect(text.startsWith(body)).toBe(true);
    expect(text.charAt(body.length)).toBe(" ");
    // The cut is at the last word end that leaves room for the ellipsis.
    let lastFit = 0;
    for (let end = 1; end <= 299; end++) if (text.charAt(end) === " ") lastFit = end;
    expect(body).toBe(text.slice(0, lastFit));
  });

  it("honours a smaller maximum", () => {
    expect(snippet("alpha beta gamma delta", 12)).toBe("alpha beta…");
    expect(snippet("alpha beta gamma delta", 11)).toBe("alpha beta…");
    expect(snippet("alpha beta gamma delta", 10)).toBe("alpha…");
  });

  it("cuts a single over-long word inside the word", () => {
    expect(snippet("x".repeat(400), 10)).toBe(`${"x".repeat(9)}…`);
    expect(snippet(`  ${"y".repeat(50)}`, 10)).toBe(`  ${"y".repeat(7)}…`);
  });

  it("does not count highlight markers and closes a run left open by the cut", () => {
    const text = `alpha ${HL_PRE}beta gamma delta${HL_POST} epsilon`;
    expect(snippet(text, 17)).toBe(`alpha ${HL_PRE}beta gamma${HL_POST}…`);
    expect(snippet(text, 16)).toBe(`alpha ${HL_PRE}beta${HL_POST}…`);
    const marked = `${HL_PRE}alpha${HL_POST} ${"b".repeat(5)}`;
    expect(snippet(marked, 11)).toBe(marked);
  });

  it("drops markers after the cut and keeps markers balanced", () => {
    const text = `one two ${HL_PRE}three${HL_POST} four`;
    expect(snippet(text, 8)).toBe("one two…");
    for (let max = 1; max < 40; max++) {
      const out = snippet(`${HL_PRE}aa bb${HL_POST} cc ${HL_PRE}dd ee ff${HL_POST} gg hh ii jj`, max);
      const pre = [...out].filter((c) => c === HL_PRE).length;
      const post = [...out].filter((c) => c === HL_POST).length;
      expect(pre, `max ${max}: ${out}`).toBe(post);
      expect([...out].filter((c) => c !== HL_PRE && c !== HL_POST).length).toBeLessThanOrEqual(max);
    }
  });

  it("counts an emoji as one character and never splits it", () => {
    const out = snippet("😀".repeat(20), 5);
    expect(out).toBe("😀😀😀😀…");
  });
});

describe("truncate", () => {
  it("cuts at a word end with at: word, at any grapheme with at: grapheme", () => {
    expect(truncate("alpha beta gamma", 9, { at: "word" })).toBe("alpha…");
    expect(truncate("alpha beta gamma", 9, { at: "grapheme" })).toBe("alpha be…");
    expect(truncate("alpha beta", 10, { at: "word" })).toBe("alpha beta");
    expect(truncate("alpha beta", 10, { at: "grapheme" })).toBe("alpha beta");
  });

  it("leaves no space before the ellipsis and nothing for a maximum below 1, either way", () => {
    for (const at of ["word", "grapheme"] as const) {
      expect(truncate("alpha    beta", 8, { at })).toBe("alpha…");
      expect(truncate("alpha", 0, { at })).toBe("");
    }
  });

  it("counts highlight markers as nothing and keeps them balanced, either way", () => {
    const text = `${HL_PRE}alpha beta${HL_POST} gamma`;
    expect(truncate(text, 9, { at: "word" })).toBe(`${HL_PRE}alpha${HL_POST}…`);
    expect(truncate(text, 9, { at: "grapheme" })).toBe(`${HL_PRE}alpha be${HL_POST}…`);
  });

  // Changed: snippet counted code points, so a skin-toned or family emoji took 2 or 5 of its
  // characters and an accent written as a combining mark took 2. Both cuts now count graphemes.
  it("counts a grapheme of several code points as one character and never splits it, either way", () => {
    const family = "👨‍👩‍👧";
    for (const at of ["word", "grapheme"] as const) {
      expect(truncate(family.repeat(6), 4, { at })).toBe(`${family.repeat(3)}…`);
      expect(truncate("e\u0301".repeat(8), 4, { at })).toBe(`${"e\u0301".repeat(3)}…`);
    }
    expect(snippet(`${"👍🏽".repeat(3)} ok`, 6)).toBe(`${"👍🏽".repeat(3)} ok`);
  });
});

describe("formatValue", () => {
  it("shows blanks as N/A", () => {
    expect(formatValue(null)).toBe("N/A");
    expect(formatValue(undefined)).toBe("N/A");
    expect(formatValue("")).toBe("N/A");
    expect(formatValue("  ")).toBe("N/A");
    expect(formatValue([])).toBe("N/A");
    expect(formatValue(["", null])).toBe("N/A");
  });

  it("joins lists, spells booleans and keeps numbers plain", () => {
    expect(formatValue(["a", "", "b"])).toBe("a, b");
    expect(formatValue(true)).toBe("Yes");
    expect(formatValue(false)).toBe("No");
    expect(formatValue(1234567)).toBe("1234567");
    expect(formatValue(12.5)).toBe("12.5");
    expect(formatValue(0)).toBe("0");
    expect(formatValue(Number.NaN)).toBe("N/A");
    expect(formatValue("WR55X10942")).toBe("WR55X10942");
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });

  it("writes blanks as the blank option says: N/A on the page, empty in files", () => {
    for (const value of [null, "  ", Number.NaN, [], ["", null]]) {
      expect(formatValue(value)).toBe("N/A");
      expect(formatValue(value, { blank: "N/A" })).toBe("N/A");
      expect(formatValue(value, { blank: "" })).toBe("");
    }
    expect(formatValue(["a", true, 3], { blank: "" })).toBe("a, Yes, 3");
    expect(formatValue("  pump  ", { blank: "" })).toBe("  pump  ");
  });

  // Changed: a whitespace-only list item was kept in files ("a,   , b"), a non-finite number in a
  // list showed as "N/A, a" on the page; both are skipped now, as empty items were.
  it("skips blank list items, whitespace-only and non-finite ones included", () => {
    expect(formatValue(["a", "   ", "b"])).toBe("a, b");
    expect(formatValue(["a", "   ", "b"], { blank: "" })).toBe("a, b");
    expect(formatValue([Number.NaN, "a"])).toBe("a");
    expect(formatValue(["  ", Number.POSITIVE_INFINITY])).toBe("N/A");
  });

  // Changed: the page wrote a Date as JSON text with its quotes, an invalid one as "null", and
  // threw on a cyclic object or a bigint inside one.
  it("writes dates in ISO 8601 and survives values JSON cannot write", () => {
    expect(formatValue(new Date(Date.UTC(2026, 10, 23)))).toBe("2026-11-23T00:00:00.000Z");
    expect(formatValue(new Date(Number.NaN))).toBe("N/A");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatValue(cyclic)).toBe("N/A");
    expect(formatValue({ n: 10n })).toBe('{"n":"10"}');
  });
});

describe("isInactive", () => {
  it("matches 'inactive' anywhere in the status, in any case", () => {
    expect(isInactive({ attribute_status_s: "Inactive" })).toBe(true);
    expect(isInactive({ attribute_status_s: "INACTIVE - obsolete" })).toBe(true);
    expect(isInactive({ status_t: "inactive" })).toBe(true);
    expect(isInactive({ status_ss: ["Active", "Inactive"] })).toBe(true);
  });

  it("is false for active items and for 'inactive' in other fields", () => {
    expect(isInactive({ attribute_status_s: "Active" })).toBe(false);
    expect(isInactive({ attribute_status_s: null })).toBe(false);
    expect(isInactive({ item_description_t: "inactive pump" })).toBe(false);
    expect(isInactive({})).toBe(false);
  });
});

describe("belowMinimumOf", () => {
  it("gives the figures of an item whose quantity on hand is below its organisation's minimum", () => {
    expect(belowMinimumOf({ attribute_quantity_on_hand_i: 3, attribute_org_min_stock_level_i: 10 })).toEqual({ onHand: 3, minimum: 10 });
    expect(belowMinimumText({ onHand: 1200, minimum: 1500 })).toBe("1,200 on hand, minimum 1,500");
  });

  it("says nothing at or above the minimum, or when either figure is unknown", () => {
    expect(belowMinimumOf({ attribute_quantity_on_hand_i: 10, attribute_org_min_stock_level_i: 10 })).toBeNull();
    expect(belowMinimumOf({ attribute_quantity_on_hand_i: 3 })).toBeNull();
    expect(belowMinimumOf({ attribute_org_min_stock_level_i: 3 })).toBeNull();
    expect(belowMinimumOf({ attribute_quantity_on_hand_i: "", attribute_org_min_stock_level_i: 3 })).toBeNull();
  });
});
