/**
 * Usage signals over real HTTP: the session cookie of a first visit, `POST /api/signals`
 * (validation, idempotency, size and rate limits, the server's session and user), the signals a
 * page without JavaScript leaves on /analytics, and CORS for the widgets' origins.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheDb, startPortal, type TestPortal } from "./portal";
import { get, url } from "./server";

const sameSite = () => ({ Origin: url("/").replace(/\/$/, ""), "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" });

/** A browser's session: the cookie the portal sets on the first page. */
async function session(): Promise<string> {
  const response = await get("/crib-search");
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("crib-sid="));
  expect(cookie, "the signals session cookie").toBeDefined();
  return cookie!.split(";")[0]!;
}

const pick = (id = randomUUID()) => ({ id, timestamp: new Date().toISOString(), type: "typeahead", data: { query: "pum", suggestion: "pump", position: 0 } });

function post(body: unknown, cookie: string, extra: Record<string, string> = {}) {
  return get("/api/signals", { method: "POST", headers: { ...sameSite(), Cookie: cookie, ...extra }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

describe("the signals session cookie", () => {
  it("is made on the first page: random, HttpOnly, SameSite=Lax, for the whole site, and not made again", async () => {
    const response = await get("/crib-search");
    const cookies = response.headers.getSetCookie().filter((c) => c.startsWith("crib-sid="));
    expect(cookies).toHaveLength(1);
    const [pair, ...attributes] = cookies[0]!.split(";").map((p) => p.trim());
    // The id, a dot and its signature (cookie-signature: base64 of an HMAC-SHA256, percent-encoded).
    expect(pair).toMatch(/^crib-sid=[\w-]{22}\.[\w%]{43,}$/);
    const named = new Map(attributes.map((a) => [a.split("=")[0]!.toLowerCase(), a.includes("=") ? a.slice(a.indexOf("=") + 1) : true]));
    expect(named.get("httponly")).toBe(true);
    expect(named.get("samesite")).toBe("Lax");
    expect(named.get("path")).toBe("/");
    expect(named.has("domain")).toBe(false);
    const again = await get("/crib-search", { headers: { Cookie: pair! } });
    expect(again.headers.getSetCookie().filter((c) => c.startsWith("crib-sid="))).toEqual([]);
    // A made-up or altered id is no session: a new one is made.
    const forged = await get("/crib-search", { headers: { Cookie: `${pair!.slice(0, -3)}abc` } });
    expect(forged.headers.getSetCookie().filter((c) => c.startsWith("crib-sid="))).toHaveLength(1);
    expect((await get("/build/does-not-exist.js")).headers.getSetCookie()).toEqual([]);
    // The widgets' script is cached by anyone: it carries no one's cookie.
    const script = await get("/embed/widgets.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.getSetCookie()).toEqual([]);
  });
});

describe("POST /api/signals", () => {
  it("stores a batch once by event id: a replayed batch stores nothing twice", async () => {
    const cookie = await session();
    const batch = { signals: [pick(), pick()], source: "crib-search-web", version: "1" };
    const first = await post(batch, cookie);
    expect(first.status).toBe(202);
    expect((await first.json()).data).toMatchObject({ stored: 2, duplicates: 0 });
    const replay = await post(batch, cookie);
    expect((await replay.json()).data).toMatchObject({ stored: 0, duplicates: 2 });
  });

  it("answers 400 with a clear message for a bad batch, and takes no user id from the client", async () => {
    const cookie = await session();
    const notJson = await post("{signals:", cookie);
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.message).toBe("The body is not JSON: expected {signals, source, version}.");
    const search = await post({ signals: [{ ...pick(), type: "search" }], source: "web", version: "1" }, cookie);
    expect(search.status).toBe(400);
    expect((await search.json()).error.message).toMatch(/^Not a batch of signals: signals\.0\.type/);
    const noSource = await post({ signals: [pick()] }, cookie);
    expect((await noSource.json()).error.message).toMatch(/source/);
    const view = await post({ signals: [{ id: randomUUID(), timestamp: new Date().toISOString(), type: "view", data: { docId: "x" } }], source: "w", version: "1" }, cookie);
    expect((await view.json()).error.message).toMatch(/viewDuration/);
    // Unknown keys (a user id among them) are dropped, not refused: the server sets who it was.
    const claimed = await post({ signals: [{ ...pick(), userId: "admin", sessionId: "someone-else" }], source: "w", version: "1" }, cookie);
    expect(claimed.status).toBe(202);
  });

  it("refuses more than 100 signals or 64 KiB with 413", async () => {
    const cookie = await session();
    const many = await post({ signals: Array.from({ length: 101 }, () => pick()), source: "w", version: "1" }, cookie);
    expect(many.status).toBe(413);
    expect((await many.json()).error.message).toBe("A batch may hold at most 100 signals.");
    const large = await post({ signals: [pick()], source: "w", version: "1", padding: "x".repeat(70_000) }, cookie);
    expect(large.status).toBe(413);
    expect((await large.json()).error.message).toBe("A batch of signals may be at most 64 KiB.");
  });

  it("limits each session: past its signals a minute, 429", async () => {
    const cookie = await session();
    const batch = () => ({ signals: Array.from({ length: 100 }, () => pick()), source: "w", version: "1" });
    expect((await post(batch(), cookie)).status).toBe(202);
    const over = await post(batch(), cookie);
    expect(over.status).toBe(429);
    expect((await over.json()).error.message).toMatch(/Too many signals/);
    // Another session is not held back by it.
    expect((await post({ signals: [pick()], source: "w", version: "1" }, await session())).status).toBe(202);
  });

  it("answers GET with 405", async () => {
    expect((await get("/api/signals")).status).toBe(405);
  });
});

describe("/analytics", () => {
  it("counts a search made with a plain link, and offers each table as CSV", async () => {
    const cookie = await session();
    const query = `nothing-like-${randomUUID().slice(0, 8)}`;
    // Five times: a table shows its first 20 rows by count, and other tests of the suite leave
    // queries that found nothing three times each, so a query searched fewer times may not be among them.
    for (let i = 0; i < 5; i++) expect((await get(`/crib-search/search?q=${query}`, { headers: { Cookie: cookie } })).status).toBe(200);
    const page = await (await get("/analytics?days=7")).text();
    expect(page).toContain("Search analytics");
    expect(page).toContain(query);
    const csv = await get("/analytics/export.csv?days=7&table=zero");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await csv.text();
    const cells = (line: string) => line.split(",").map((cell) => cell.replace(/^\uFEFF?"|"$/g, ""));
    const lines = text.split("\r\n");
    expect(cells(lines[0]!)).toEqual(["Query", "Searches", "Zero results", "Clicks", "Click-through rate", "Mean clicked position"]);
    expect(lines.map(cells)).toContainEqual([query, "5", "5", "0", "0.0 %", "–"]);
    expect((await get("/analytics/export.csv?table=nope")).status).toBe(400);
  });
});

describe("the analytics export", () => {
  it.each([
    ["U+0085 (Cc)", "\u0085"],
    ["U+180E (Cf)", "\u180E"],
    ["U+FFF9 (Cf)", "\uFFF9"],
  ])("neutralises a query that is a formula behind %s", async (_what, hidden) => {
    const cookie = await session();
    // A word nothing has: no results, so the query is in the zero-results table; searched five
    // times, so it is among the table's first 20 rows whatever the other tests searched up to three times.
    const marker = `zzq${randomUUID().slice(0, 8)}`;
    const query = `${hidden}=HYPERLINK("http://evil.example/","${marker}")`;
    for (let i = 0; i < 5; i++) expect((await get(`/crib-search/search?${new URLSearchParams({ q: query })}`, { headers: { Cookie: cookie } })).status).toBe(200);
    const text = await (await get("/analytics/export.csv?days=7&table=zero")).text();
    // The analytics keep queries in a normal form (lower case; some controls dropped): its cell,
    // whatever is left in front of the formula, starts with the quote that makes it text.
    const line = text.split("\r\n").find((l) => l.includes(marker));
    expect(line, "the query's row").toBeDefined();
    expect(line!.startsWith(`"'`), line).toBe(true);
  });
});

describe("CORS for the widgets (EMBED_ORIGINS)", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startPortal({ E2E_CATALOG_DB: cacheDb("embed.db"), E2E_SAMPLE_ITEMS: "50", EMBED_ORIGINS: "http://widgets.example:8080" });
  }, 180_000);
  afterAll(() => portal?.stop());

  it("lets an allowed origin read the API, and no other", async () => {
    const allowed = await fetch(`${portal.url}/api/search?q=pump&rows=1`, { headers: { Origin: "http://widgets.example:8080" } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://widgets.example:8080");
    expect(allowed.headers.get("vary")).toMatch(/Origin/);
    expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
    const other = await fetch(`${portal.url}/api/search?q=pump&rows=1`, { headers: { Origin: "http://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const page = await fetch(`${portal.url}/crib-search`, { headers: { Origin: "http://widgets.example:8080" } });
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
    // Posting stays same-site, for every origin.
    const posted = await fetch(`${portal.url}/api/signals`, {
      method: "POST",
      headers: { Origin: "http://widgets.example:8080", "Content-Type": "application/json" },
      body: JSON.stringify({ signals: [pick()], source: "w", version: "1" }),
    });
    expect(posted.status).toBe(403);
  });
});

describe("a signals database at its cap", () => {
  let portal: TestPortal;
  const at = (path: string) => `${portal.url}${path}`;

  beforeAll(async () => {
    portal = await startPortal({ E2E_CATALOG_DB: cacheDb("signals-cap/catalog.db"), E2E_SAMPLE_ITEMS: "50", SIGNALS_MAX_ROWS: "1000" });
  }, 150_000);

  afterAll(async () => {
    await portal?.stop();
  });

  it("keeps its cap, oldest first, and /analytics says how many were removed", async () => {
    // Eleven browsers of 100 signals each (each within its session's limit of a minute), dated by
    // their clocks in 9999: the server dates them, so they count today.
    for (let n = 0; n < 11; n++) {
      const first = await fetch(at("/crib-search"));
      const cookie = first.headers.getSetCookie().find((c) => c.startsWith("crib-sid="))!.split(";")[0]!;
      const signals = Array.from({ length: 100 }, () => ({ ...pick(), timestamp: "9999-12-31T23:59:59Z" }));
      const response = await fetch(at("/api/signals"), {
        method: "POST",
        headers: { Origin: portal.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ signals, source: "crib-search-web", version: "1" }),
      });
      expect(response.status).toBe(202);
    }
    // The servers fold (and keep the cap) every two seconds; the report folds what is left.
    let page = "";
    for (let tries = 0; tries < 40 && !page.includes("to keep within the signals limit"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      page = await (await fetch(at("/analytics?days=7"))).text();
    }
    expect(page).toContain("Removed, oldest first, to keep within the signals limit");
    expect(Number(/data-testid="total-evicted">(\d+)</.exec(page)?.[1])).toBeGreaterThanOrEqual(100);
  });
});
