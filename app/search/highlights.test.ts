import { describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "./engine";
import { splitHighlights } from "./highlights";

describe("splitHighlights", () => {
  it("splits marked runs from plain text", () => {
    expect(splitHighlights(`Drain ${HL_PRE}Pump${HL_POST} Assembly`)).toEqual([
      { text: "Drain ", mark: false },
      { text: "Pump", mark: true },
      { text: " Assembly", mark: false },
    ]);
    expect(splitHighlights("plain")).toEqual([{ text: "plain", mark: false }]);
    expect(splitHighlights("")).toEqual([]);
  });

  it("drops stray, nested and empty markers without showing them", () => {
    expect(splitHighlights(`a${HL_POST}b`)).toEqual([{ text: "ab", mark: false }]);
    expect(splitHighlights(`${HL_PRE}a${HL_PRE}b${HL_POST}c`)).toEqual([
      { text: "ab", mark: true },
      { text: "c", mark: false },
    ]);
    expect(splitHighlights(`a${HL_PRE}${HL_POST}b`)).toEqual([{ text: "ab", mark: false }]);
    expect(splitHighlights(`a${HL_PRE}b`)).toEqual([
      { text: "a", mark: false },
      { text: "b", mark: true },
    ]);
    const joined = splitHighlights(`${HL_POST}${HL_PRE}x${HL_PRE}${HL_POST}${HL_POST}y`).map((p) => p.text).join("");
    expect(joined).toBe("xy");
  });
});
