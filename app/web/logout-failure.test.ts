import { json } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { LOGOUT_FAILED, logoutFailure } from "./sign-in.server";

describe("a logout that fails", () => {
  it("says spec §8's text when the session store is not answering (the 503 its guard answers), asking to retry later", async () => {
    const storeDown = json({ message: "Sign-in is unavailable for a moment. Please try again in a minute." }, { status: 503 });
    const answer = logoutFailure(storeDown, "req-1");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("30");
    expect(await answer.json()).toEqual({ message: LOGOUT_FAILED });
    expect(LOGOUT_FAILED).toBe("Failed to logout. Please try again.");
  });

  it("says it for any other failure too", async () => {
    expect(await logoutFailure(new Error("revocation failed"), "req-2").json()).toEqual({ message: LOGOUT_FAILED });
  });

  it("leaves an answer meant for the person as it is (an expired form)", async () => {
    const expired = json({ message: "This form has expired. Reload the page and try again." }, { status: 403 });
    expect(logoutFailure(expired, "req-3")).toBe(expired);
  });
});
