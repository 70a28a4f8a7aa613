import { describe, expect, it } from "vitest";
import { capturedLog, log, routeConsoleToLog } from "./log.server";

describe("the log", () => {
  it("writes one entry a line with the time, the level as a word and the fields given", async () => {
    const { entries } = await capturedLog(() => log.info({ requestId: "r1", status: 200 }, "request"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: "info", requestId: "r1", status: 200, msg: "request", pid: process.pid });
    expect(Date.parse(String(entries[0]!.time))).not.toBeNaN();
  });

  it("keeps an error on its entry's line, its stack a field", async () => {
    const { entries } = await capturedLog(() => log.error({ err: new TypeError("x is undefined") }, "search failed"));
    const err = entries[0]!.err as { type: string; message: string; stack: string };
    expect(err).toMatchObject({ type: "TypeError", message: "x is undefined" });
    expect(err.stack).toContain("log.server.test.ts");
  });

  it("keeps text that would start a line of its own inside its field", async () => {
    const { entries } = await capturedLog(() => log.warn({ query: 'pump\n{"level":"info","msg":"forged"}' }, "refused"));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.query).toContain("forged");
  });

  it("takes what the console prints, on the server, as entries of its level", async () => {
    const saved = { error: console.error, warn: console.warn, info: console.info, log: console.log, debug: console.debug };
    try {
      const { entries } = await capturedLog(() => {
        routeConsoleToLog();
        console.error("Rate limit %s could not be counted:", "signIns", new Error("connection refused"));
        console.log("Catalogue ready");
      });
      expect(entries.map((e) => [e.level, e.msg])).toEqual([
        ["error", "Rate limit signIns could not be counted:"],
        ["info", "Catalogue ready"],
      ]);
      expect((entries[0]!.err as { message: string }).message).toBe("connection refused");
    } finally {
      Object.assign(console, saved);
    }
  });
});
