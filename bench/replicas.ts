/**
 * npm run bench:replicas — the portal as a plant runs it: replicas of the production server behind
 * HAProxy, sign-in on (the test identity provider), on the embedded catalogue. Prints:
 *
 * 1. Page throughput through the balancer, two replicas sharing PostgreSQL (`DATABASE_URL`:
 *    sessions, rate limits, the signals' checks) ÷ two replicas without it (SQLite files, each
 *    holding every session, so that any replica knows the visitor as the shared store makes them):
 *    autocannon on a search page, REPLICAS_BENCH_SECONDS a round, the two in alternating rounds.
 *    Target ≥ 0.9.
 * 2. Session look-up with PostgreSQL (PgSessionStore.get, p50 and p95): asking the database
 *    each time, and as a replica does (listening for changes, remembering what it read), beside
 *    SQLite's.
 * 3. Two replicas ÷ one behind the balancer (both with the shared store), alternating rounds:
 *    reported; on a 2-core machine the balancer, the database and the load generator share the
 *    cores with the replicas.
 *
 * Rate limits stay on (counted, with an allowance no run reaches), as do usage signals.
 * Needs a build (`npm run build`) and Debian's postgresql and haproxy.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { PgSessionStore, SESSION_MIGRATIONS } from "../app/auth/session-store-pg.server";
import { SqliteSessionStore, type SessionRecord } from "../app/auth/session-store.server";
import { userFromClaims } from "../app/auth/user";
import { createPool, migrate } from "../app/lib/postgres.server";
import { CLIENT_ID, CLIENT_SECRET, startIdp } from "../tests/idp/server";
import { freePort } from "../tests/processes";
import { Browser, ROOT, startHaproxy, startPostgres, startReplica, type Balancer, type Replica } from "../tests/scale/rig";
import { median, percentile, table } from "./lib";

const SECONDS = Number(process.env.REPLICAS_BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.REPLICAS_BENCH_ROUNDS ?? 3);
const USERS = 8;
const PAGE = "/crib-search/search?q=pump+valve";

if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("No production build: run `npm run build` first.");

const stops: (() => unknown)[] = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop();
};
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));

try {
  const postgres = await startPostgres();
  stops.push(() => postgres.stop());
  const ports = { shared: await freePort(), local: await freePort(), one: await freePort() };
  const origin = (port: number) => `http://127.0.0.1:${port}`;
  const idp = await startIdp({ port: await freePort(), portals: Object.values(ports).map(origin) });
  stops.push(() => idp.close());
  const env = (port: number, shared: boolean) => ({
    APP_URL: origin(port),
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    SESSION_SECRET: "bench-replicas-session-secret",
    TRUST_PROXY: "127.0.0.1",
    RATE_LIMIT_PER_MINUTE: process.env.REPLICAS_BENCH_RATE_LIMIT ?? "1000000",
    SAMPLE_ITEMS: "5000",
    ...(shared ? { DATABASE_URL: postgres.url() } : {}),
  });
  const start = async (name: string, port: number, shared: boolean) => {
    const replica = await startReplica(name, env(port, shared));
    stops.push(() => replica.stop());
    return replica;
  };
  const shared = [await start("shared-a", ports.shared, true), await start("shared-b", ports.shared, true)];
  const local = [await start("local-a", ports.local, false), await start("local-b", ports.local, false)];
  const balancers: Record<keyof typeof ports, Balancer> = {
    shared: await startHaproxy(shared.map((r) => ({ name: r.name, port: r.port })), ports.shared),
    local: await startHaproxy(local.map((r) => ({ name: r.name, port: r.port })), ports.local),
    one: await startHaproxy([{ name: shared[0]!.name, port: shared[0]!.port }], ports.one),
  };
  for (const balancer of Object.values(balancers)) stops.push(() => balancer.stop());

  const signIn = async (url: string, i: number, untilCallback = false) => {
    const browser = new Browser();
    const page = await browser.signIn(`${url}/crib-search`, `bench-user-${i}`, { untilCallback });
    if (!/crib-session=/.test(browser.cookieHeader)) throw new Error(`sign-in at ${url} ended with ${page.status} at ${page.url}`);
    return browser.cookieHeader;
  };
  const sharedCookies = await Promise.all(Array.from({ length: USERS }, (_, i) => signIn(balancers.shared.url, i)));
  const localCookies = await Promise.all(Array.from({ length: USERS }, (_, i) => signIn(balancers.local.url, i, true)));
  // Without a shared store each replica knows only the sign-ins it finished: give each all of them.
  copySessions(local);

  const load = (url: string, cookies: string[], seconds = SECONDS) => {
    let next = 0;
    return autocannon({
      url: `${url}${PAGE}`,
      connections: 8,
      duration: seconds,
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! } }) }],
    });
  };
  const compare = async (label: string, a: { name: string; url: string; cookies: string[] }, b: { name: string; url: string; cookies: string[] }) => {
    for (const side of [a, b]) await load(side.url, side.cookies, 3);
    const rows: (string | number)[][] = [["round", `${a.name} req/s`, `${b.name} req/s`, `${a.name} ÷ ${b.name}`, "non-2xx"]];
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? [a, b] : [b, a];
      const result = new Map<string, autocannon.Result>();
      for (const side of order) result.set(side.name, await load(side.url, side.cookies));
      const ra = result.get(a.name)!;
      const rb = result.get(b.name)!;
      ratios.push(ra.requests.average / rb.requests.average);
      rows.push([round, ra.requests.average.toFixed(0), rb.requests.average.toFixed(0), ratios.at(-1)!.toFixed(3), ra.non2xx + rb.non2xx]);
    }
    console.log(`\n${label}\n${table(rows)}\nmedian ${a.name} ÷ ${b.name}: ${median(ratios).toFixed(3)}`);
  };

  console.log(`bench:replicas — ${PAGE}, signed in (${USERS} users), ${SECONDS} s rounds, ${ROUNDS} rounds, ${os.availableParallelism()} cores`);
  await compare(
    "1. Page throughput through the balancer: shared store (PostgreSQL) ÷ none (SQLite), two replicas each",
    { name: "shared", url: balancers.shared.url, cookies: sharedCookies },
    { name: "sqlite", url: balancers.local.url, cookies: localCookies },
  );
  await sessionLookups(postgres.url());
  await compare(
    "3. Two replicas ÷ one behind the balancer (shared store)",
    { name: "two", url: balancers.shared.url, cookies: sharedCookies },
    { name: "one", url: balancers.one.url, cookies: sharedCookies },
  );
} finally {
  await stopAll();
}

/** Copies every session of each replica's sessions.db into the others'. */
function copySessions(replicas: Replica[]): void {
  const files = replicas.map((r) => path.join(r.dir, "sessions.db"));
  const rows = files.flatMap((file) => new Database(file, { readonly: true }).prepare("SELECT key, record, expires_at FROM sessions").all() as object[]);
  for (const file of files) {
    const db = new Database(file);
    const put = db.prepare("INSERT OR IGNORE INTO sessions (key, record, expires_at) VALUES (@key, @record, @expires_at)");
    for (const row of rows) put.run(row);
    db.close();
  }
}

/** 2. PgSessionStore.get against this PostgreSQL (asking each time, and remembering as a replica does), beside SqliteSessionStore.get. */
async function sessionLookups(url: string): Promise<void> {
  const pool = createPool(url, { max: 4 });
  await migrate(pool, SESSION_MIGRATIONS);
  const pg = new PgSessionStore(pool);
  const remembering = new PgSessionStore(pool, { listenUrl: url });
  await remembering.listen();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-bench-sessions-"));
  const sqlite = new SqliteSessionStore(path.join(dir, "sessions.db"));
  const now = Date.now();
  const record: SessionRecord = {
    user: userFromClaims({ sub: "bench", name: "Bench User", email: "bench@example.test" }),
    tokens: { accessToken: "a".repeat(800), refreshToken: "r".repeat(200), idToken: "i".repeat(900), expiresAt: now + 3_600_000 },
    createdAt: now,
    lastSeenAt: now,
  };
  const ids = Array.from({ length: 1000 }, (_, i) => `bench-session-${i}-${"x".repeat(30)}`);
  for (const id of ids) {
    await pg.set(id, record, now + 3_600_000);
    await sqlite.set(id, record, now + 3_600_000);
  }
  // A first pass over every session warms each store (and fills what a replica remembers), then 4,500 are timed.
  const time = async (store: { get(id: string): Promise<unknown> }) => {
    for (const id of ids) await store.get(id);
    const times: number[] = [];
    for (let i = 0; i < 4500; i++) {
      const started = performance.now();
      await store.get(ids[i % ids.length]!);
      times.push(performance.now() - started);
    }
    return times;
  };
  const pgTimes = await time(pg);
  const rememberedTimes = await time(remembering);
  const sqliteTimes = await time(sqlite);
  console.log(
    `\n2. Session look-up (get, 1,000 sessions, each read once first, then 4,500 timed)\n${table([
      ["store", "p50", "p95", "p99"],
      ["PostgreSQL", ...[50, 95, 99].map((p) => `${percentile(pgTimes, p).toFixed(3)} ms`)],
      ["PostgreSQL, remembered", ...[50, 95, 99].map((p) => `${percentile(rememberedTimes, p).toFixed(3)} ms`)],
      ["SQLite", ...[50, 95, 99].map((p) => `${percentile(sqliteTimes, p).toFixed(3)} ms`)],
    ])}`,
  );
  sqlite.close();
  await remembering.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await pool.end();
}
