import { describe, expect, it, vi } from "vitest";
import { capturedLog } from "~/lib/log.server";
import { failingStores } from "~/lib/store-health.server";
import { GuardedSessionStore, SessionStoreUnavailable } from "./guarded-session-store.server";
import type { SessionStore } from "./session-store.server";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const full = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

function storeWith(get: SessionStore["get"]): SessionStore {
  const never = () => Promise.reject(new Error("not used"));
  return { get, set: never, delete: never, touch: never, claimRenewal: never, deleteForUser: never, rememberLogoutToken: never, logoutTokenUsed: never };
}

describe("GuardedSessionStore", () => {
  it("reads again through a database restart of a moment: nobody sees an error", async () => {
    const get = vi.fn<SessionStore["get"]>().mockRejectedValueOnce(refused()).mockResolvedValueOnce(null);
    await expect(new GuardedSessionStore(storeWith(get), "postgres").get("id")).resolves.toBeNull();
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("turns a store that stays away into SessionStoreUnavailable, logged once while it lasts and once when it is back", async () => {
    let down = true;
    const store = new GuardedSessionStore(storeWith(() => (down ? Promise.reject(refused()) : Promise.resolve(null))), "postgres");
    const { entries } = await capturedLog(async () => {
      for (let i = 0; i < 3; i++) await expect(store.get("id")).rejects.toBeInstanceOf(SessionStoreUnavailable);
      expect(failingStores()).toEqual([expect.objectContaining({ store: "postgres", use: "sessions", failures: 3 })]);
      down = false;
      await store.get("id");
    });
    expect(entries.map((e) => e.msg)).toEqual(["store failing", "store working again"]);
    expect(failingStores()).toEqual([]);
  });

  it("does not try again what is no connection's fault (a full disk), and says what it was", async () => {
    const get = vi.fn<SessionStore["get"]>().mockRejectedValue(full());
    const store = new GuardedSessionStore(storeWith(get), "sqlite");
    const { entries } = await capturedLog(() => expect(store.get("id")).rejects.toBeInstanceOf(SessionStoreUnavailable));
    expect(get).toHaveBeenCalledTimes(1);
    expect(failingStores()[0]).toMatchObject({ store: "sqlite", detail: "SQLITE_FULL: database or disk is full" });
    expect(entries[0]).toMatchObject({ level: "error", store: "sqlite", use: "sessions" });
    await new GuardedSessionStore(storeWith(() => Promise.resolve(null)), "sqlite").get("id");
  });
});
