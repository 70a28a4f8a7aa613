import { describe, expect, it } from "vitest";
import { isMatchAll, MAX_TERMS, numberKey, parseQuery, partNumberKeyOf, queryText, searchQuery, type QueryTree } from "./query";

const w = (text: string) => ({ kind: "word" as const, text });
const p = (text: string) => ({ kind: "phrase" as const, text });

describe("parseQuery", () => {
  it("reads words as clauses that must all match", () => {
    expect(parseQuery("  drain   pump ")).toEqual({ all: [[w("drain")], [w("pump")]], none: [] });
  });

  it("reads quoted phrases, with inner spaces collapsed", () => {
    expect(parseQuery('"wall  oven" rack')).toEqual({ all: [[p("wall oven")], [w("rack")]], none: [] });
  });

  it("reads -word and -\"a phrase\" as exclusions", () => {
    expect(parseQuery('oven -wall -"self clean"')).toEqual({ all: [[w("oven")]], none: [w("wall"), p("self clean")] });
  });

  it("joins words around OR into one clause, also in a chain", () => {
    expect(parseQuery("pump OR valve seal")).toEqual({ all: [[w("pump"), w("valve")], [w("seal")]], none: [] });
    expect(parseQuery('a OR "b c" OR d')).toEqual({ all: [[w("a"), p("b c"), w("d")]], none: [] });
  });

  it("reads OR as a plain word where it joins nothing, and lower-case or always as a word", () => {
    expect(parseQuery("OR pump")).toEqual({ all: [[w("or")], [w("pump")]], none: [] });
    expect(parseQuery("pump OR")).toEqual({ all: [[w("pump")], [w("or")]], none: [] });
    expect(parseQuery("pump OR -valve")).toEqual({ all: [[w("pump")], [w("or")]], none: [w("valve")] });
    expect(parseQuery("pump or valve")).toEqual({ all: [[w("pump")], [w("or")], [w("valve")]], none: [] });
  });

  it("keeps hyphens, slashes and inch marks inside words: part numbers and sizes stay words", () => {
    expect(parseQuery('MRO-8595736 1/2" valve')).toEqual({ all: [[w("MRO-8595736")], [w('1/2"')], [w("valve")]], none: [] });
  });

  it("treats anything else as plain words or nothing: no operator comes from user text", () => {
    expect(parseQuery('"unclosed phrase')).toEqual({ all: [[w("unclosed")], [w("phrase")]], none: [] });
    expect(parseQuery("*:* * ! ( ) - -- \"\"")).toEqual({ all: [], none: [] });
    expect(parseQuery("{!join from=a to=b}x AND NOT y")).toEqual({
      all: [[w("{!join")], [w("from=a")], [w("to=b}x")], [w("AND")], [w("NOT")], [w("y")]],
      none: [],
    });
    expect(parseQuery("field:value NEAR(a b)")).toEqual({ all: [[w("field:value")], [w("NEAR(a")], [w("b)")]], none: [] });
  });

  it("bounds the number of terms", () => {
    const tree = parseQuery(Array.from({ length: 300 }, (_, i) => `w${i}`).join(" "));
    expect(tree.all.flat()).toHaveLength(MAX_TERMS);
  });

  it("round-trips through its canonical text, for hostile text too", () => {
    const samples = [
      'oven -wall "self clean" pump OR valve',
      'OR or "OR" -OR a OR b OR',
      '"a" "" "b -c" -"d e" --f -"g',
      'x"y "z',
      "\u0000 \uD800 ø 部品 🔧 -ñ",
      '1/2" 3/4" "5/8"',
    ];
    for (const text of samples) {
      const tree = parseQuery(text);
      expect(parseQuery(queryText(tree))).toEqual(tree);
    }
  });

  it("round-trips random text", () => {
    const alphabet = ['"', "-", " ", "OR", "a", "b", "1", "*", ":", "(", ")", "\\", "\t", "é"];
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed);
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next() % 20 }, () => alphabet[next() % alphabet.length]).join("");
      const tree: QueryTree = parseQuery(text);
      expect(parseQuery(queryText(tree))).toEqual(tree);
    }
  });
});

describe("searchQuery", () => {
  it("joins the search-within terms to the main query's tree", () => {
    expect(searchQuery("oven -wall", ["rack", '"chrome plated" -nylon'])).toEqual({
      all: [[w("oven")], [w("rack")], [p("chrome plated")]],
      none: [w("wall"), w("nylon")],
    });
  });

  it("matches everything for an empty or match-all query", () => {
    expect(isMatchAll(searchQuery("", []))).toBe(true);
    expect(isMatchAll(searchQuery("*:*", []))).toBe(true);
    expect(searchQuery("*:*", ["seal"])).toEqual({ all: [[w("seal")]], none: [] });
  });
});

describe("part-number keys", () => {
  it("ignore case, spaces and separators", () => {
    expect(numberKey("MRO-8595736")).toBe("mro8595736");
    expect(numberKey(" dc63 17530B ")).toBe("dc6317530b");
    expect(numberKey("Café/12")).toBe("cafe12");
  });

  it("are taken from queries of plain words that hold a digit", () => {
    expect(partNumberKeyOf(parseQuery("MRO-8595736"))).toBe("mro8595736");
    expect(partNumberKeyOf(parseQuery("DC63 17530B"))).toBe("dc6317530b");
    expect(partNumberKeyOf(parseQuery("pump"))).toBeNull();
    expect(partNumberKeyOf(parseQuery("WR55 -x"))).toBeNull();
    expect(partNumberKeyOf(parseQuery('"WR55X10942"'))).toBeNull();
    expect(partNumberKeyOf(parseQuery("W1 OR W2"))).toBeNull();
    expect(partNumberKeyOf(parseQuery("a1"))).toBeNull();
    expect(partNumberKeyOf(parseQuery("MRO 8595736"))).toBe("mro8595736");
    expect(partNumberKeyOf(parseQuery("pump 120V"))).toBeNull();
    expect(partNumberKeyOf(parseQuery("a1 b2 c3 d4"))).toBeNull();
  });
});
