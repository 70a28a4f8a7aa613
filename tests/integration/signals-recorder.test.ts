/**
 * The signals session the HTTP server hands over in the load context, and the one recorder of the
 * signals pages return (app/web/page-signals.server.ts, docs/decisions/035): what it records, under
 * which session, and that the request itself cannot name one.
 */
import fs from "node:fs";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, describe, expect, it, vi } from "vitest";
import { services } from "~/registry.server";
import type { SignalInput } from "~/signals/signals.server";
import { recordingSignals, signalSession, withSignals, type PageSignal } from "~/web/page-signals.server";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(20, { SIGNALS_ENABLED: "true" });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let views = 0;
/** A view of an item no other test views, so no repeat check of another test's holds it back. */
const view = (): Extract<SignalInput, { type: "view" }> => ({ type: "view", data: { docId: `DOC-${++views}` } });
const click = (docId: string): SignalInput => ({ type: "click", data: { docId, action: "pdp_export" } });

/** A page of this test: its answer and the signals it produced. */
const page = (signals: PageSignal[]) => Promise.resolve(withSignals({ shown: true }, signals));
const request = (headers: Record<string, string> = {}) => new Request("http://localhost/product/X", { headers });

/** The load context scripts/server.mjs gives a request with this Cookie header from this address. */
const contextOf = (cookie: string | undefined, client = "192.0.2.1"): AppLoadContext => ({ signals: signalSession(cookie, client).session });
/** A browser's cookie as the server sets it on a first page. */
const cookieOf = (client = "192.0.2.1") => signalSession(undefined, client).setCookie!.split(";")[0]!;

const newSignals = async (before: number) => (await readSignals()).slice(before);

describe("the signals session", () => {
  it("is the cookie's id when the cookie is valid, with no new cookie; a first visit or a made-up cookie gets a new one", () => {
    const cookie = cookieOf();
    const id = /^crib-sid=([\w-]{22})\./.exec(cookie)?.[1];
    expect(signalSession(cookie, "192.0.2.9")).toEqual({ session: { sessionId: id, identity: id }, setCookie: null });
    for (const header of [undefined, "", `${cookie.slice(0, -3)}abc`, "crib-sid=x", "theme=dark"]) {
      const { session, setCookie } = signalSession(header, "192.0.2.9");
      expect(setCookie).toMatch(/^crib-sid=[\w-]{22}\./);
      expect(session.sessionId).toBe(/^crib-sid=([\w-]{22})\./.exec(setCookie!)?.[1]);
      // Without a cookie of its own, a client is counted by its address, hashed.
      expect(session.identity).toMatch(/^client:[\w-]{22}$/);
      expect(session.identity).not.toContain("192.0.2.9");
    }
    expect(signalSession(undefined, "192.0.2.9").session.identity).toBe(signalSession(undefined, "192.0.2.9").session.identity);
    expect(signalSession(undefined, "192.0.2.9").session.identity).not.toBe(signalSession(undefined, "192.0.2.10").session.identity);
  });
});

describe("the recorder", () => {
  it("answers with the page's answer and records its signals under the load context's session", async () => {
    const before = (await readSignals()).length;
    const context = contextOf(cookieOf());
    const signals = [view(), view()];
    expect(await recordingSignals({ request: request(), context }, page(signals))).toEqual({ shown: true });
    const recorded = await newSignals(before);
    expect(recorded.map((s) => [s.type, s.data.docId, s.sessionId, s.userId])).toEqual(signals.map((s) => ["view", s.data.docId, context.signals!.sessionId, null]));
  });

  it("takes the session from the load context only: a client's x-crib-fresh-session and x-crib-client headers name none", async () => {
    const before = (await readSignals()).length;
    const made = "AAAAAAAAAAAAAAAAAAAAAA";
    const headers = { "x-crib-fresh-session": made, "x-crib-client": "198.51.100.1" };
    await recordingSignals({ request: request(headers), context: contextOf(undefined) }, page([view()]));
    await recordingSignals({ request: request(headers), context: {} }, page([view()]));
    const [first, second] = await newSignals(before);
    expect(first!.sessionId).toMatch(/^[\w-]{22}$/);
    expect(first!.sessionId).not.toBe(made);
    // A request the server did not hand over has no session at all.
    expect(second!.sessionId).toBeNull();
  });

  it("counts clients without a cookie by address: the same click from one address is recorded once", async () => {
    const before = (await readSignals()).length;
    for (const client of ["198.51.100.2", "198.51.100.2", "198.51.100.3"]) {
      await recordingSignals({ request: request(), context: contextOf(undefined, client) }, page([click("ITEM-BY-ADDRESS")]));
    }
    expect((await newSignals(before)).map((s) => s.data.docId)).toEqual(["ITEM-BY-ADDRESS", "ITEM-BY-ADDRESS"]);
  });

  it("records a promised signal when it comes, and nothing for one that comes to nothing or fails", async () => {
    const before = (await readSignals()).length;
    let finish: (signal: SignalInput | null) => void = () => undefined;
    const later = new Promise<SignalInput | null>((resolve) => (finish = resolve));
    const context = contextOf(cookieOf());
    await recordingSignals({ request: request(), context }, page([later, Promise.resolve(null), Promise.reject(new Error("lost")), view()]));
    expect((await newSignals(before)).map((s) => s.type)).toEqual(["view"]);
    const conversion: SignalInput = { type: "conversion", data: { format: "csv", numRecords: 3, fields: ["item_number"], query: "pump", scope: "all" } };
    finish(conversion);
    await later;
    await new Promise((resolve) => setImmediate(resolve));
    expect((await newSignals(before)).map((s) => [s.type, s.sessionId])).toEqual([
      ["view", context.signals!.sessionId],
      ["conversion", context.signals!.sessionId],
    ]);
  });

  it("passes a page's plain answer through, and never fails a page over a signal it cannot record", async () => {
    const before = (await readSignals()).length;
    const response = new Response("ok");
    expect(await recordingSignals({ request: request(), context: {} }, Promise.resolve(response))).toBe(response);
    const invalid = { type: "view", data: {} } as unknown as SignalInput;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await recordingSignals({ request: request(), context: {} }, page([invalid]))).toEqual({ shown: true });
    expect(await newSignals(before)).toEqual([]);
    expect(logged).toHaveBeenCalledWith("Signal dropped: invalid", expect.anything());
    logged.mockRestore();
  });

  it("records nothing and makes no cookie with signals off", async () => {
    const off = useTemporaryCatalog(20, { SIGNALS_ENABLED: "false" });
    try {
      expect(services().signals.enabled).toBe(false);
      expect(signalSession(undefined, "192.0.2.1").setCookie).toBeNull();
      expect(await recordingSignals({ request: request(), context: {} }, page([view()]))).toEqual({ shown: true });
      expect(await readSignals()).toEqual([]);
    } finally {
      fs.rmSync(off.dir, { recursive: true, force: true });
    }
  });
});
