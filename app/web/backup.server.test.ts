import { describe, expect, it } from "vitest";
import { backupNoticeText, backupReason, formatBuildDate } from "./backup.server";

describe("the backup notice", () => {
  it("names the backup catalogue's build date, as a day in UTC", () => {
    expect(formatBuildDate("2026-11-24T23:59:59.000Z")).toBe("24 November 2026");
    expect(backupNoticeText({ source: "catalogue", builtOn: "24 November 2026" })).toBe(
      "The search platform is not answering; these results come from the backup catalogue of 24 November 2026; stock figures may be out of date.",
    );
  });

  it("goes without the date when the catalogue does not know it", () => {
    expect(formatBuildDate(null)).toBeNull();
    expect(formatBuildDate("not a date")).toBeNull();
    expect(backupNoticeText({ source: "catalogue", builtOn: null })).toBe(
      "The search platform is not answering; these results come from the backup catalogue; stock figures may be out of date.",
    );
  });

  it("says the product backend answered where that is the backup", () => {
    expect(backupNoticeText({ source: "backend" })).toBe(
      "The search platform is not answering; these results come from the product backend; stock figures may be out of date.",
    );
  });

  it("says what the platform answered when it refused the portal's key or did not know its profile", () => {
    expect(backupReason("Authentication failed - API key may be invalid or expired")).toBe("key-refused");
    expect(backupReason("Access forbidden - API key may not have required permissions")).toBe("key-refused");
    expect(backupReason("Query profile or collection not found - check configuration")).toBe("profile-unknown");
    expect(backupReason(undefined)).toBe("outage");
    expect(backupNoticeText({ source: "catalogue", builtOn: "24 November 2026" }, "key-refused")).toBe(
      "The search platform refused the portal's key; these results come from the backup catalogue of 24 November 2026; stock figures may be out of date.",
    );
    expect(backupNoticeText({ source: "backend" }, "profile-unknown")).toBe(
      "The search platform does not know the portal's search set-up; these results come from the product backend; stock figures may be out of date.",
    );
  });
});
