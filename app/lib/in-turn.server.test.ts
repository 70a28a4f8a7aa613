import { describe, expect, it } from "vitest";
import { inTurn } from "./in-turn.server";

describe("inTurn", () => {
  it("runs the work in the order asked and answers with its result", async () => {
    const log: string[] = [];
    const all = ["a", "b", "c"].map((name) =>
      inTurn(() => {
        log.push(name);
        return name.toUpperCase();
      }),
    );
    expect(log).toEqual([]); // nothing runs in the caller's turn
    expect(await Promise.all(all)).toEqual(["A", "B", "C"]);
    expect(log).toEqual(["a", "b", "c"]);
  });

  it("lets the event loop go round between two pieces of work", async () => {
    const log: string[] = [];
    const first = inTurn(() => {
      // A timer due now stands for the I/O that arrives during a render: it is handled before
      // the next render starts, not after the whole queue.
      setTimeout(() => log.push("timer"), 0);
      const end = performance.now() + 5; // a render's worth of work: the timer is due when it ends
      while (performance.now() < end);
      log.push("first");
    });
    const second = inTurn(() => log.push("second"));
    await Promise.all([first, second]);
    expect(log).toEqual(["first", "timer", "second"]);
  });

  it("gives the caller the error of work that throws, and goes on with the next", async () => {
    const failing = inTurn(() => {
      throw new Error("no render");
    });
    const next = inTurn(() => "next");
    await expect(failing).rejects.toThrow("no render");
    expect(await next).toBe("next");
    // The queue is empty again and starts anew.
    expect(await inTurn(() => "later")).toBe("later");
  });
});
