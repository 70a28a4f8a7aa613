import { describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "../../engine";
import { highlightText, matchExpression, queryTokens } from "./fts-query";

describe("queryTokens", () => {
  it("keeps letters and digits, folds case and accents, drops duplicates", () => {
    expect(queryTokens("Drain PUMP pump")).toEqual(["drain", "pump"]);
    expect(queryTokens("Café-Crème")).toEqual(["cafe", "creme"]);
    expect(queryTokens("DA97-07365A")).toEqual(["da97", "07365a"]);
  });

  it("turns query syntax into plain words or nothing", () => {
    expect(queryTokens('"')).toEqual([]);
    expect(queryTokens("(*")).toEqual([]);
    expect(queryTokens("NEAR(a b)")).toEqual(["near", "a", "b"]);
    expect(queryTokens("{!join from=a to=b}x")).toEqual(["join", "from", "a", "to", "b", "x"]);
    expect(queryTokens("*:*")).toEqual([]);
  });
});

describe("matchExpression", () => {
  it("quotes every token as a prefix term, all required", () => {
    expect(matchExpression(["wr55"])).toBe('"wr55"*');
    expect(matchExpression(["drain", "pump"])).toBe('"drain"* AND "pump"*');
    expect(matchExpression([])).toBeNull();
  });
});

describe("highlightText", () => {
  it("marks whole words that start with a token", () => {
    expect(highlightText("Drain Pump Assembly, pumps", ["pump"])).toBe(
      `Drain ${HL_PRE}Pump${HL_POST} Assembly, ${HL_PRE}pumps${HL_POST}`,
    );
  });

  it("returns null when nothing matched", () => {
    expect(highlightText("Drain Pump", ["valve"])).toBeNull();
    expect(highlightText("", ["valve"])).toBeNull();
  });

  it("leaves markup in the text as text", () => {
    expect(highlightText("<b>pump</b>", ["pump"])).toBe(`<b>${HL_PRE}pump${HL_POST}</b>`);
  });
});
