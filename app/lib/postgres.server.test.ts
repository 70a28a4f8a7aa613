import { EventEmitter } from "node:events";
import type pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { inTransaction } from "./postgres.server";

/** A pool of one client that records its queries and how it was released. */
function fakePool() {
  const client = Object.assign(new EventEmitter(), {
    queries: [] as string[],
    query: vi.fn(async function (this: { queries: string[] }, sql: string) {
      client.queries.push(sql);
      return { rows: [] };
    }),
    release: vi.fn(),
  });
  const pool = { connect: async () => client } as unknown as pg.Pool;
  return { pool, client };
}

describe("inTransaction", () => {
  it("commits the work and gives the client back for reuse", async () => {
    const { pool, client } = fakePool();
    await expect(inTransaction(pool, async (c) => (await c.query("SELECT 1"), "done"))).resolves.toBe("done");
    expect(client.queries).toEqual(["BEGIN", "SELECT 1", "COMMIT"]);
    expect(client.release).toHaveBeenCalledWith(undefined);
    expect(client.listenerCount("error")).toBe(0);
  });

  it("survives the connection's error event mid-transaction: the work fails, the broken client is released to be closed", async () => {
    const { pool, client } = fakePool();
    const lost = new Error("Connection terminated unexpectedly");
    const work = inTransaction(pool, async () => {
      // What pg does when the server goes away while the client is out of the pool.
      client.emit("error", lost);
      throw new Error("the query failed");
    });
    await expect(work).rejects.toThrow("the query failed");
    expect(client.queries).toEqual(["BEGIN", "ROLLBACK"]);
    expect(client.release).toHaveBeenCalledWith(lost);
    expect(client.listenerCount("error")).toBe(0);
  });
});
