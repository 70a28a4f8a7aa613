// The stand-in over its recorded documents, and the portal's Fusion client against it with each of
// the connection habits real servers and proxies have.
import http from "node:http";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "../../app/search/engine";
import { FusionEngine } from "../../app/search/engines/fusion/fusion-engine.server";
import { MESSAGES } from "../../app/search/engines/fusion/fusion-errors";
import { DEFAULT_SEARCH_CONFIG } from "../../app/search/search-config";
import { loadCorpus, readQuery, RecordedIndex, type RecordedSearch } from "./recorded";
import { startStandIn, type Habits, type StandIn } from "./server";

const corpus = loadCorpus();
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn({ port: 0 });
});
afterEach(() => {
  standIn.setHabits({});
  standIn.setFault({ kind: "none" });
});
afterAll(async () => {
  await standIn?.close();
});

const engine = (timeoutMs = 3_000) =>
  new FusionEngine(
    { url: standIn.url, app: "parts", queryProfile: "parts", bomProfile: "ge-appliances-boms", assetBomProfile: "asset-boms", timeoutMs },
    DEFAULT_SEARCH_CONFIG,
    0,
  );
const search = (q: string, extra: Partial<Parameters<FusionEngine["search"]>[0]> = {}) =>
  engine().search({ q, within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: ["category_s"], highlight: true, ...extra });

describe("the recorded documents", () => {
  it("hold a parts collection and BOM records in Fusion's field names", () => {
    expect(corpus.items).toHaveLength(137);
    expect(corpus.items.every((d) => typeof d.id === "string" && typeof d.item_number_s === "string")).toBe(true);
    expect(corpus.boms.length).toBeGreaterThan(0);
    const numbers = new Set(corpus.items.map((d) => d.item_number_s));
    expect(corpus.boms.every((b) => numbers.has(b.item_number))).toBe(true);
  });
});

describe("the stand-in's reading of the portal's lucene queries", () => {
  it("reads required, excluded and optional clauses, phrases, groups and field clauses", () => {
    expect(readQuery('+pump +(valve OR seal) -wall -"self clean"')).toEqual([
      { occur: "must", term: { kind: "word", text: "pump" } },
      { occur: "must", term: { kind: "any", terms: [{ kind: "word", text: "valve" }, { kind: "word", text: "seal" }] } },
      { occur: "not", term: { kind: "word", text: "wall" } },
      { occur: "not", term: { kind: "phrase", words: ["self", "clean"] } },
    ]);
    expect(readQuery('item_number_s:("wr1" OR "WR1") OR attribute_manufacturer_part_number_s:("x\\"y")')).toEqual([
      { occur: "should", term: { kind: "field", field: "item_number_s", values: ["wr1", "WR1"] } },
      { occur: "should", term: { kind: "field", field: "attribute_manufacturer_part_number_s", values: ['x"y'] } },
    ]);
    expect(readQuery("drain AND pump")).toEqual([
      { occur: "must", term: { kind: "word", text: "drain" } },
      { occur: "must", term: { kind: "word", text: "pump" } },
    ]);
  });

  it("finds by its own index, not the portal's engine: words, exclusions, filters, sort", () => {
    const index = new RecordedIndex(corpus);
    const base: Omit<RecordedSearch, "q"> = { filters: [], sort: null, start: 0, rows: 200, facetFields: [], highlight: false };
    const pumps = index.search({ ...base, q: "+pump" });
    const expected = corpus.items.filter((d) => /\bpump/i.test(`${d.item_description_t} ${d.category_s ?? ""}`));
    expect(pumps.total).toBe(expected.length);
    expect(pumps.total).toBeGreaterThan(0);
    expect(index.search({ ...base, q: "*:*" }).total).toBe(137);
    expect(index.search({ ...base, q: "-*:*" }).total).toBe(0);
    const notPumps = index.search({ ...base, q: "*:* -pump" });
    expect(notPumps.total).toBe(137 - pumps.total);
    const category = String(corpus.items[0]!.category_s);
    const filtered = index.search({ ...base, q: "*:*", filters: [{ field: "category_s", value: category, type: "include" }] });
    expect(filtered.docs.every((d) => d.category_s === category)).toBe(true);
    const sorted = index.search({ ...base, q: "*:*", sort: { field: "item_number_s", direction: "desc" } });
    const numbers = sorted.docs.map((d) => String(d.item_number_s));
    expect(numbers).toEqual([...numbers].sort().reverse());
  });
});

describe("the stand-in answering from the recorded documents", () => {
  it("answers searches with facets, highlighting and Did you mean", async () => {
    const pumps = await search("pump");
    expect(pumps.total).toBeGreaterThan(0);
    expect(pumps.facets[0]!.values.reduce((n, v) => n + v.count, 0)).toBeLessThanOrEqual(pumps.total);
    const snippet = Object.values(pumps.highlighting)[0]!.item_description_t![0]!;
    expect(snippet).toContain(`${HL_PRE}`);
    expect(snippet).toMatch(new RegExp(`${HL_PRE}pump${HL_POST}`, "i"));
    const typo = await search("pumpp");
    expect(typo.total).toBe(0);
    expect(typo.suggestions).toEqual(["pump"]);
  });

  it("looks items up, suggests item numbers and answers BOMs", async () => {
    const item = corpus.items[5]!;
    expect((await engine().getProduct(String(item.item_number_s)))?.id).toBe(item.id);
    expect(await engine().getProduct("NOT-THERE")).toBeNull();
    const prefix = String(item.item_number_s).slice(0, 2);
    const suggestions = await engine().suggest(prefix, 8);
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.every((s) => s.startsWith(prefix))).toBe(true);
    const bom = corpus.boms[0]!;
    const answer = await engine().bom({ itemNumber: bom.item_number, start: 0, rows: 50 });
    expect(answer.total).toBe(corpus.boms.filter((b) => b.item_number === bom.item_number).length);
    expect(answer.docs.map((d) => d.id)).toContain(bom.id);
  });
});

/** Every document through the cursor, as an export reads them. */
async function exportAll(batchSize = 50): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize })) ids.push(...batch.map((d) => d.id));
  return ids;
}

describe("the portal's client against the habits of real servers", () => {
  const habits: [string, Habits][] = [
    ["closes each connection after answering, without saying so", { connection: "close-after-answer" }],
    ["says Connection: close", { connection: "close-header" }],
    ["closes idle kept connections after 20 ms", { idleCloseMs: 20 }],
    ["sends chunked bodies", { chunked: true }],
    ["sends gzip bodies", { gzip: true, chunked: true }],
    ["sends bodies slowly", { slowBodyMs: 30 }],
  ];
  it.each(habits)("reads every answer from a server that %s", async (_name, habit) => {
    standIn.setHabits(habit);
    for (let i = 0; i < 5; i++) {
      expect((await search("pump")).total).toBeGreaterThan(0);
      // A pause as between a person's pages: long enough for an idle close to happen.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await exportAll()).toHaveLength(137);
    expect((await engine().health()).ok).toBe(true);
  });

  it("fails with the spec's text, not a hang, when the connection is reset in the middle of a body", async () => {
    standIn.setHabits({ resetMidBody: true });
    await expect(search("pump")).rejects.toMatchObject({ message: MESSAGES.failed, reason: "failed" });
  });

  it("is seen from the raw socket: no Connection header, then the close", async () => {
    standIn.setHabits({ connection: "close-after-answer" });
    const raw = await new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
      const socket = net.connect(standIn.port, "127.0.0.1");
      let data = "";
      socket.on("data", (chunk) => (data += chunk));
      socket.on("end", () => resolve({ head: data.split("\r\n\r\n")[0]!, closed: true }));
      socket.on("error", reject);
      socket.write("GET /api HTTP/1.1\r\nHost: stand-in\r\n\r\n");
    });
    expect(raw.closed).toBe(true);
    expect(raw.head).not.toMatch(/connection: close/i);
    // The control API is never subject to the habits.
    const control = await new Promise<string | undefined>((resolve) =>
      http.get(`${standIn.url}/__control/habits`, (res) => {
        res.resume();
        resolve(res.headers.connection);
      }),
    );
    expect(control).toBe("keep-alive");
  });
});
