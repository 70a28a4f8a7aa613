/**
 * PostgreSQL stopped and restarted under load, as a plant's operations team tries it: with
 * sign-in off the replicas go on serving every page and stay ready; with sign-in on they say
 * "Sign-in is unavailable for a moment" (503, never the generic error page or a stack per
 * request), are not ready, and take people back as they were once the store is back; a replica
 * starts while the store is away; the log has a line per change of state, not per request.
 *
 * The figures (requests, failures, recovery) are printed for docs/benchmarks.md.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID, CLIENT_SECRET, startIdp, type TestIdp } from "../idp/server";
import { expectConsoleError } from "../support/console-guard";
import { freePort } from "../processes";
import { Browser, request, startHaproxy, startPostgres, startReplica, waitFor, type Balancer, type Postgres, type Replica } from "./rig";

/** Requests in a loop through `target` until stopped: each answer's status, or 0 for none. */
function load(target: () => Promise<number>, clients: number) {
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) statuses.push(await target().catch(() => 0));
  });
  return {
    statuses,
    /** Until `n` more answers have come from now on: the load ran that far. */
    async more(n: number) {
      const target = statuses.length + n;
      await waitFor(async () => statuses.length >= target, 120_000, () => `${statuses.length} of ${target} answers under load`);
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
const tally = (statuses: number[]) => Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, count(statuses, s)]));
type Entry = Record<string, unknown>;
const logOf = (replica: Replica): Entry[] =>
  replica
    .output()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Entry;
      } catch {
        return { notJson: line };
      }
    });
const health = async (replica: Replica) => JSON.parse((await request(`${replica.url}/api/health`)).body).data;

describe("sign-in off: PostgreSQL stopped for seconds under load", () => {
  let postgres: Postgres;
  let replicas: Replica[] = [];
  let balancer: Balancer;
  const env = () => ({ DATABASE_URL: postgres.url(), TRUST_PROXY: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "0", SHUTDOWN_DRAIN_MS: "1500" });

  beforeAll(async () => {
    postgres = await startPostgres();
    replicas = await Promise.all([startReplica("a", env()), startReplica("b", env())]);
    balancer = await startHaproxy(replicas.map((r) => ({ name: r.name, port: r.port })));
  });
  afterAll(async () => {
    balancer?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    postgres?.stop();
  });

  it("serves every page, stays ready, reports the store in health, and recovers when it is back", async () => {
    const pages = load(async () => (await request(`${balancer.url}/crib-search/search?q=pump`)).status, 4);
    await pages.more(40);
    postgres.halt();
    const readiness: number[] = [];
    const outageEnds = Date.now() + 6000;
    while (Date.now() < outageEnds) {
      for (const replica of replicas) readiness.push((await request(`${replica.url}/api/ready`)).status);
      await sleep(250);
    }
    const during = await health(replicas[0]!);
    postgres.resume();
    const resumed = Date.now();
    await waitFor(async () => (await Promise.all(replicas.map(health))).every((h) => h.shared?.ok === true), 30_000, () => "the replicas did not see PostgreSQL again");
    const recoveryMs = Date.now() - resumed;
    // Pages after the store is back too.
    await pages.more(20);
    const statuses = await pages.stop();

    console.log(`[outage, sign-in off] PostgreSQL stopped 6 s under 4 clients: ${statuses.length} requests, ${JSON.stringify(tally(statuses))}; readiness ${JSON.stringify(tally(readiness))}; health saw it back ${recoveryMs} ms after the restart`);
    expect(tally(statuses)).toEqual({ 200: statuses.length });
    expect(tally(readiness)).toEqual({ 200: readiness.length });
    expect(during).toMatchObject({ status: "degraded", shared: { ok: false } });
    // A store whose last call failed says so until its next call works, which a background store
    // (the signals' upkeep) makes on its own timer: the replica is healthy again by then.
    await waitFor(async () => (await health(replicas[0]!)).status === "ok", 30_000, () => "the replica did not report itself healthy again");
  });

  it("loses no request through a rolling restart (SIGTERM, drain, a new replica on the same port, one after the other)", async () => {
    const pages = load(async () => (await request(`${balancer.url}/crib-search/search?q=pump`)).status, 4);
    const began = Date.now();
    const exits: (number | null)[] = [];
    for (const [i, old] of replicas.entries()) {
      old.process.kill("SIGTERM");
      exits.push(await old.exited);
      // Its log stays with the test's records; its data directory goes.
      const log = old.output();
      await old.stop();
      const fresh = await startReplica(old.name, env(), old.port);
      replicas[i] = { ...fresh, output: () => log + fresh.output() };
    }
    // Pages from the two new replicas.
    await pages.more(40);
    const statuses = await pages.stop();
    console.log(`[rolling restart, sign-in off] 2 replicas restarted one after the other under 4 clients in ${Date.now() - began} ms: ${statuses.length} requests, ${JSON.stringify(tally(statuses))}`);
    expect(exits).toEqual([0, 0]);
    expect(tally(statuses)).toEqual({ 200: statuses.length });
  });

  it("logs the store's going and coming once per replica, and every line of the log is JSON", () => {
    for (const replica of replicas) {
      const entries = logOf(replica);
      expect(entries.filter((e) => "notJson" in e), replica.name).toEqual([]);
      expect(entries.filter((e) => e.msg === "shared store not answering").length, replica.name).toBe(1);
      expect(entries.filter((e) => e.msg === "shared store answering again").length, replica.name).toBe(1);
    }
  });

  it("starts a replica while PostgreSQL is away: ready and serving at once, its shared parts joined when the store is back", async () => {
    postgres.halt();
    const late = await startReplica("c", { DATABASE_URL: postgres.url(), TRUST_PROXY: "127.0.0.1" });
    try {
      expect((await request(`${late.url}/api/ready`)).status).toBe(200);
      const page = await request(`${late.url}/crib-search/search?q=pump`);
      expect(page.status).toBe(200);
      // No signals cookie before the replicas' shared key is known: one another replica could not read.
      expect(String(page.headers["set-cookie"] ?? "")).not.toContain("crib-sid=");
      postgres.resume();
      await waitFor(async () => (await health(late)).shared?.ok === true, 30_000, () => `replica c did not connect:\n${late.output()}`);
      await waitFor(async () => logOf(late).some((e) => e.msg === "shared store prepared"), 30_000, () => `replica c did not prepare the store:\n${late.output()}`);
      const after = await request(`${late.url}/crib-search`);
      expect(String(after.headers["set-cookie"] ?? "")).toContain("crib-sid=");
    } finally {
      await late.stop();
    }
  });
});

describe("sign-in on: PostgreSQL stopped and restarted", () => {
  let postgres: Postgres;
  let idp: TestIdp;
  let replica: Replica;

  beforeAll(async () => {
    postgres = await startPostgres();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    idp = await startIdp({ port: await freePort(), portals: [url], backchannel: true });
    replica = await startReplica(
      "s",
      { DATABASE_URL: postgres.url(), APP_URL: url, OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, SESSION_SECRET: "outage-suite-session-secret", RATE_LIMIT_PER_MINUTE: "0" },
      port,
    );
  });
  afterAll(async () => {
    await replica?.stop();
    await idp?.close();
    postgres?.stop();
  });

  it("says sign-in is unavailable for a moment (503, no error page), is not ready, and keeps the person signed in once the store is back", async () => {
    const browser = new Browser();
    expect((await browser.signIn(`${replica.url}/crib-search`)).status).toBe(200);
    postgres.halt();
    try {
      const page = await browser.fetch(`${replica.url}/crib-search/search?q=pump`);
      expect(page.status).toBe(503);
      expect(page.body).toContain("Sign-in is unavailable for a moment. Please try again in a minute.");
      expect(page.body).not.toContain("Something went wrong");
      expect(page.headers["retry-after"]).toBe("30");
      const api = await browser.fetch(`${replica.url}/api/search?q=pump`);
      expect(api.status).toBe(503);
      expect(JSON.parse(api.body)).toMatchObject({ error: { status: 503, message: "Sign-in is unavailable for a moment. Please try again in a minute." } });
      await waitFor(async () => (await request(`${replica.url}/api/ready`)).status === 503, 10_000, () => "readiness stayed 200 without the sessions' store");
      expect((await request(`${replica.url}/api/health`)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await browser.fetch(`${replica.url}/crib-search`)).status).toBe(503);
      // Someone signing in meanwhile is told the same, not "Authentication failed".
      const callback = await new Browser().signIn(`${replica.url}/crib-search`, "lee", { untilCallback: true });
      expect(new URL(callback.url).pathname).toBe("/callback");
      expect(callback.status).toBe(503);
      expect(callback.body).toContain("Sign-in is unavailable for a moment. Please try again in a minute.");
      expect(callback.body).not.toContain("Authentication failed");
    } finally {
      postgres.resume();
    }
    await waitFor(async () => (await request(`${replica.url}/api/ready`)).status === 200, 30_000, () => "not ready again after the store came back");
    const back = await browser.fetch(`${replica.url}/crib-search`);
    expect(back.status).toBe(200);
    expect(back.body).toMatch(/name="csrf"/);
    // A line when the sessions began failing and one when they worked again; no stack per request.
    // The replica's output reaches the test through a pipe: wait for the line, not for a time.
    const lines = (msg: string) => logOf(replica).filter((e) => e.msg === msg && e.use === "sessions").length;
    await waitFor(async () => lines("store working again") > 0, 10_000, () => "no line saying the sessions' store works again");
    const entries = logOf(replica);
    expect(lines("store failing")).toBe(1);
    expect(lines("store working again")).toBe(1);
    expect(entries.filter((e) => e.status === 500)).toEqual([]);
  });

  it("loses no page through a restart of PostgreSQL under load", async () => {
    const browser = new Browser();
    await browser.signIn(`${replica.url}/crib-search`);
    const pages = load(async () => (await browser.fetch(`${replica.url}/crib-search/search?q=valve`)).status, 3);
    await pages.more(30);
    const started = Date.now();
    postgres.halt();
    postgres.resume();
    const restartMs = Date.now() - started;
    // Pages through the restart and after it.
    await pages.more(60);
    const statuses = await pages.stop();
    console.log(`[outage, sign-in on] PostgreSQL restarted (${restartMs} ms) under 3 signed-in clients: ${statuses.length} requests, ${JSON.stringify(tally(statuses))}`);
    expect(count(statuses, 500)).toBe(0);
    expect(count(statuses, 0)).toBe(0);
    expect(count(statuses, 200)).toBeGreaterThan(0);
    // The sessions' reads are tried again through a restart: a page waits a moment rather than fail.
    expect(count(statuses, 503)).toBeLessThanOrEqual(restartMs > 1500 ? statuses.length : 0);
  });

  it("answers a back-channel logout it cannot store with 503, so the provider sends it again", async () => {
    const browser = new Browser();
    await browser.signIn(`${replica.url}/crib-search`);
    // The provider's own logout sends the back-channel token while the store is away, and says it failed.
    expectConsoleError(/^Test IdP: back-channel logout to crib-search failed: .* got: 503 Service Unavailable/);
    postgres.halt();
    try {
      const confirm = await browser.follow(`${idp.issuer}/session/end?client_id=${CLIENT_ID}`);
      const action = /action="([^"]+)"/.exec(confirm.body)?.[1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
      expect(action && xsrf, confirm.body.slice(0, 300)).toBeTruthy();
      await browser.follow(new URL(action!, idp.issuer).toString(), { method: "POST", form: { xsrf: xsrf!, logout: "yes" } });
      await waitFor(async () => logOf(replica).some((e) => e.path === "/backchannel-logout"), 10_000, () => "no back-channel logout reached the portal");
    } finally {
      postgres.resume();
    }
    expect(logOf(replica).filter((e) => e.path === "/backchannel-logout").map((e) => e.status)).toEqual([503]);
  });
});
