import { describe, expect, it } from "vitest";
import { SCAN, ScanBurst } from "./scan-keys";

/** Types `text` from `start`, a key every `gap` ms, then Enter `gap` ms after the last key. */
function typed(burst: ScanBurst, text: string, gap: number, start = 1000): string | null {
  let time = start;
  for (const char of text) {
    burst.key(char, time, SCAN.FIELD_GAP_MS);
    time += gap;
  }
  return burst.enter(time, SCAN.FIELD_GAP_MS);
}

describe("ScanBurst", () => {
  it("takes a wedge's keys, 8 ms apart and ending in Enter, as a scan", () => {
    expect(typed(new ScanBurst(), "WR00T24176", 8)).toBe("WR00T24176");
  });

  it("takes only the burst as the scan when a hand typed into the same field just before", () => {
    const burst = new ScanBurst();
    [..."steel"].forEach((char, i) => burst.key(char, i * 60, SCAN.FIELD_GAP_MS));
    expect(burst.key("W", 300, SCAN.FIELD_GAP_MS)).toBe(true);
    [..."R00T24176"].forEach((char, i) => burst.key(char, 308 + i * 8, SCAN.FIELD_GAP_MS));
    expect(burst.enter(308 + 9 * 8, SCAN.FIELD_GAP_MS)).toBe("WR00T24176");
  });

  it("leaves keys typed by hand alone, even a fast typist's", () => {
    expect(typed(new ScanBurst(), "pump", 120)).toBeNull();
    expect(typed(new ScanBurst(), "thermostat", 60)).toBeNull();
    // A hand's rolled keys come close together now and then, never a whole word's.
    const burst = new ScanBurst();
    [..."pump"].forEach((char, i) => burst.key(char, [1000, 1090, 1120, 1160][i]!, SCAN.FIELD_GAP_MS));
    expect(burst.enter(1250, SCAN.FIELD_GAP_MS)).toBeNull();
  });

  it(`needs at least ${SCAN.MIN_LENGTH} characters`, () => {
    expect(typed(new ScanBurst(), "abc", 8)).toBeNull();
    expect(typed(new ScanBurst(), "abcd", 8)).toBe("abcd");
  });

  it("starts again after a pause: only the keys after it count", () => {
    const burst = new ScanBurst();
    burst.key("x", 0, SCAN.FIELD_GAP_MS);
    burst.key("y", 150, SCAN.FIELD_GAP_MS);
    expect(typed(burst, "A-1234", 8, 400)).toBe("A-1234");
  });

  it("is no scan when Enter comes long after the last key", () => {
    const burst = new ScanBurst();
    "A-1234".split("").forEach((char, i) => burst.key(char, i * 8, SCAN.FIELD_GAP_MS));
    expect(burst.enter(40 + SCAN.FIELD_GAP_MS + 1, SCAN.FIELD_GAP_MS)).toBeNull();
  });

  it("starts again after each Enter", () => {
    const burst = new ScanBurst();
    expect(typed(burst, "A-1234", 8)).toBe("A-1234");
    expect(burst.enter(1100, SCAN.FIELD_GAP_MS)).toBeNull();
  });

  it("outside a text field, takes a scanner slowed by a busy terminal (keys up to half a second apart) as a scan", () => {
    const burst = new ScanBurst();
    [..."abcd"].forEach((char, i) => burst.key(char, i * 600, SCAN.PAGE_GAP_MS));
    expect(burst.enter(2400, SCAN.PAGE_GAP_MS)).toBeNull();
    [..."MRO-3027901"].forEach((char, i) => burst.key(char, 5000 + i * 120, SCAN.PAGE_GAP_MS));
    expect(burst.enter(5000 + 11 * 120, SCAN.PAGE_GAP_MS)).toBe("MRO-3027901");
  });

  it("ends a burst at any other key", () => {
    const burst = new ScanBurst();
    [..."A-12"].forEach((char, i) => burst.key(char, i * 8, SCAN.FIELD_GAP_MS));
    burst.reset();
    expect(burst.enter(40, SCAN.FIELD_GAP_MS)).toBeNull();
  });

  it("says which key begins a burst, so a text field's value before it can be kept", () => {
    const burst = new ScanBurst();
    expect(burst.key("a", 0, SCAN.FIELD_GAP_MS)).toBe(true);
    expect(burst.key("b", 8, SCAN.FIELD_GAP_MS)).toBe(false);
    expect(burst.key("c", 200, SCAN.FIELD_GAP_MS)).toBe(true);
  });
});
