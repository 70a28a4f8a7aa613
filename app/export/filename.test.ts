import { describe, expect, it } from "vitest";
import { customFilename, exportFilename, isoDate, slug } from "./filename";

const date = new Date(Date.UTC(2026, 10, 23, 15, 30));
const SAFE_NAME = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{M}\p{N}]*(-[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{M}\p{N}]*)*\.csv$/u;

describe("isoDate", () => {
  it("formats YYYY-MM-DD with zero padding", () => {
    expect(isoDate(date)).toBe("2026-11-23");
    expect(isoDate(new Date(Date.UTC(2027, 0, 5)))).toBe("2027-01-05");
  });

  it("uses the UTC day, whatever the local time zone", () => {
    expect(isoDate(new Date("2026-11-23T23:59:59.999Z"))).toBe("2026-11-23");
    expect(isoDate(new Date("2026-11-24T00:00:00+02:00"))).toBe("2026-11-23");
  });

  it("rejects an invalid date", () => {
    expect(() => isoDate(new Date("nope"))).toThrow(RangeError);
  });
});

describe("slug", () => {
  it("lowercases and hyphenates", () => {
    expect(slug("All Results")).toBe("all-results");
    expect(slug("WR55X10942")).toBe("wr55x10942");
  });

  it("removes diacritics and replaces other characters, collapsing runs and trimming", () => {
    expect(slug("Kühlschrank/ÄÖ#%")).toBe("kuhlschrank-ao");
    expect(slug("  --a  //  b--  ")).toBe("a-b");
    expect(slug("İstanbul Straße")).toBe("istanbul-straße");
  });

  it("keeps letters and digits of other scripts", () => {
    expect(slug("冷蔵庫 ポンプ")).toBe("冷蔵庫-ポンプ");
    expect(slug("한국어")).toBe("한국어");
    expect(slug("مضخة 2")).toBe("مضخة-2");
    expect(slug("पंप भाग")).toBe("पंप-भाग");
    expect(slug("\u3099x / \u0903y")).toBe("x-y");
  });

  it("is empty when nothing usable is left", () => {
    expect(slug("../..//")).toBe("");
    expect(slug("🔧")).toBe("");
  });
});

describe("exportFilename", () => {
  it("appends the date and the extension", () => {
    expect(exportFilename("all-results", date)).toBe("all-results-2026-11-23.csv");
    expect(exportFilename("bom-WR55X10942", date)).toBe("bom-wr55x10942-2026-11-23.csv");
  });

  it("slugs unicode item numbers", () => {
    expect(exportFilename("bom-Kühlschrank/ÄÖ#%", date)).toBe("bom-kuhlschrank-ao-2026-11-23.csv");
    expect(exportFilename("where-used-asset-all-冷蔵庫", date)).toBe("where-used-asset-all-冷蔵庫-2026-11-23.csv");
  });

  it("cuts a long prefix at a hyphen to stay within 50 characters", () => {
    const name = exportFilename("where-used-asset-all-WR55X10942-PUMP-ASSEMBLY-HOUSING-REAR", date);
    expect(name).toBe("where-used-asset-all-wr55x10942-2026-11-23.csv");
    expect(name.length).toBeLessThanOrEqual(50);
  });

  it("cuts a long item number with no hyphen mid-word rather than dropping it", () => {
    const name = exportFilename(`bom-${"A1".repeat(40)}`, date);
    expect(name).toBe(`bom-${"a1".repeat(15)}a-2026-11-23.csv`);
    expect(name).toHaveLength(50);
  });

  it("keeps every long name within 50 characters and well formed", () => {
    for (const item of ["X".repeat(200), "a-".repeat(60), "冷".repeat(60), "𠮷".repeat(60), `${"b".repeat(34)}-c`]) {
      for (const prefix of [`bom-${item}`, `where-used-asset-all-${item}`, `where-used-pm-${item}`]) {
        const name = exportFilename(prefix, date);
        expect(Array.from(name).length).toBeLessThanOrEqual(50);
        expect(name).toMatch(/-2026-11-23\.csv$/);
        expect(name).toMatch(SAFE_NAME);
        expect(() => encodeURIComponent(name)).not.toThrow();
      }
    }
  });

  it("falls back to a generic prefix when nothing usable is left", () => {
    expect(exportFilename("///", date)).toBe("export-2026-11-23.csv");
  });
});

describe("customFilename", () => {
  it("is null for nothing, so the caller uses the dated default", () => {
    expect(customFilename(undefined)).toBeNull();
    expect(customFilename(null)).toBeNull();
    expect(customFilename("")).toBeNull();
    expect(customFilename("   \t ")).toBeNull();
    expect(customFilename("../..")).toBeNull();
    expect(customFilename(".csv")).toBeNull();
  });

  it("trims and appends .csv", () => {
    expect(customFilename("  pumps  ")).toBe("pumps.csv");
    expect(customFilename("search-results.csv")).toBe("search-results.csv");
    expect(customFilename("My Pumps Q4")).toBe("my-pumps-q4.csv");
  });

  it("does not double an extension in any case", () => {
    expect(customFilename("report.CSV")).toBe("report.csv");
    expect(customFilename("report.csv.csv")).toBe("report-csv.csv");
  });

  it("never lets path separators, dots, quotes or control characters through", () => {
    expect(customFilename("../../etc/passwd")).toBe("etc-passwd.csv");
    expect(customFilename('a"b.csv')).toBe("a-b.csv");
    expect(customFilename("..\\..\\windows\\win.ini")).toBe("windows-win-ini.csv");
    expect(customFilename("a\r\nContent-Type: text/html\u0000b")).toBe("a-content-type-text-html-b.csv");
    for (const input of ["../../etc/passwd", 'a"b.csv', "C:\\x\\y.csv", "a/./b/../c", "x\u0007\u001b[31m", "'; rm -rf /"]) {
      const name = customFilename(input);
      expect(name).not.toBeNull();
      expect(name).toMatch(SAFE_NAME);
      expect(name).not.toMatch(/\.\.|[/\\"'\p{Cc}]/u);
    }
  });

  it("keeps unicode letters, without diacritics", () => {
    expect(customFilename("Kühlschrank/ÄÖ#%")).toBe("kuhlschrank-ao.csv");
    expect(customFilename("冷蔵庫の部品")).toBe("冷蔵庫の部品.csv");
  });

  it("caps the whole name at 50 characters", () => {
    const name = customFilename(`${"word-".repeat(30)}end.csv`);
    expect(name).not.toBeNull();
    expect(name?.length).toBeLessThanOrEqual(50);
    expect(name).toMatch(SAFE_NAME);
    expect(customFilename("x".repeat(100))).toBe(`${"x".repeat(46)}.csv`);
  });
});
