import { describe, expect, it } from "vitest";
import { normalizeDate } from "./catalog-import-rows";

describe("normalizeDate", () => {
  it("stores dates and date-times as UTC instants", () => {
    expect(normalizeDate("2024-03-15")).toBe("2024-03-15T00:00:00Z");
    expect(normalizeDate("2024-03-15T09:30")).toBe("2024-03-15T09:30:00Z");
    expect(normalizeDate("2024-03-15 09:30:05")).toBe("2024-03-15T09:30:05Z");
    expect(normalizeDate("2024-03-15T09:30:05.250+0200")).toBe("2024-03-15T07:30:05.250Z");
    expect(normalizeDate("2024-02-29")).toBe("2024-02-29T00:00:00Z");
    expect(normalizeDate("2000-02-29")).toBe("2000-02-29T00:00:00Z");
    expect(normalizeDate("2024-03-15T09:30:05.000Z")).toBe("2024-03-15T09:30:05Z");
    expect(normalizeDate("2024-03-15T23:30:00-05:00")).toBe("2024-03-16T04:30:00Z");
  });

  it("rejects what is not a real ISO 8601 date", () => {
    for (const text of ["2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "15/03/2024", "2024-03-15T25:00", "2024-3-5", "yesterday"]) {
      expect(normalizeDate(text), text).toBeNull();
    }
  });
});
