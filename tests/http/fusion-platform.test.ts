/**
 * The production server (scripts/server.mjs) against a Fusion that closes every connection after
 * answering, as an HTTP/1.0 server or a proxy with a short idle time does: every call is answered
 * by Fusion, and nothing quietly comes from the backup catalogue. The stand-in answers from its
 * recorded documents (137 items); the portal's own backup catalogue holds 200 other sample items.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/search/engines/fusion/fusion-errors";
import { loadCorpus } from "../fusion-stand-in/recorded";
import { startStandIn, type StandIn } from "../fusion-stand-in/server";
import { startPortal, type TestPortal } from "./portal";

const WIDGETS_ORIGIN = "http://widgets.test";
const corpus = loadCorpus();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-fusion-platform-"));
let standIn: StandIn;
let portal: TestPortal;

beforeAll(async () => {
  standIn = await startStandIn({ port: 0, habits: { connection: "close-after-answer" } });
  portal = await startPortal({ E2E_FUSION_URL: standIn.url, E2E_CATALOG_DB: path.join(dir, "catalog.db"), E2E_SAMPLE_ITEMS: "200", EMBED_ORIGINS: WIDGETS_ORIGIN });
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await standIn?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The log's entries for a failure of the search platform (JSON lines, app/web/operations.server.ts's log). */
const platformFailures = () =>
  portal
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "search platform failed");
const get = (pathAndQuery: string, init?: RequestInit) => fetch(`${portal.url}${pathAndQuery}`, { redirect: "manual", ...init });
const health = async () => (await (await get("/api/health")).json()).data;

/** Polls `read` until `done` holds of its value, for at most `ms`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}

describe("through the production server, against a Fusion that closes every connection", () => {
  it("runs Node's own fetch, the client the Fusion client is tested with", async () => {
    const response = await get("/debug?_data=routes%2Fdebug");
    expect(response.status).toBe(200);
    const report = JSON.parse((await response.json()).report);
    expect(report.httpClient).toEqual({ nodeFetch: true, undici: expect.any(String) });
  });

  it("reports health ok, and /embed says Fusion Ready", async () => {
    const status = await until(health, (h) => h.engines.primary.health?.ok === true);
    expect(status).toMatchObject({ status: "ok", engines: { serving: "fusion", primary: { health: { ok: true } } } });
    const embed = await (await get("/embed")).text();
    expect(embed).toContain("Fusion Ready");
    expect(embed).not.toContain("Embeddables Only");
  });

  it("reports the serving engine and the breaker in health and readiness", async () => {
    const health = await (await get("/api/health")).json();
    expect(health.data.engines).toMatchObject({ serving: "fusion", fallback: "embedded", primary: { name: "fusion", breaker: { state: "closed" } } });
    const ready = await get("/api/ready");
    expect(ready.status).toBe(200);
    expect((await ready.json()).data.engines.serving).toBe("fusion");
  });

  it("exports Fusion's rows: all 137 of its documents, none of the backup's", async () => {
    const response = await get("/crib-search/export.csv?scope=all&fields=item_number");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).not.toContain("backup");
    const rows = (await response.text()).replace(/^\uFEFF/, "").trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(137);
    expect(new Set(rows.map((r) => r.replace(/"/g, "")))).toEqual(new Set(corpus.items.map((d) => String(d.item_number_s))));
  });

  it("records an item opened from a results row as a click with its position, and signals reach Fusion without a retry", async () => {
    const page = await get("/crib-search/search?q=pump");
    expect(page.status).toBe(200);
    const cookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const html = await page.text();
    const links = [...html.matchAll(/href="(\/product\/[^"]*via=result[^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(links.length).toBeGreaterThan(1);
    const second = links.find((href) => new URL(href, portal.url).searchParams.get("pos") === "1")!;
    const item = await get(second, { headers: { cookie } });
    expect(item.status).toBe(200);
    expect(await item.text()).not.toContain("backup catalogue");

    type Arrived = { signal: { type: string; params: { position?: number; query?: string } } };
    const clicks = await until(
      async () => ((await (await fetch(`${standIn.url}/__control/signals`)).json()) as Arrived[]).filter((s) => s.signal.type === "click"),
      (found) => found.length > 0,
    );
    expect(clicks.map((c) => c.signal.params)).toContainEqual(expect.objectContaining({ position: 1, query: "pump" }));
    expect(portal.output()).not.toMatch(/Signals: Fusion (is unreachable|answered)/);
    expect(platformFailures()).toEqual([]);
  });

  it("grants an allowed origin's CORS preflight on the API, and no other", async () => {
    const preflight = (origin: string) =>
      get("/api/search?q=pump", { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "accept" } });
    const allowed = await preflight(WIDGETS_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(WIDGETS_ORIGIN);
    expect(allowed.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("Accept");
    const other = await preflight("http://elsewhere.test");
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("carries the spec's 401 text in health while Fusion answers 401, and logs each failure with its cause", async () => {
    standIn.setFault({ kind: "status", status: 401 });
    try {
      const refused = await until(
        async () => {
          await get("/api/search?q=pump&rows=1");
          return health();
        },
        (h) => h.engines.primary.configurationError === MESSAGES.unauthorized,
      );
      // The platform's answer is named with the spec's text; its own health check may not have run
      // again yet, or not at all once the circuit has opened.
      expect(refused.status).toBe("degraded");
      expect(refused.engines.primary.configurationError).toBe(MESSAGES.unauthorized);
      expect(refused.engines.primary.health?.detail).not.toBe(MESSAGES.failed);
      expect(platformFailures()).toContainEqual(
        expect.objectContaining({
          level: "warn",
          platform: "fusion",
          why: expect.stringMatching(/^Authentication failed - API key may be invalid or expired \[HTTP 401; GET http:\/\/127\.0\.0\.1:\d+\/api\/apps\/parts\/query\/parts\?[^\]]*; \d+ ms; request [^\]]+\]$/),
          outcome: "answered from the backup (embedded)",
          requestId: expect.any(String),
        }),
      );
    } finally {
      standIn.setFault({ kind: "none" });
    }
    await until(
      async () => {
        await get("/api/search?q=pump&rows=1");
        return health();
      },
      (h) => h.status === "ok",
    );
  });
});
