/**
 * The rate limits of two replicas on a PostgreSQL of their own: the sign-in allowance counts once
 * for both, the flood guard each replica's own (no write to the database for it).
 */
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPool } from "~/lib/postgres.server";
import { RATE_LIMIT_MIGRATIONS, RateLimits } from "~/lib/rate-limits.server";
import { startMigratedPostgres, type Postgres } from "./rig";

let postgres: Postgres;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  postgres = await startMigratedPostgres(RATE_LIMIT_MIGRATIONS);
}, 120_000);

afterAll(async () => {
  for (const pool of pools) await pool.end();
  postgres?.stop();
});

/** A replica's limits, as the server envelope makes them, on a pool of its own. */
function replica() {
  const pool = createPool(postgres.url(), { max: 2 });
  pools.push(pool);
  const asked = vi.spyOn(pool, "query");
  const limits = new RateLimits<"signIns" | "requests">({ signIns: 3, requests: 3 }, pool, { perReplica: ["requests"] });
  return { limits, asked: () => asked.mock.calls.length };
}

describe("rate limits of replicas sharing a store", () => {
  it("count a client's sign-ins once across the replicas, and its pages per replica without the database", async () => {
    const [a, b] = [replica(), replica()];
    const signIn = [{ kind: "signIns" as const, key: "client:x" }];
    expect(await a.limits.take(signIn)).toBeNull();
    expect(await a.limits.take(signIn)).toBeNull();
    expect(await b.limits.take(signIn)).toBeNull();
    expect((await b.limits.take(signIn))?.kind).toBe("signIns");
    expect((await a.limits.take(signIn))?.kind).toBe("signIns");

    const page = [{ kind: "requests" as const, key: "client:x" }];
    const before = [a.asked(), b.asked()];
    for (let i = 0; i < 3; i++) {
      expect(await a.limits.take(page)).toBeNull();
      expect(await b.limits.take(page)).toBeNull();
    }
    expect((await a.limits.take(page))?.kind).toBe("requests");
    expect([a.asked(), b.asked()]).toEqual(before);
  });
});
