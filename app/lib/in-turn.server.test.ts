import { describe, expect, it } from "vitest";
import { inTurn } from "./in-turn.server";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("inTurn", () => {
  it("runs one piece of work at a time, in the order asked, each until it says done", async () => {
    const log: string[] = [];
    const dones: (() => void)[] = [];
    const all = ["a", "b", "c"].map((name) =>
      inTurn(async (done) => {
        log.push(`start ${name}`);
        dones.push(() => {
          log.push(`done ${name}`);
          done();
        });
        return name;
      }),
    );
    await tick();
    expect(log).toEqual(["start a"]);
    dones[0]!();
    await tick();
    expect(log).toEqual(["start a", "done a", "start b"]);
    dones[1]!();
    await tick();
    dones[2]!();
    expect(await Promise.all(all)).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["start a", "done a", "start b", "done b", "start c", "done c"]);
  });

  it("gives the turn up when the work throws before it started, and the caller gets the error", async () => {
    const failing = inTurn(() => {
      throw new Error("no render");
    });
    const next = inTurn(async (done) => {
      done();
      return "next";
    });
    await expect(failing).rejects.toThrow("no render");
    expect(await next).toBe("next");
  });

  it("lets a turn end before the work's answer, and tolerates done twice", async () => {
    let release!: (value: string) => void;
    const first = inTurn((done) => {
      done();
      done();
      return new Promise<string>((resolve) => (release = resolve));
    });
    const second = inTurn(async (done) => {
      done();
      return "second";
    });
    expect(await second).toBe("second");
    release("first");
    expect(await first).toBe("first");
  });
});
