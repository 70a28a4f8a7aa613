import { describe, expect, it } from "vitest";
import { contentDisposition } from "./content-disposition.server";
import { CsvRecordCounter, dispositionFilename, progressOf, progressText } from "./progress";

describe("progressOf", () => {
  it("estimates the time left at the spec's 1000 records a second before the first record", () => {
    expect(progressOf(0, 5000, 0)).toEqual({ fetched: 0, total: 5000, percentage: 0, estimatedTimeRemaining: 5, isComplete: false });
  });

  it("uses the rate so far once records arrive", () => {
    const p = progressOf(1000, 5000, 2000);
    expect(p.percentage).toBe(20);
    expect(p.estimatedTimeRemaining).toBe(8);
    expect(progressText(p)).toBe("1,000 of 5,000 records (20 %), about 8 s left");
  });

  it("never passes the total and says done when complete", () => {
    expect(progressOf(6000, 5000, 1000).fetched).toBe(5000);
    const done = progressOf(5000, 5000, 3000, true);
    expect(done).toMatchObject({ percentage: 100, estimatedTimeRemaining: 0, isComplete: true });
    expect(progressText(done)).toBe("5,000 of 5,000 records (100 %), done");
  });
});

describe("CsvRecordCounter", () => {
  it("counts records across chunks, not the header nor line ends inside quoted cells", () => {
    const counter = new CsvRecordCounter();
    for (const chunk of ['\uFEFFItem Number,Item Description\r\nA1,"two\nlines"\r', '\nB2,plain\r\n', 'C3,"a ""quote"""\r\n']) counter.push(chunk);
    expect(counter.records).toBe(3);
  });
});

describe("dispositionFilename", () => {
  it("reads back the name the server wrote, accents and all", () => {
    for (const name of ["all-results-2026-11-28.csv", "réservoir-pièces.csv", 'odd"name.csv']) {
      expect(dispositionFilename(contentDisposition(name), "x.csv")).toBe(name);
    }
    expect(dispositionFilename('attachment; filename="plain.csv"', "x.csv")).toBe("plain.csv");
    expect(dispositionFilename(null, "x.csv")).toBe("x.csv");
  });
});
