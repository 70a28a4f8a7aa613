/**
 * Two replicas behind HAProxy, sharing one PostgreSQL, with sign-in on (the test identity
 * provider, with back-channel logout) and Fusion (the stand-in): what a plant runs. Each replica
 * has a data directory of its own. Everything is started here on 127.0.0.1 and stopped by pid.
 *
 * Run with `npm run test:scale` (it builds first and installs postgresql and haproxy when missing).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCatalog } from "~/search/engines/embedded/catalog-build.server";
import { startStandIn, type RecordedRequest, type StandIn } from "../fusion-stand-in/server";
import { CLIENT_ID, CLIENT_SECRET, startIdp, type TestIdp } from "../idp/server";
import { freePort } from "../processes";
import { Browser, request, startHaproxy, startPostgres, startReplica, waitFor, type Balancer, type Postgres, type Replica } from "./rig";

let postgres: Postgres;
let idp: TestIdp;
let fusion: StandIn;
let fusionDir: string;
let replicas: Replica[] = [];
let balancer: Balancer;
let portal: string;

const SIGN_INS_PER_MINUTE = 5;
const REQUESTS_PER_MINUTE = 600;

beforeAll(async () => {
  postgres = await startPostgres();
  fusionDir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-fusion-"));
  ensureCatalog(path.join(fusionDir, "catalog.db"), 300);
  fusion = await startStandIn({ port: 0, catalogPath: path.join(fusionDir, "catalog.db") });
  // The balancer's port first: it is the portal's public origin, which the provider redirects to.
  const balancerPort = await freePort();
  portal = `http://127.0.0.1:${balancerPort}`;
  idp = await startIdp({ port: await freePort(), portals: [portal], backchannel: true });
  const env = {
    DATABASE_URL: postgres.url(),
    TRUST_PROXY: "127.0.0.1",
    APP_URL: portal,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    SESSION_SECRET: "scale-suite-session-secret",
    FUSION_URL: fusion.url,
    FUSION_APP: "parts",
    FUSION_TIMEOUT_MS: "3000",
    SIGN_IN_RATE_LIMIT_PER_MINUTE: String(SIGN_INS_PER_MINUTE),
    RATE_LIMIT_PER_MINUTE: String(REQUESTS_PER_MINUTE),
    SHUTDOWN_DRAIN_MS: "2000",
  };
  // Both at once: their migrations meet under the advisory lock.
  replicas = await Promise.all([startReplica("a", env), startReplica("b", env)]);
  balancer = await startHaproxy(replicas.map((r) => ({ name: r.name, port: r.port })), balancerPort);
}, 180_000);

afterAll(async () => {
  balancer?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  await fusion?.close();
  await idp?.close();
  postgres?.stop();
  if (fusionDir) fs.rmSync(fusionDir, { recursive: true, force: true });
});

const signedIn = (body: string) => /name="csrf"/.test(body);

describe("sessions shared by the replicas", () => {
  it("keeps a visitor signed in on 20 pages after one sign-in, through the balancer", async () => {
    const browser = new Browser();
    const first = await browser.signIn(`${portal}/crib-search`);
    expect(first.url).toBe(`${portal}/crib-search`);
    expect(first.status).toBe(200);
    const statuses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const page = await browser.fetch(`${portal}/crib-search`);
      statuses.push(`${page.status}${signedIn(page.body) ? "" : " signed out"}`);
    }
    expect(statuses).toEqual(Array(20).fill("200"));
    // …and each replica, asked directly, knows the session.
    for (const replica of replicas) expect(signedIn((await browser.fetch(`${replica.url}/crib-search`)).body)).toBe(true);
  });

  it("gives one visitor's searches one session at Fusion, and counts every replica's searches on each replica's /analytics", async () => {
    const browser = new Browser();
    await browser.signIn(`${portal}/crib-search`);
    const before = await Promise.all(replicas.map(async (r) => totalSearches((await browser.fetch(`${r.url}/analytics?days=7`)).body)));
    const query = "scalesuitevalve";
    for (let i = 0; i < 6; i++) expect((await browser.fetch(`${portal}/crib-search/search?q=${query}${i}`)).status).toBe(200);
    // Forwarded by each replica's outbox (about a second).
    let sessions: unknown[] = [];
    await waitFor(
      async () => {
        const searches = fusion.signals.filter((s) => JSON.stringify(s.signal).includes(query));
        sessions = searches.map((s) => (s.signal as { params?: { session?: unknown } }).params?.session);
        return searches.length >= 6;
      },
      20_000,
      () => `Fusion got ${sessions.length} of the 6 searches`,
    );
    expect(sessions).toHaveLength(6);
    expect(new Set(sessions).size).toBe(1);
    expect(sessions[0]).toEqual(expect.any(String));
    // Each replica folds its own searches into the shared totals in the background (every 2 s).
    let totals: number[] = [];
    await waitFor(
      async () => {
        totals = await Promise.all(replicas.map(async (r) => totalSearches((await browser.fetch(`${r.url}/analytics?days=7`)).body)));
        return totals.every((t, i) => t - before[i]! >= 6);
      },
      20_000,
      () => `/analytics counted ${totals.map((t, i) => t - before[i]!).join(" and ")} of the 6 searches`,
    );
    expect(totals[0]).toBe(totals[1]);
  });
});

function totalSearches(html: string): number {
  const match = /data-testid="total-searches"[^>]*>([\d,]+)</.exec(html);
  if (!match) throw new Error(`no total on the analytics page:\n${html.slice(0, 300)}`);
  return Number(match[1]!.replace(/,/g, ""));
}

describe("rate limits behind the balancer", () => {
  const startSignIn = (from: string, headers: Record<string, string> = {}) =>
    request(`${portal}/login?start=1`, { localAddress: from, headers }).then((answer) => answer.status);

  it("limits each client by its own address: X using up its sign-ins leaves Y's alone", async () => {
    const x: number[] = [];
    for (let i = 0; i < SIGN_INS_PER_MINUTE + 3; i++) x.push(await startSignIn("127.0.0.2"));
    expect(x.slice(0, SIGN_INS_PER_MINUTE)).toEqual(Array(SIGN_INS_PER_MINUTE).fill(302));
    expect(x.slice(SIGN_INS_PER_MINUTE)).toEqual([429, 429, 429]);
    expect(await startSignIn("127.0.0.3")).toBe(302);
  });

  it("gives beacons their own allowance: 40 of them leave the sign-ins alone", async () => {
    for (let i = 0; i < 40; i++) {
      const answer = await request(`${portal}/api/signals`, {
        method: "POST",
        localAddress: "127.0.0.4",
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
        body: JSON.stringify({ signals: [], source: "test", version: 1 }),
      });
      expect(answer.status).not.toBe(429);
    }
    for (let i = 0; i < SIGN_INS_PER_MINUTE; i++) expect(await startSignIn("127.0.0.4")).toBe(302);
  });

  it("counts another site's links to sign-in apart, and generously", async () => {
    for (let i = 0; i < 20; i++) expect(await startSignIn("127.0.0.5", { "Sec-Fetch-Site": "cross-site" })).toBe(302);
    expect(await startSignIn("127.0.0.5")).toBe(302);
  });

  it("never limits the probes, even for a client past every limit", async () => {
    const statuses = new Map<number, number>();
    const probes = Array.from({ length: REQUESTS_PER_MINUTE + 100 }, (_, i) => (i % 2 ? "/api/ready" : "/api/health"));
    for (let i = 0; i < probes.length; i += 20) {
      const answers = await Promise.all(probes.slice(i, i + 20).map((p) => request(`${portal}${p}`, { localAddress: "127.0.0.2" })));
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: probes.length });
    // More probes than the client's requests a minute, and its pages are still served: none was counted.
    expect((await request(`${portal}/login`, { localAddress: "127.0.0.2" })).status).not.toBe(429);
  });
});

/** Fusion's health check: its root, then a one-row query for everything (spec §7); the query is the one a hang holds. */
function isHealthQuery(r: RecordedRequest): boolean {
  const params = new URLSearchParams(r.params);
  return params.get("q") === "*:*" && params.get("rows") === "1";
}

describe("probes", () => {
  it("answer while a health check of Fusion hangs, and name the replica and its catalogue", async () => {
    fusion.setFault({ kind: "hang" });
    try {
      // A probe starts a health check of Fusion when the last one is a few seconds old, without
      // waiting for it: ask until the stand-in holds one unanswered.
      await waitFor(
        async () => {
          await Promise.all(replicas.map((r) => request(`${r.url}/api/health`)));
          return fusion.held().some(isHealthQuery);
        },
        60_000,
        () => "no health check of Fusion reached the hanging stand-in",
      );
      const hung = fusion.held().find(isHealthQuery)!;
      // Every probe answers while that check still hangs: none waits for Fusion.
      const answeredWhileHung = async (url: string) => {
        const answer = await request(url);
        expect(fusion.held(), `${url} answered while Fusion's health check hung`).toContain(hung);
        return answer;
      };
      for (const base of [...replicas.map((r) => r.url), portal]) {
        for (const probe of ["/api/health", "/api/ready"]) {
          const answer = await answeredWhileHung(`${base}${probe}`);
          expect(answer.status, `${base}${probe}`).toBe(200);
        }
      }
      const ready = JSON.parse((await answeredWhileHung(`${replicas[0]!.url}/api/ready`)).body).data;
      expect(ready).toMatchObject({ ready: true, replica: "a", catalogue: { items: 300, builtAt: expect.any(String) } });
      const health = JSON.parse((await answeredWhileHung(`${replicas[1]!.url}/api/health`)).body).data;
      expect(health).toMatchObject({ replica: "b", catalogue: { ok: true, items: 300 }, shared: { ok: true } });
      expect(health.catalogue.contentHash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      fusion.setFault({ kind: "none" });
    }
  });
});

describe("logout", () => {
  const logoutForm = (body: string) => ({ csrf: /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? "" });

  it("through the balancer ends the session on both replicas and at the provider", async () => {
    const browser = new Browser();
    const page = await browser.signIn(`${portal}/crib-search`);
    const old = browser.cookieHeader;
    // Both replicas have read the session (and remember it) before the logout reaches one of them.
    for (const replica of replicas) expect(signedIn((await request(`${replica.url}/crib-search`, { headers: { Cookie: old } })).body), replica.name).toBe(true);
    const logout = await browser.fetch(`${portal}/logout`, { form: logoutForm(page.body), headers: { Origin: portal } });
    expect(logout.status).toBe(302);
    expect(logout.headers.location).toMatch(new RegExp(`^${idp.issuer}/session/end`));
    for (const replica of replicas) {
      const again = await request(`${replica.url}/crib-search`, { headers: { Cookie: old } });
      expect(again.status, replica.name).toBe(302);
      expect(again.headers.location).toMatch(/^\/login\?/);
    }
  });

  it("at the provider ends the portal's sessions too (back-channel logout)", async () => {
    const browser = new Browser();
    await browser.signIn(`${portal}/crib-search`, "sam");
    for (const replica of replicas) expect(signedIn((await request(`${replica.url}/crib-search`, { headers: { Cookie: browser.cookieHeader } })).body), replica.name).toBe(true);
    // Signing out at the provider's own page, as from another application.
    const confirm = await browser.follow(`${idp.issuer}/session/end?client_id=${CLIENT_ID}`);
    const action = /action="([^"]+)"/.exec(confirm.body)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
    expect(action && xsrf, confirm.body.slice(0, 300)).toBeTruthy();
    await browser.follow(new URL(action!, idp.issuer).toString(), { method: "POST", form: { xsrf: xsrf!, logout: "yes" } });
    for (const replica of replicas) {
      const again = await request(`${replica.url}/crib-search`, { headers: { Cookie: browser.cookieHeader } });
      expect(again.status, replica.name).toBe(302);
    }
  });

  it("refuses a logout token that is not the provider's", async () => {
    const answer = await request(`${portal}/backchannel-logout`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "logout_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJwYXQifQ.",
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "invalid_request" });
  });
});

describe("a graceful stop", () => {
  it("loses no request when a replica gets SIGTERM under load, and the replica exits 0", async () => {
    const users = await Promise.all(
      ["lee", "kim"].map(async (login) => {
        const browser = new Browser();
        await browser.signIn(`${portal}/crib-search`, login);
        return browser;
      }),
    );
    const [, b] = replicas;
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const load = users.flatMap((browser) =>
      [0, 1].map(async () => {
        while (running) {
          try {
            const page = await browser.fetch(`${portal}/crib-search/search?q=pump`);
            if (page.status !== 200) failures.push(`HTTP ${page.status}`);
            else answered++;
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
          // The clients' pace (a person reading the page), not a wait for anything.
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }),
    );
    /** Until the four clients have had `more` pages answered from now on. */
    const served = async (more: number) => {
      const target = answered + more;
      await waitFor(async () => answered >= target || failures.length > 0, 120_000, () => `${answered} of ${target} pages answered`);
    };
    // Under load: a dozen pages answered through the balancer.
    await served(12);
    b!.process.kill("SIGTERM");
    const code = await b!.exited;
    // The load goes on, on the replica left, with no failure.
    await served(12);
    running = false;
    await Promise.all(load);
    expect(code).toBe(0);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    expect(b!.output()).toMatch(/"signal":"SIGTERM".*"msg":"stopping: not ready, still serving while the balancer notices"/);
  });
});
