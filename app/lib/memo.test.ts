import { describe, expect, it } from "vitest";
import { perName, perObject } from "./memo";

describe("perName", () => {
  it("asks the rule once per name, null answers included", () => {
    const asked: string[] = [];
    const rule = perName((name) => {
      asked.push(name);
      return name === "none" ? null : name.toUpperCase();
    });
    expect([rule("a"), rule("a"), rule("none"), rule("none")]).toEqual(["A", "A", null, null]);
    expect(asked).toEqual(["a", "none"]);
  });

  it("starts afresh when the bound is reached, and still answers right", () => {
    const asked: string[] = [];
    const rule = perName((name) => {
      asked.push(name);
      return name.length;
    }, 2);
    expect([rule("a"), rule("bb"), rule("ccc"), rule("a")]).toEqual([1, 2, 3, 1]);
    expect(asked).toEqual(["a", "bb", "ccc", "a"]);
  });
});

describe("perObject", () => {
  it("builds once per object", () => {
    let built = 0;
    const answer = perObject((key: { n: number }) => {
      built++;
      return key.n * 2;
    });
    const one = { n: 1 };
    const two = { n: 2 };
    expect([answer(one), answer(one), answer(two)]).toEqual([2, 2, 4]);
    expect(built).toBe(2);
  });
});
