import { describe, expect, it } from "vitest";
import { failureQuestion, failureReasonOf } from "./failure";

describe("the export failure's question", () => {
  it("is spec §8's text around the reason", () => {
    expect(failureQuestion("Failed to fetch")).toBe(
      "Export failed: Failed to fetch. Please check the browser console for more details. Would you like to try again?",
    );
    expect(failureQuestion("Request timeout.")).toBe(
      "Export failed: Request timeout. Please check the browser console for more details. Would you like to try again?",
    );
  });

  it("reads the reason from a failure page's title", () => {
    expect(failureReasonOf("Export failed: Fusion service may be down – Crib Search")).toBe("Fusion service may be down");
    expect(failureReasonOf("Failed to get export estimate: Search failed – Crib Search")).toBe("Failed to get export estimate: Search failed");
    expect(failureReasonOf("")).toBeNull();
  });
});
