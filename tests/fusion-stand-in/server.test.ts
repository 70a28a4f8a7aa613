import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../app/search/catalog-fields";
import { buildQuery, filterQueries } from "../../app/search/engines/fusion/query-builder";
import { BOM_SORT_FIELDS, HL_POST, HL_PRE } from "../../app/search/engine";
import { FusionEngine } from "../../app/search/engines/fusion/fusion-engine.server";
import { DEFAULT_SEARCH_CONFIG } from "../../app/search/search-config";
import { buildSampleCatalog } from "../../app/search/engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "../../app/search/engines/embedded/embedded-engine.server";
import { startStandIn, type StandIn } from "./server";
import { solrPhrase } from "./solr-syntax";

const ITEMS = 300;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fusion-stand-in-"));
const catalogPath = path.join(dir, "catalog.db");
let standIn: StandIn;
let engine: EmbeddedEngine;

beforeAll(async () => {
  buildSampleCatalog(catalogPath, { items: ITEMS });
  engine = new EmbeddedEngine(catalogPath);
  standIn = await startStandIn({ port: 0, catalogPath });
});

afterEach(() => {
  standIn.setFault({ kind: "none" });
  standIn.clearRequests();
});

afterAll(async () => {
  await standIn?.close();
  engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Param = [string, string];
const FACET_FIELDS = ["org_code_s", "category_s", "manufacturer_s", "attribute_status_s"];
const key = (field: string) => field.replace(/^attribute_/, "").replace(/_s$/, "");
const jsonFacet = (fields = FACET_FIELDS) =>
  JSON.stringify(
    Object.fromEntries(
      fields.map((field) => [field, { type: "terms", field, limit: 100, mincount: 1, domain: { excludeTags: `${key(field)}_tag` } }]),
    ),
  );
const include = (field: string, values: string[]) => `{!tag=${key(field)}_tag}${field}:(${values.map(solrPhrase).join(" OR ")})`;
const exclude = (field: string, values: string[]) => `{!tag=${key(field)}_tag_exclude}-${field}:(${values.map(solrPhrase).join(" OR ")})`;

/** The query the portal's client sends, with `extra` appended (repeatable keys allowed). */
function queryUrl(extra: Param[] = [], profile = "parts", base = standIn.url): string {
  const params = new URLSearchParams([["wt", "json"], ["q.op", "OR"], ["fl", "*,score"], ...extra]);
  return `${base}/api/apps/parts/query/${encodeURIComponent(profile)}?${params}`;
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

const search = (extra: Param[] = []) => get(queryUrl(extra));

/**
 * A GET over node:http, whose own timers are not the ones a test fakes, and whether its answer
 * has come yet.
 */
function rawGet(target: string): { done: Promise<{ status: number; body: any }>; settled: () => boolean } {
  let settled = false;
  const done = new Promise<{ status: number; body: any }>((resolve, reject) => {
    http
      .get(target, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          settled = true;
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        });
      })
      .on("error", (error) => {
        settled = true;
        reject(error);
      });
  });
  return { done, settled: () => settled };
}

/** A form POST over node:http whose body is sent in two parts, the second by `finish`. */
function rawPost(target: string, firstPart: string): ReturnType<typeof rawGet> & { finish: (rest: string) => void } {
  let settled = false;
  let request!: http.ClientRequest;
  const done = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request = http.request(target, { method: "POST", agent: false, headers: { "Content-Type": "application/x-www-form-urlencoded" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        settled = true;
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      });
    });
    request.on("error", (error) => {
      settled = true;
      reject(error);
    });
  });
  request.flushHeaders();
  request.write(firstPart);
  return { done, settled: () => settled, finish: (rest) => request.end(rest) };
}

/** Turns of the event loop (not timers, which a test may fake) until the stand-in recorded `n` requests. */
async function arrived(n: number): Promise<void> {
  for (let turn = 0; turn < 100_000 && standIn.requests.length < n; turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(standIn.requests).toHaveLength(n);
}

/**
 * One unfaulted round trip to the stand-in: an answer sent before it would have reached its
 * client by the time this one is back.
 */
async function roundTrip(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    http.get(`${standIn.url}/__control/fault`, { agent: false }, (res) => res.resume().on("end", resolve)).on("error", reject);
  });
}
const facet = (body: any, field: string): { val: string; count: number }[] => body.facets[field].buckets;

describe("query profile", () => {
  it("answers a match-all query in Fusion's shape", async () => {
    const { status, headers, body } = await get(
      queryUrl([["q", "*:*"], ["start", "0"], ["rows", "5"], ["sort", "score desc"], ["json.facet", jsonFacet()]]),
      { headers: { "x-request-id": "req-123", "fusion-request-id": "fus-456" } },
    );
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect(headers.get("x-fusion-query-id")).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(headers.get("x-request-id")).toBe("req-123");
    expect(headers.get("fusion-request-id")).toBe("fus-456");
    expect(body.responseHeader.status).toBe(0);
    expect(body.responseHeader.params).toMatchObject({ q: "*:*", rows: "5", isFusionQuery: "true", fusionQueryId: headers.get("x-fusion-query-id") });
    expect(body.response.numFound).toBe(ITEMS);
    expect(body.response.start).toBe(0);
    expect(body.response.docs).toHaveLength(5);
    for (const doc of body.response.docs) {
      expect(typeof doc.id).toBe("string");
      expect(typeof doc.score).toBe("number");
      expect(doc.item_number_s).toBeTruthy();
    }
    expect(body.facets.count).toBe(ITEMS);
    for (const field of FACET_FIELDS) {
      const buckets = facet(body, field);
      expect(buckets.length).toBeGreaterThan(1);
      expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBeLessThanOrEqual(ITEMS);
      expect(buckets.map((b) => b.count)).toEqual([...buckets.map((b) => b.count)].sort((a, b) => b - a));
    }
    expect(body.facet_counts).toBeUndefined();
    expect(body.highlighting).toBeUndefined();
  });

  it("pages with start and rows, and answers classic facet_fields as a flat list", async () => {
    const first = await search([["q", "*:*"], ["rows", "4"]]);
    const second = await search([["q", "*:*"], ["start", "2"], ["rows", "4"], ["facet", "true"], ["facet.field", "org_code_s"]]);
    expect(second.body.response.start).toBe(2);
    expect(second.body.response.docs.map((d: any) => d.id).slice(0, 2)).toEqual(first.body.response.docs.map((d: any) => d.id).slice(2));
    const flat = second.body.facet_counts.facet_fields.org_code_s as unknown[];
    expect(flat.length % 2).toBe(0);
    expect(typeof flat[0]).toBe("string");
    expect(typeof flat[1]).toBe("number");
    let sum = 0;
    for (let i = 1; i < flat.length; i += 2) sum += flat[i] as number;
    expect(sum).toBe(ITEMS);
  });

  it("applies an include filter, with multi-select facet counts", async () => {
    const all = await search([["q", "*:*"], ["rows", "0"], ["json.facet", jsonFacet()]]);
    const [a, b] = facet(all.body, "org_code_s");
    const one = await search([["q", "*:*"], ["rows", "100"], ["fq", include("org_code_s", [a!.val])], ["json.facet", jsonFacet()]]);
    expect(one.status).toBe(200);
    expect(one.body.response.numFound).toBe(a!.count);
    expect(one.body.response.docs.every((d: any) => d.org_code_s === a!.val)).toBe(true);
    // The filtered facet keeps its other values (its own filter is excluded); the others narrow.
    expect(facet(one.body, "org_code_s")).toEqual(facet(all.body, "org_code_s"));
    const statusSum = facet(one.body, "attribute_status_s").reduce((s, x) => s + x.count, 0);
    expect(statusSum).toBeLessThanOrEqual(a!.count);
    const two = await search([["q", "*:*"], ["rows", "0"], ["fq", include("org_code_s", [a!.val, b!.val])]]);
    expect(two.body.response.numFound).toBe(a!.count + b!.count);
  });

  it("answers the client's stock level range: the filter, its exclusion and the query facet's count", async () => {
    const range = (type: "include" | "exclude") => filterQueries([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type }], DEFAULT_SEARCH_CONFIG)[0]!;
    const facetParam = JSON.parse(buildQuery({ q: "", within: [], filters: [], sort: null, start: 0, rows: 0, facetFields: [STOCK_LEVEL_FIELD] }, DEFAULT_SEARCH_CONFIG).get("json.facet")!);
    const all = await search([["q", "*:*"], ["rows", "0"], ["json.facet", JSON.stringify(facetParam)]]);
    const below = all.body.facets[STOCK_LEVEL_FIELD].count as number;
    expect(below).toBeGreaterThan(0);
    const only = await search([["q", "*:*"], ["rows", String(ITEMS)], ["fq", range("include")]]);
    expect(only.body.response.numFound).toBe(below);
    expect(only.body.response.docs.every((d: any) => d.attribute_quantity_on_hand_i < d.attribute_org_min_stock_level_i)).toBe(true);
    const rest = await search([["q", "*:*"], ["rows", "0"], ["fq", range("exclude")]]);
    expect(rest.body.response.numFound).toBe(ITEMS - below);
  });

  it("applies an exclude filter", async () => {
    const all = await search([["q", "*:*"], ["rows", "0"], ["json.facet", jsonFacet()]]);
    const top = facet(all.body, "category_s")[0]!;
    const { body } = await search([["q", "*:*"], ["rows", String(ITEMS)], ["fq", exclude("category_s", [top.val])], ["json.facet", jsonFacet()]]);
    expect(body.response.numFound).toBe(ITEMS - top.count);
    expect(body.response.docs.some((d: any) => d.category_s === top.val)).toBe(false);
    expect(facet(body, "category_s").find((x) => x.val === top.val)).toBeUndefined();
  });

  it("round-trips filter values with punctuation, and hostile literals match nothing without a 400", async () => {
    const all = await search([["q", "*:*"], ["rows", "0"], ["json.facet", jsonFacet(["manufacturer_s", "attribute_status_s"])]]);
    const punctuated = [...facet(all.body, "manufacturer_s"), ...facet(all.body, "attribute_status_s")].filter((b) => /[^A-Za-z0-9 ]/.test(b.val));
    expect(punctuated.length).toBeGreaterThan(0);
    for (const bucket of punctuated) {
      const field = facet(all.body, "manufacturer_s").includes(bucket) ? "manufacturer_s" : "attribute_status_s";
      const { status, body } = await search([["q", "*:*"], ["rows", "0"], ["fq", include(field, [bucket.val])]]);
      expect(status).toBe(200);
      expect(body.response.numFound).toBe(bucket.count);
    }
    const hostile = 'He said "stop" \\ (now) OR "x" {!join from=id to=id}org_code_s:MON ünï ✓';
    const inc = await search([["q", "*:*"], ["rows", "0"], ["fq", include("org_code_s", [hostile])]]);
    expect(inc.status).toBe(200);
    expect(inc.body.response.numFound).toBe(0);
    const exc = await search([["q", "*:*"], ["rows", "0"], ["fq", exclude("org_code_s", [hostile, "MON)"])]]);
    expect(exc.status).toBe(200);
    expect(exc.body.response.numFound).toBe(ITEMS);
    // A real value next to the hostile one still matches: the OR-list was split correctly.
    const mixed = await search([["q", "*:*"], ["rows", "0"], ["fq", include("attribute_status_s", [hostile, punctuated.at(-1)!.val])]]);
    expect(mixed.body.response.numFound).toBe(punctuated.at(-1)!.count);
  });

  it("answers other filter shapes with Solr's 400 syntax error", async () => {
    for (const fq of ["org_code_s:MON", '{!tag=org_code_tag}org_code_s:("MON"', '{!join from=id to=id}org_code_s:("MON")', '{!tag=org_code_tag}-org_code_s:("MON")']) {
      const { status, body } = await search([["q", "*:*"], ["fq", fq]]);
      expect(status, fq).toBe(400);
      expect(body.responseHeader.status).toBe(400);
      expect(body.error.code).toBe(400);
      expect(body.error.msg).toMatch(/^org\.apache\.solr\.search\.SyntaxError: /);
      expect(body.error.metadata).toEqual(["error-class", "org.apache.solr.common.SolrException", "root-error-class", "org.apache.solr.search.SyntaxError"]);
    }
  });

  it("searches free text and treats upper-case AND as an operator", async () => {
    const pump = await search([["q", "pump"], ["rows", "50"]]);
    expect(pump.body.response.numFound).toBeGreaterThan(0);
    expect(pump.body.response.docs.every((d: any) => JSON.stringify(d).toLowerCase().includes("pump"))).toBe(true);
    const scores = pump.body.response.docs.map((d: any) => d.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const within = await search([["q", "(pump) AND drain"], ["rows", "0"]]);
    const plain = await search([["q", "pump drain"], ["rows", "0"]]);
    expect(within.body.response.numFound).toBe(plain.body.response.numFound);
    expect(within.body.response.numFound).toBeGreaterThan(0);
  });

  it("sorts by a field", async () => {
    const { body } = await search([["q", "*:*"], ["rows", "40"], ["sort", "attribute_list_price_d desc"]]);
    const prices = body.response.docs.map((d: any) => d.attribute_list_price_d ?? -1);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => b - a));
    const bad = await search([["q", "*:*"], ["sort", "attribute_list_price_d"]]);
    expect(bad.status).toBe(400);
  });

  it("looks a product up by item number or id, exactly", async () => {
    const { body: all } = await search([["q", "*:*"], ["rows", "1"], ["start", "17"]]);
    const doc = all.response.docs[0];
    const lookup = (value: string) => search([["q", `item_number_s:${solrPhrase(value)} OR id:${solrPhrase(value)}`], ["rows", "1"], ["start", "0"]]);
    for (const value of [doc.item_number_s, doc.id]) {
      const { status, body } = await lookup(value);
      expect(status).toBe(200);
      expect(body.response.numFound).toBe(1);
      expect(body.response.docs[0].id).toBe(doc.id);
    }
    expect((await lookup(doc.item_number_s.toLowerCase())).body.response.numFound).toBe(0);
    const hostile = await lookup('no "such" \\ item (x)');
    expect(hostile.status).toBe(200);
    expect(hostile.body.response.numFound).toBe(0);
  });
});

describe("cursorMark", () => {
  async function iterate(extra: Param[], rows: number) {
    const seen: string[] = [];
    let mark = "*";
    for (let i = 0; i < 1000; i++) {
      const { status, body } = await search([["q", "*:*"], ["start", "0"], ["rows", String(rows)], ["cursorMark", mark], ...extra]);
      expect(status).toBe(200);
      expect(body.response.start).toBe(0);
      seen.push(...body.response.docs.map((d: any) => d.id));
      if (body.nextCursorMark === mark) return { seen, numFound: body.response.numFound, lastDocs: body.response.docs.length };
      expect(body.nextCursorMark).toEqual(expect.any(String));
      mark = body.nextCursorMark;
    }
    throw new Error("cursor never ended");
  }

  it("visits every document exactly once and ends with a repeated mark", async () => {
    const { seen, numFound, lastDocs } = await iterate([["sort", "id asc"]], 7);
    expect(numFound).toBe(ITEMS);
    expect(seen).toHaveLength(ITEMS);
    expect(new Set(seen).size).toBe(ITEMS);
    expect(lastDocs).toBe(0);
  });

  it("iterates a filtered, field-sorted set", async () => {
    const all = await search([["q", "*:*"], ["rows", "0"], ["json.facet", jsonFacet(["org_code_s"])]]);
    const org = facet(all.body, "org_code_s")[0]!;
    const { seen } = await iterate([["sort", "attribute_list_price_d desc, id asc"], ["fq", include("org_code_s", [org.val])]], 10);
    expect(seen).toHaveLength(org.count);
    expect(new Set(seen).size).toBe(org.count);
  });

  it("refuses a cursor without the id tie-breaker, with start > 0, or with a made-up mark", async () => {
    const noId = await search([["q", "*:*"], ["sort", "score desc"], ["cursorMark", "*"]]);
    expect(noId.status).toBe(400);
    expect(noId.body.error.msg).toBe("Cursor functionality requires a sort containing a uniqueKey field tie breaker");
    const started = await search([["q", "*:*"], ["sort", "id asc"], ["start", "5"], ["cursorMark", "*"]]);
    expect(started.status).toBe(400);
    expect(started.body.error.msg).toBe("Cursor functionality requires start=0");
    const bogus = await search([["q", "*:*"], ["sort", "id asc"], ["cursorMark", "nonsense"]]);
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.msg).toMatch(/^Unable to parse 'cursorMark'/);
  });
});

describe("highlighting and spellcheck", () => {
  it("converts the highlight markers to the requested tags", async () => {
    const base: Param[] = [["q", "pump"], ["rows", "5"], ["hl", "true"], ["hl.fl", "item_number_s,item_description_t"], ["hl.fragsize", "150"], ["hl.maxAnalyzedChars", "51200"]];
    const marked = await search([...base, ["hl.tag.pre", HL_PRE], ["hl.tag.post", HL_POST]]);
    const ids = marked.body.response.docs.map((d: any) => d.id);
    expect(Object.keys(marked.body.highlighting).sort()).toEqual([...ids].sort());
    const snippets = ids.flatMap((id: string) => marked.body.highlighting[id].item_description_t ?? []);
    expect(snippets.length).toBeGreaterThan(0);
    for (const s of snippets) expect(s).toMatch(new RegExp(`${HL_PRE}pump\\w*${HL_POST}`, "i"));
    const em = await search(base);
    const emSnippets = ids.flatMap((id: string) => em.body.highlighting[id].item_description_t ?? []);
    for (const s of emSnippets) {
      expect(s).toMatch(/<em>pump\w*<\/em>/i);
      expect(s).not.toMatch(new RegExp(`[${HL_PRE}${HL_POST}]`));
    }
    // A small hl.fragsize cuts long fields around the first match without splitting a marked run.
    const short = await search([["q", "pump"], ["rows", "20"], ["hl", "true"], ["hl.fl", "item_description_t"], ["hl.fragsize", "12"]]);
    const cut = Object.values(short.body.highlighting).flatMap((f: any) => f.item_description_t ?? []) as string[];
    expect(cut.length).toBeGreaterThan(0);
    for (const s of cut) {
      expect(s).toMatch(/<em>pump\w*<\/em>/i);
      expect(s.split("<em>").length).toBe(s.split("</em>").length);
      expect(s.replace(/<\/?em>/g, "").length).toBeLessThanOrEqual(24);
    }
    // Fields outside hl.fl are left out; a doc with nothing highlighted maps to {}.
    const other = await search([["q", "pump"], ["rows", "3"], ["hl", "true"], ["hl.fl", "attribute_status_s"]]);
    for (const id of other.body.response.docs.map((d: any) => d.id)) expect(other.body.highlighting[id]).toEqual({});
  });

  it("offers a collation for a misspelt description word", async () => {
    expect((await search([["q", "pump"], ["rows", "0"]])).body.response.numFound).toBeGreaterThan(0);
    const { body } = await search([["q", "drain pmup"], ["rows", "10"], ["spellcheck", "true"], ["spellcheck.collate", "true"], ["spellcheck.collateExtendedResults", "true"]]);
    expect(body.response.numFound).toBe(0);
    expect(body.spellcheck.correctlySpelled).toBe(false);
    expect(body.spellcheck.suggestions[0]).toBe("pmup");
    expect(body.spellcheck.suggestions[1]).toMatchObject({ numFound: 1, startOffset: 6, endOffset: 10, origFreq: 0, suggestion: [{ word: "pump" }] });
    expect(body.spellcheck.collations[0]).toBe("collation");
    const collation = body.spellcheck.collations[1];
    expect(collation.collationQuery).toBe("drain pump");
    expect(collation.misspellingsAndCorrections).toEqual(["pmup", "pump"]);
    const check = await search([["q", "drain pump"], ["rows", "0"]]);
    expect(collation.hits).toBe(check.body.response.numFound);
    expect(collation.hits).toBeGreaterThan(0);
  });

  it("has nothing to suggest for a query with results or for gibberish", async () => {
    for (const q of ["pump", "zzqxjv"]) {
      const { body } = await search([["q", q], ["rows", "0"], ["spellcheck", "true"], ["spellcheck.collate", "true"]]);
      expect(body.spellcheck).toEqual({ suggestions: [], correctlySpelled: true, collations: [] });
    }
  });
});

describe("suggest and BOM profiles", () => {
  it("suggests item numbers for a prefix", async () => {
    const { body: all } = await search([["q", "*:*"], ["rows", "1"]]);
    const prefix = all.response.docs[0].item_number_s.slice(0, 2);
    const params = new URLSearchParams({ suggest: "true", "suggest.dictionary": "default", "suggest.q": prefix, "suggest.count": "5" });
    const { status, body } = await get(`${standIn.url}/api/apps/parts/query/parts/suggest?${params}`);
    expect(status).toBe(200);
    const entry = body.suggest.default[prefix];
    expect(entry.numFound).toBe(entry.suggestions.length);
    expect(entry.suggestions.length).toBeGreaterThan(0);
    expect(entry.suggestions.length).toBeLessThanOrEqual(5);
    for (const s of entry.suggestions) {
      expect(s).toMatchObject({ weight: 0, payload: "" });
      expect(s.term.toLowerCase().startsWith(prefix.toLowerCase())).toBe(true);
    }
  });

  it("answers the BOM profile with suffixed fields, paging, type and sort", async () => {
    const { item, total } = await busyItem();
    expect(total).toBeGreaterThan(2);
    const bom = (params: Record<string, string>) =>
      get(`${standIn.url}/api/apps/parts/query/ge-appliances-boms?${new URLSearchParams({ itemNumber: item, start: "0", rows: "20", ...params })}`);
    const { status, body } = await bom({});
    expect(status).toBe(200);
    expect(body.response.numFound).toBe(total);
    const allowed = ["id", "type_s", "org_code_s", "item_number_s", "asset_number_s", "asset_serial_number_s", "asset_group_s", "asset_description_t", "asset_description_s", "quantity_i"];
    for (const doc of body.response.docs) {
      for (const name of Object.keys(doc)) expect(allowed).toContain(name);
      expect(doc.item_number_s).toBe(item);
      for (const value of Object.values(doc)) expect(value).not.toBeNull();
    }
    const page = await bom({ start: "1", rows: "2" });
    expect(page.body.response.start).toBe(1);
    expect(page.body.response.docs.map((d: any) => d.id)).toEqual(body.response.docs.slice(1, 3).map((d: any) => d.id));
    const suffixed = await bom({ sort: "asset_number_s desc" });
    const bare = await bom({ sort: "asset_number desc" });
    const numbers = suffixed.body.response.docs.map((d: any) => d.asset_number_s);
    expect(numbers).toEqual([...numbers].sort().reverse());
    expect(bare.body.response.docs).toEqual(suffixed.body.response.docs);
    for (const type of ["asset", "pm", "other"]) {
      const typed = await bom({ type });
      expect(typed.body.response.docs.every((d: any) => d.type_s === type)).toBe(true);
    }
    expect((await bom({ sort: "nonsense_s asc" })).status).toBe(400);
  });

  it("answers the asset-BOM profile with asset records only", async () => {
    const { item, assets } = await busyItem();
    const url = `${standIn.url}/api/apps/parts/query/asset-boms?${new URLSearchParams({ fq: `item_number_s:${solrPhrase(item)}`, start: "0", rows: "50" })}`;
    const { status, body } = await get(url);
    expect(status).toBe(200);
    expect(body.response.numFound).toBe(assets);
    expect(body.response.docs).toHaveLength(assets);
    expect(body.response.docs.every((d: any) => d.type_s === "asset" && d.item_number_s === item)).toBe(true);
    const none = await get(`${standIn.url}/api/apps/parts/query/asset-boms?${new URLSearchParams({ fq: 'item_number_s:"A/B \\"1\\""' })}`);
    expect(none.status).toBe(200);
    expect(none.body.response.numFound).toBe(0);
  });
});

/** An item used in several BOM records, found through the engine the stand-in wraps. */
async function busyItem(): Promise<{ item: string; total: number; assets: number }> {
  const { docs } = await engine.search({ q: "", within: [], filters: [], sort: null, start: 0, rows: ITEMS, facetFields: [], highlight: false });
  let best = { item: "", total: 0, assets: 0 };
  for (const doc of docs) {
    const item = String(doc.item_number_s);
    const { total } = await engine.bom({ itemNumber: item, start: 0, rows: 0 });
    if (total > best.total) best = { item, total, assets: (await engine.bom({ itemNumber: item, type: "asset", start: 0, rows: 0 })).total };
  }
  return best;
}

describe("the portal's client against the stand-in", () => {
  it("sorts asset BOMs by every column, as the catalogue does", async () => {
    const items = (await engine.search({ q: "", within: [], filters: [], sort: null, start: 0, rows: ITEMS, facetFields: [], highlight: false })).docs;
    let item = "";
    for (const doc of items) {
      const number = String(doc.item_number_s);
      if ((await engine.bom({ itemNumber: number, type: "asset", start: 0, rows: 0 })).total > 1) {
        item = number;
        break;
      }
    }
    expect(item).not.toBe("");
    const fusion = new FusionEngine(
      { url: standIn.url, app: "parts", queryProfile: "parts", bomProfile: "ge-appliances-boms", assetBomProfile: "asset-boms", timeoutMs: 5_000 },
      DEFAULT_SEARCH_CONFIG,
    );
    for (const field of BOM_SORT_FIELDS) {
      for (const direction of ["asc", "desc"] as const) {
        const request = { itemNumber: item, type: "asset" as const, start: 0, rows: 50, sort: { field, direction } };
        const [through, direct] = await Promise.all([fusion.bom(request), engine.bom(request)]);
        expect(through.docs.map((d) => d.id), `${field} ${direction}`).toEqual(direct.docs.map((d) => d.id));
      }
    }
    const sorts = standIn.requests.map((r) => new URLSearchParams(r.params).get("sort"));
    expect(sorts).toContain("asset_description_s asc");
    expect(sorts).toContain("quantity_i desc");
  });

  it("answers a BOM's lines by the number heading it, on both profiles, as the catalogue does", async () => {
    const { item } = await busyItem();
    const uses = await engine.bom({ itemNumber: item, start: 0, rows: 50 });
    const fusion = new FusionEngine(
      { url: standIn.url, app: "parts", queryProfile: "parts", bomProfile: "ge-appliances-boms", assetBomProfile: "asset-boms", timeoutMs: 5_000 },
      DEFAULT_SEARCH_CONFIG,
    );
    const heads = [...new Map(uses.docs.map((d) => [d.asset_number, d.type])).entries()];
    expect(heads.length).toBeGreaterThan(1);
    for (const [head, type] of heads) {
      for (const request of [{ assetNumber: head!, start: 0, rows: 50 }, { assetNumber: head!, type, start: 0, rows: 50 }]) {
        const [through, direct] = await Promise.all([fusion.bom(request), engine.bom(request)]);
        expect(through.total, `${head} ${request.type ?? "all"}`).toBe(direct.total);
        expect(through.docs.map((d) => d.id)).toEqual(direct.docs.map((d) => d.id));
        expect(direct.docs.map((d) => d.item_number)).toContain(item);
      }
    }
  });
});

describe("the BOM pages' calls against the stand-in", () => {
  const fusion = () =>
    new FusionEngine(
      { url: standIn.url, app: "parts", queryProfile: "parts", bomProfile: "ge-appliances-boms", assetBomProfile: "asset-boms", timeoutMs: 5_000 },
      DEFAULT_SEARCH_CONFIG,
    );

  it("answers an item's records of each type through the spec's calls (asset-boms with fq, the BOM profile with itemNumber), as the catalogue does", async () => {
    const { item } = await busyItem();
    const client = fusion();
    const before = standIn.requests.length;
    for (const type of ["asset", "pm", "other", undefined] as const) {
      const request = { itemNumber: item, ...(type ? { type } : {}), start: 0, rows: 50 };
      const [through, direct] = await Promise.all([client.bom(request), engine.bom(request)]);
      expect(through.total, type ?? "all").toBe(direct.total);
      expect(through.docs.map((d) => d.id).sort()).toEqual(direct.docs.map((d) => d.id).sort());
    }
    const sent = standIn.requests.slice(before).map((r) => ({ path: r.path, params: new URLSearchParams(r.params) }));
    const asset = sent.find((r) => r.path.endsWith("/query/asset-boms"))!;
    expect(asset.params.getAll("fq")).toEqual([`item_number_s:${solrPhrase(item)}`]);
    const others = sent.filter((r) => r.path.endsWith("/query/ge-appliances-boms"));
    expect(others.map((r) => r.params.get("itemNumber"))).toEqual([item, item, item]);
    expect(others.map((r) => r.params.get("type"))).toEqual(["pm", "other", null]);
  });

  it("finds a BOM's parts by item-number filters on the query profile, as the catalogue does", async () => {
    const { item } = await busyItem();
    const [use] = (await engine.bom({ itemNumber: item, start: 0, rows: 1 })).docs;
    const lines = (await engine.bom({ assetNumber: use!.asset_number!, start: 0, rows: 100 })).docs;
    const filters = lines.map((l) => ({ field: "item_number_s", value: l.item_number, type: "include" as const }));
    const request = { q: "", within: [], filters, sort: null, start: 0, rows: lines.length, facetFields: [], highlight: false };
    const [through, direct] = await Promise.all([fusion().search(request), engine.search(request)]);
    const numbers = (docs: Record<string, unknown>[]) => docs.map((d) => String(d.item_number_s)).sort();
    expect(numbers(through.docs)).toEqual(numbers(direct.docs));
    expect(numbers(direct.docs)).toEqual([...new Set(lines.map((l) => l.item_number))].sort());
  });
});

describe("access", () => {
  it("answers health on / and /api, and 404 for an unknown app or profile", async () => {
    for (const p of ["/", "/api"]) {
      const { status, body } = await get(standIn.url + p);
      expect(status).toBe(200);
      expect(body).toEqual({ status: "ok" });
    }
    for (const p of ["/api/apps/other/query/parts", "/api/apps/parts/query/nope", "/api/apps/parts/query/asset-boms/suggest"]) {
      const { status, body } = await get(`${standIn.url}${p}?q=*:*`);
      expect(status, p).toBe(404);
      expect(body).toEqual({ error: { msg: "Query profile not found", code: 404 } });
    }
  });

  it("checks the API key when one is set", async () => {
    const guarded = await startStandIn({ port: 0, catalogPath, apiKey: "s3cret" });
    try {
      const url = queryUrl([["q", "*:*"], ["rows", "1"]], "parts", guarded.url);
      for (const headers of [{}, { "x-api-key": "wrong" }] as Record<string, string>[]) {
        const { status, headers: h, body } = await get(url, { headers });
        expect(status).toBe(401);
        expect(h.get("www-authenticate")).toBe('Basic realm="fusion"');
        expect(body.error.code).toBe(401);
      }
      expect((await get(url, { headers: { "x-api-key": "s3cret" } })).status).toBe(200);
      expect((await get(`${guarded.url}/api`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("records requests with their parameters and headers", async () => {
    const before = Date.now();
    await get(queryUrl([["q", "pump"], ["fq", include("org_code_s", ["MON"])], ["fq", exclude("category_s", ['a "b"'])]]), { headers: { "X-Request-ID": "abc" } });
    expect(standIn.requests).toHaveLength(1);
    const [r] = standIn.requests;
    expect(r).toMatchObject({ method: "GET", path: "/api/apps/parts/query/parts" });
    expect(r!.params.filter(([k]) => k === "fq").map(([, v]) => v)).toEqual([include("org_code_s", ["MON"]), exclude("category_s", ['a "b"'])]);
    expect(r!.params).toContainEqual(["q", "pump"]);
    expect(r!.headers["x-request-id"]).toBe("abc");
    expect(r!.at).toBeGreaterThanOrEqual(before);
    const listed = await get(`${standIn.url}/__control/requests`);
    expect(listed.body).toEqual(JSON.parse(JSON.stringify(standIn.requests)));
    expect(listed.body).toHaveLength(1); // control calls are not recorded
    expect((await fetch(`${standIn.url}/__control/requests`, { method: "DELETE" })).status).toBe(200);
    expect(standIn.requests).toHaveLength(0);
  });
});

describe("faults", () => {
  const url = () => queryUrl([["q", "*:*"], ["rows", "1"]]);

  // The clock is a fake one: the answer must wait for exactly the fault's time on the stand-in's
  // clock, which a wall-clock measurement could only bound.
  it("delays answers by the latency", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      standIn.setFault({ kind: "latency", ms: 400 });
      const answer = rawGet(url());
      await arrived(1);
      vi.advanceTimersByTime(399);
      await roundTrip();
      expect(answer.settled()).toBe(false);
      vi.advanceTimersByTime(1);
      await roundTrip();
      expect(answer.settled()).toBe(true);
      expect(await answer.done).toMatchObject({ status: 200, body: { response: { numFound: ITEMS } } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a fixed time after the request arrived, its own work included", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      standIn.setFault({ kind: "fixed", ms: 300 });
      // Reading the form body is the stand-in's own work: 200 ms of it pass before the request is whole.
      const answer = rawPost(url(), "q=pump&rows=");
      await roundTrip();
      vi.advanceTimersByTime(200);
      answer.finish("20");
      await arrived(1);
      vi.advanceTimersByTime(99);
      await roundTrip();
      expect(answer.settled()).toBe(false);
      vi.advanceTimersByTime(1);
      await roundTrip();
      expect(answer.settled()).toBe(true);
      expect(await answer.done).toMatchObject({ status: 200, body: { responseHeader: { status: 0 } } });
      expect(standIn.requests[0]!.params).toContainEqual(["rows", "20"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a set status with a small JSON body", async () => {
    standIn.setFault({ kind: "status", status: 503 });
    const unavailable = await get(url());
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toEqual({ error: { msg: "Service Unavailable", code: 503 } });
    standIn.setFault({ kind: "status", status: 401 });
    const unauthorized = await get(url());
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBe('Basic realm="fusion"');
    standIn.setFault({ kind: "status", status: 500, body: '{"oops":true}' });
    expect((await get(url())).text).toBe('{"oops":true}');
  });

  it("answers malformed JSON", async () => {
    standIn.setFault({ kind: "malformed" });
    const response = await fetch(url());
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it("resets the connection", async () => {
    standIn.setFault({ kind: "reset" });
    await expect(fetch(url())).rejects.toThrow();
    standIn.setFault({ kind: "none" });
    expect((await get(url())).status).toBe(200);
  });

  it("hangs until the client gives up", async () => {
    standIn.setFault({ kind: "hang" });
    const client = new AbortController();
    const hung = fetch(url(), { signal: client.signal });
    hung.catch(() => {}); // rejected on purpose below; awaited there
    let settled = false;
    void hung.then(
      () => (settled = true),
      () => (settled = true),
    );
    await arrived(1);
    await roundTrip();
    expect(settled).toBe(false);
    expect(standIn.held()).toEqual(standIn.requests);
    client.abort();
    await expect(hung).rejects.toThrow(/abort/i);
    // Held no more once its connection is closed.
    await vi.waitFor(() => expect(standIn.held()).toEqual([]), { timeout: 30_000, interval: 10 });
  });

  it("is steered over HTTP, and never faults / or /__control", async () => {
    const post = (body: unknown) => fetch(`${standIn.url}/__control/fault`, { method: "POST", body: JSON.stringify(body) });
    expect((await post({ kind: "status", status: 502 })).status).toBe(200);
    expect((await get(url())).status).toBe(502);
    expect((await get(`${standIn.url}/`)).status).toBe(200);
    expect((await get(`${standIn.url}/__control/fault`)).body).toEqual({ fault: { kind: "status", status: 502 } });
    expect((await post({ kind: "explode" })).status).toBe(400);
    expect((await post({ kind: "none" })).status).toBe(200);
    expect((await get(url())).status).toBe(200);
  });

  it("closes promptly while a request hangs", async () => {
    const other = await startStandIn({ port: 0, catalogPath });
    other.setFault({ kind: "hang" });
    const pending = fetch(`${other.url}/api/apps/parts/query/parts?q=*:*`).then(
      () => "answered",
      () => "failed",
    );
    await vi.waitFor(() => expect(other.held()).toHaveLength(1), { timeout: 30_000, interval: 10 });
    expect(other.requests).toHaveLength(1);
    // Were the hanging socket left open, close() would wait for it for ever and the test time out.
    await other.close();
    expect(await pending).toBe("failed");
  });
});
