import { afterEach, describe, expect, it, vi } from "vitest";
import { SearchError } from "~/search/errors";
import { logFailure } from "./failure-log.server";

describe("logFailure", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs a known search error in one line, without a stack", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    logFailure("Where Used", new SearchError("Failed to fetch BOM data"), { requestId: "r1" });
    expect(warn).toHaveBeenCalledWith('[r1] Where Used failed: "Failed to fetch BOM data"');
    expect(error).not.toHaveBeenCalled();
  });

  it("keeps an engine's message on its line: what the user typed cannot forge another entry", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    logFailure("search", new SearchError("no such field: x\n[r0] search failed: forged"), { requestId: "r9" });
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line).not.toContain("\n");
    expect(line).toBe('[r9] search failed: "no such field: x\\n[r0] search failed: forged"');
  });

  it("logs anything unexpected with the error itself, so its stack is kept", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const bug = new TypeError("x is undefined");
    logFailure("search", bug, { requestId: "r2" });
    expect(error).toHaveBeenCalledWith("[r2] search failed", bug);
  });

  it("does not call a request the client went away from a failure", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const gone = new AbortController();
    gone.abort();
    logFailure("export", new Error("aborted"), { requestId: "r3", signal: gone.signal });
    expect(info).toHaveBeenCalledWith("[r3] export abandoned by the client");
    expect(error).not.toHaveBeenCalled();
  });
});
