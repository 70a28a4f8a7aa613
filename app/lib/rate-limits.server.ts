import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import type { Migration } from "./postgres.server";

/**
 * Allowances per minute, counted by rate-limiter-flexible: per process in memory by default, in
 * the shared PostgreSQL when there is one, so that a client counts once however the balancer
 * spreads its requests. A fixed window of a minute per key.
 */

/** One allowance a request spends: which one, and whose. */
export interface Charge<Kind extends string = string> {
  kind: Kind;
  key: string;
}

/** The limiter's own table, made by a migration (under its lock) rather than by each limiter as it starts. */
export const RATE_LIMIT_MIGRATIONS: Migration[] = [
  {
    id: "001-rate-limits",
    sql: `CREATE TABLE IF NOT EXISTS rate_limits (key VARCHAR(255) PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire BIGINT);
      CREATE INDEX IF NOT EXISTS rate_limits_expire ON rate_limits (expire);`,
  },
];

export interface Refusal<Kind extends string = string> {
  kind: Kind;
  retryAfterSeconds: number;
}

export class RateLimits<Kind extends string = string> {
  private readonly limiters = new Map<Kind, RateLimiterAbstract | RateLimiterStoreAbstract>();

  /**
   * `perMinute`: each allowance's requests a minute; 0 leaves it unlimited. With a shared `pool`,
   * the allowances are counted there, but those named in `perReplica`, which each process counts
   * in memory: a flood guard that every page spends need not cost every page a write to the
   * database, while an allowance whose end locks a person out (sign-in) must count once.
   */
  constructor(perMinute: Record<Kind, number>, pool?: pg.Pool, options: { perReplica?: readonly Kind[] } = {}) {
    let first = true;
    for (const [kind, points] of Object.entries(perMinute) as [Kind, number][]) {
      if (!points) continue;
      const base = { points, duration: 60, keyPrefix: kind };
      const memory = new RateLimiterMemory(base);
      const shared = pool && !options.perReplica?.includes(kind);
      this.limiters.set(
        kind,
        shared
          ? new RateLimiterPostgres({
              ...base,
              storeClient: pool,
              tableName: "rate_limits",
              tableCreated: true,
              // One limiter clears the shared table's expired rows; the others need not.
              clearExpiredByTimeout: first,
              // While the database does not answer, each replica counts on its own rather than refusing everyone.
              insuranceLimiter: memory,
            })
          : memory,
      );
      if (shared) first = false;
    }
  }

  /** Spends each charge; the first allowance that is used up refuses the request. Never throws. */
  async take(charges: readonly Charge<Kind>[]): Promise<Refusal<Kind> | null> {
    for (const { kind, key } of charges) {
      const limiter = this.limiters.get(kind);
      if (!limiter) continue;
      try {
        await limiter.consume(key);
      } catch (result) {
        if (result instanceof RateLimiterRes) return { kind, retryAfterSeconds: Math.ceil(result.msBeforeNext / 1000) };
        // A store that fails with no insurance to fall back on: let the request through.
        console.error(`Rate limit ${kind} could not be counted:`, result);
      }
    }
    return null;
  }
}
