import { describe, expect, it } from "vitest";
import { readSessionCookie, sessionCookie } from "./signals-cookie.server";

const ID = "AbCdEfGhIjKlMnOpQrSt_-";
const SECRET = "a secret";
const pairOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("the signals session cookie", () => {
  it("reads back the id it was made with, among other cookies", () => {
    const made = sessionCookie("crib-sid", ID, SECRET);
    expect(readSessionCookie(`theme-storage=dark; ${pairOf(made)}; lite=1`, "crib-sid", SECRET)).toBe(ID);
  });

  it("is for the whole site, a year, kept from scripts, SameSite=Lax; Secure only under a __Host- name", () => {
    const attributes = (setCookie: string) => setCookie.split(";").slice(1).map((a) => a.trim()).sort();
    expect(attributes(sessionCookie("crib-sid", ID, SECRET))).toEqual(["HttpOnly", "Max-Age=31536000", "Path=/", "SameSite=Lax"]);
    expect(attributes(sessionCookie("__Host-crib-sid", ID, SECRET))).toContain("Secure");
  });

  it("refuses an altered id or signature, another key's signature, a bare id and other names", () => {
    const pair = pairOf(sessionCookie("crib-sid", ID, SECRET));
    const value = pair.slice("crib-sid=".length);
    expect(readSessionCookie(`crib-sid=B${value.slice(1)}`, "crib-sid", SECRET)).toBeNull();
    expect(readSessionCookie(`${pair.slice(0, -3)}abc`, "crib-sid", SECRET)).toBeNull();
    expect(readSessionCookie(pair, "crib-sid", "another secret")).toBeNull();
    expect(readSessionCookie(`crib-sid=${ID}`, "crib-sid", SECRET)).toBeNull();
    expect(readSessionCookie(pair, "__Host-crib-sid", SECRET)).toBeNull();
    expect(readSessionCookie(null, "crib-sid", SECRET)).toBeNull();
  });

  it("refuses a signed value that is not a session id", () => {
    const made = pairOf(sessionCookie("crib-sid", "short", SECRET));
    expect(readSessionCookie(made, "crib-sid", SECRET)).toBeNull();
  });
});
