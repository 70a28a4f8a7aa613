/**
 * The shared session store as two replicas use it, on a PostgreSQL of its own: each remembers the
 * sessions it has read, and forgets one as soon as any replica changes or ends it.
 */
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PgSessionStore, SESSION_MIGRATIONS } from "~/auth/session-store-pg.server";
import type { SessionRecord } from "~/auth/session-store.server";
import { createPool } from "~/lib/postgres.server";
import { startMigratedPostgres, waitFor, type Postgres } from "./rig";

const HOUR = 3_600_000;
let postgres: Postgres;
const pools: pg.Pool[] = [];
const stores: PgSessionStore[] = [];

/** A replica's store: a pool of its own, listening for the others' changes. */
async function replica(): Promise<{ store: PgSessionStore; asked: () => number }> {
  const pool = createPool(postgres.url(), { max: 2 });
  pools.push(pool);
  // Remembered for an hour: only a change notice can make a replica forget within the test.
  const store = new PgSessionStore(pool, { listenUrl: postgres.url(), rememberMs: HOUR });
  stores.push(store);
  await store.listen();
  const query = vi.spyOn(pool, "query");
  return { store, asked: () => query.mock.calls.length };
}

const record = (user: string, sid?: string): SessionRecord => ({
  user: { id: user, name: user, email: `${user}@example.com`, firstName: null, lastName: null, groups: [], roles: [] },
  tokens: { accessToken: "a", refreshToken: "r", idToken: "i", expiresAt: Date.now() + 3_600_000 },
  createdAt: Date.now(),
  lastSeenAt: Date.now(),
  ...(sid ? { providerSid: sid } : {}),
});

const gone = (store: PgSessionStore, id: string) => () => store.get(id).then((found) => found === null);

beforeAll(async () => {
  postgres = await startMigratedPostgres(SESSION_MIGRATIONS);
}, 120_000);

afterAll(async () => {
  for (const store of stores) await store.close();
  for (const pool of pools) await pool.end();
  postgres?.stop();
});

describe("sessions remembered per replica", () => {
  it("answers a session read before from memory, until another replica ends it", async () => {
    const [a, b] = [await replica(), await replica()];
    const id = "session-one-0123456789abcdef";
    await a.store.set(id, record("ann"), Date.now() + HOUR);
    expect((await b.store.get(id))?.user.id).toBe("ann");
    const before = b.asked();
    for (let i = 0; i < 5; i++) expect((await b.store.get(id))?.user.id).toBe("ann");
    expect(b.asked()).toBe(before);

    await a.store.delete(id);
    await waitFor(gone(b.store, id), 5000, () => "replica b still knew a session that replica a ended");
  });

  it("forgets what another replica changed, and what the provider's logout ended there", async () => {
    const [a, b] = [await replica(), await replica()];
    const id = "session-two-0123456789abcdef";
    await a.store.set(id, record("bob", "sid-1"), Date.now() + HOUR);
    await b.store.get(id);
    await a.store.set(id, { ...record("bob", "sid-1"), renewRetryAt: 42 }, Date.now() + HOUR);
    await waitFor(async () => (await b.store.get(id))?.renewRetryAt === 42, 5000, () => "replica b kept the record replica a replaced");

    expect(await a.store.deleteForUser({ providerSid: "sid-1" })).toBe(1);
    await waitFor(gone(b.store, id), 5000, () => "replica b still knew a session the provider ended");
  });

  it("remembers nothing while it cannot hear the others, and again once it can", async () => {
    const [a, b] = [await replica(), await replica()];
    const id = "session-three-0123456789abcdef";
    await a.store.set(id, record("cy"), Date.now() + HOUR);
    const admin = createPool(postgres.url(), { max: 1 });
    pools.push(admin);
    // The database drops every listening connection (a restart, a proxy in between timing out).
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'crib-search-listen'");
    await waitFor(async () => {
      const before = b.asked();
      await b.store.get(id);
      return b.asked() > before;
    }, 5000, () => "replica b answered from memory while it could not hear changes");

    // Listening again (after a second), it remembers again, and a change made meanwhile is read fresh.
    await a.store.set(id, { ...record("cy"), renewRetryAt: 7 }, Date.now() + HOUR);
    await waitFor(async () => {
      await b.store.get(id);
      const before = b.asked();
      const found = await b.store.get(id);
      return b.asked() === before && found?.renewRetryAt === 7;
    }, 10_000, () => "replica b did not listen again");
    await a.store.delete(id);
    await waitFor(gone(b.store, id), 5000, () => "replica b, listening again, still knew an ended session");
  });
});

describe("back-channel logout tokens across replicas", () => {
  it("are remembered by jti in the shared store: the first replica given a token takes it, a replay on any replica is refused", async () => {
    const [a, b] = [await replica(), await replica()];
    const now = Date.now();
    const takes = await Promise.all([a.store.rememberLogoutToken("jti-shared", now + 60_000, now), b.store.rememberLogoutToken("jti-shared", now + 60_000, now)]);
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(await a.store.rememberLogoutToken("jti-shared", now + 60_000, now + 1_000)).toBe(false);
    expect(await b.store.rememberLogoutToken("jti-other", now + 60_000, now)).toBe(true);
    // Once it could no longer be accepted anyway, it is forgotten.
    expect(await b.store.rememberLogoutToken("jti-shared", now + 120_000, now + 60_000)).toBe(true);
  });
});
