import { describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "../../engine";
import { parseQuery } from "../../query/query";
import { highlightText, highlightTokens, matchExpression, matchExpressions, queryTokens } from "./fts-query";

describe("queryTokens", () => {
  it("keeps letters and digits, folds case and accents, drops duplicates", () => {
    expect(queryTokens("Drain PUMP pump")).toEqual(["drain", "pump"]);
    expect(queryTokens("Café-Crème")).toEqual(["cafe", "creme"]);
    expect(queryTokens("DA97-07365A")).toEqual(["da97", "07365a"]);
  });
});

describe("matchExpression", () => {
  const fts = (q: string) => matchExpression(parseQuery(q));

  it("requires every word, each as a quoted prefix term", () => {
    expect(fts("WR55")).toBe('"wr55"*');
    expect(fts("drain pump")).toBe('"drain"* AND "pump"*');
    expect(fts("")).toBeNull();
  });

  it("looks a word of several tokens up by all of them and as one joined token", () => {
    expect(fts("MRO-8595736")).toBe('(("mro"* AND "8595736"*) OR "mro8595736"*)');
    expect(fts("<b>pump</b>")).toBe('(("b"* AND "pump"*) OR "bpumpb"*)');
  });

  it("renders phrases exactly, OR groups in parentheses and exclusions without prefix", () => {
    expect(fts('"wall oven" pump OR valve -"self clean" -lamp')).toBe('"wall oven" AND ("pump"* OR "valve"*) NOT ("self clean" OR "lamp")');
  });

  it("keeps exclusions apart when nothing is asked for", () => {
    expect(matchExpressions(parseQuery("-wall"))).toEqual({ include: null, exclude: '"wall"' });
    expect(fts("-wall")).toBeNull();
  });

  it("never passes user text as FTS5 syntax", () => {
    for (const q of ['" OR x', "NEAR(a b)", "a* AND b", "{col}: x", "^start", 'x""y', "-(a)"]) {
      const expression = fts(q) ?? "";
      // Outside quoted strings only the tree's own operators, parentheses and stars remain.
      const outside = expression.replace(/"(?:[^"]|"")*"/g, "").replace(/\b(AND|OR|NOT)\b/g, "");
      expect(outside).toMatch(/^[\s()*]*$/);
    }
  });
});

describe("highlightText", () => {
  it("marks whole words that start with a token or its stem", () => {
    expect(highlightText("Drain Pump Assembly, pumps", ["pump"])).toBe(`Drain ${HL_PRE}Pump${HL_POST} Assembly, ${HL_PRE}pumps${HL_POST}`);
    expect(highlightText("Drain Pump", highlightTokens(parseQuery("pumps -drain")))).toBe(`Drain ${HL_PRE}Pump${HL_POST}`);
  });

  it("returns null when nothing matched", () => {
    expect(highlightText("Drain Pump", ["valve"])).toBeNull();
    expect(highlightText("", ["valve"])).toBeNull();
  });

  it("leaves markup in the text as text", () => {
    expect(highlightText("<b>pump</b>", ["pump"])).toBe(`<b>${HL_PRE}pump${HL_POST}</b>`);
  });
});
