import { describe, expect, it } from "vitest";
import { addRecentSearch, MAX_COOKIE_BYTES, readRecentSearches, RECENT_LIMIT, serializeRecentSearches } from "./recent-searches.server";

const asRequest = (setCookie: string) => new Request("http://portal.test/", { headers: { Cookie: setCookie.split(";")[0]! } });

describe("the recent-searches cookie", () => {
  it("keeps the last ten distinct searches, newest first", async () => {
    let recent: string[] = [];
    for (let i = 0; i < 12; i++) recent = addRecentSearch(recent, `pump ${i}`);
    recent = addRecentSearch(recent, "pump 5");
    expect(recent).toHaveLength(RECENT_LIMIT);
    expect(recent[0]).toBe("pump 5");
    expect(await readRecentSearches(asRequest(await serializeRecentSearches(recent)))).toEqual(recent);
  });

  it("stays under 4 KB with long queries, dropping the oldest and keeping the newest", async () => {
    let recent: string[] = [];
    for (let i = 0; i < 10; i++) recent = addRecentSearch(recent, `${i} ${"ü".repeat(480)}`);
    const header = await serializeRecentSearches(recent);
    expect(new TextEncoder().encode(header).length).toBeLessThanOrEqual(MAX_COOKIE_BYTES);
    const kept = await readRecentSearches(asRequest(header));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(kept).toEqual(recent.slice(0, kept.length));
  });
});
