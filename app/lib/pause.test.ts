import { describe, expect, it } from "vitest";
import { pause } from "./pause";

describe("pause", () => {
  it("resolves after the wait", async () => {
    await expect(pause(1)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when it is aborted during the wait", async () => {
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(pause(60_000, AbortSignal.abort(new Error("already gone")))).rejects.toThrow("already gone");
  });
});
