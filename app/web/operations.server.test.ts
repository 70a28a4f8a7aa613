import { describe, expect, it } from "vitest";
import { capturedLog } from "~/lib/log.server";
import { registry, scrape } from "~/lib/metrics.server";
import { recordRequest, routeKindOf } from "./operations.server";
import { notReadyReasons, type ProbeState } from "./probes.server";

describe("route kinds", () => {
  it.each([
    ["/crib-search/search?q=pump", "search"],
    ["/crib-search", "home"],
    ["/product/MRO-1", "item"],
    ["/bom/MRO-1", "bom"],
    ["/where-used/MRO-1?back=%2F", "where-used"],
    ["/crib-search/export.csv?q=x", "export"],
    ["/product/MRO-1/export.csv", "export"],
    ["/api/search?q=x", "api"],
    ["/api/signals", "signals"],
    ["/API/READY", "probe"],
    ["/metrics", "metrics"],
    ["/LOGIN?start=1", "sign-in"],
    ["/build/_shared/chunk.js", "asset"],
    ["/wp-admin.php", "other"],
  ])("%s is %s", (url, kind) => {
    expect(routeKindOf(url)).toBe(kind);
  });
});

describe("recordRequest", () => {
  const record = { requestId: "r-1", traceId: "4bf92f3577b34da6a3ce929d0e0e4736", method: "get", url: "/crib-search/search?q=secret+words", status: 200, seconds: 0.0421, client: "10.0.4.11" };

  it("logs one line with what an operator asks of a request, and never the query's text", async () => {
    const { entries } = await capturedLog(() => recordRequest({ ...record, user: "u-7" }));
    expect(entries).toEqual([expect.objectContaining({ level: "info", msg: "request", requestId: "r-1", traceId: record.traceId, method: "GET", route: "search", path: "/crib-search/search", status: 200, ms: 42.1, client: "10.0.4.11", user: "u-7" })]);
    expect(JSON.stringify(entries)).not.toContain("secret");
  });

  it("logs a refusal with its reason, and counts it", async () => {
    const before = (await registry.getSingleMetric("crib_refusals_total")!.get()).values.find((v) => v.labels.reason === "signIns")?.value ?? 0;
    const { entries } = await capturedLog(() => recordRequest({ ...record, url: "/login?start=1", status: 429, refusal: "signIns" }));
    expect(entries[0]).toMatchObject({ level: "warn", msg: "request refused", refusal: "signIns", status: 429, route: "sign-in" });
    const after = (await registry.getSingleMetric("crib_refusals_total")!.get()).values.find((v) => v.labels.reason === "signIns")?.value;
    expect(after).toBe(before + 1);
  });

  it("logs a server error at error, and probes only at debug", async () => {
    const { entries } = await capturedLog(() => {
      recordRequest({ ...record, status: 500 });
      recordRequest({ ...record, url: "/api/ready", status: 200 });
    }, "info");
    expect(entries.map((e) => e.level)).toEqual(["error"]);
  });

  it("counts and times every request by route kind, method and status in the metrics", async () => {
    recordRequest({ ...record, url: "/product/MRO-1", status: 404 });
    const { text } = await scrape();
    expect(text).toMatch(/^crib_http_request_duration_seconds_count\{route="item",method="GET",status="404"\} [1-9]/m);
    for (const family of ["crib_fusion_request_duration_seconds", "crib_backup_answers_total", "crib_signals_outbox_backlog", "crib_store_errors_total", "crib_sessions_renewed_total", "crib_sessions_ended_total", "crib_catalogue_items", "process_cpu_seconds_total", "nodejs_eventloop_lag_seconds"]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
  });
});

describe("readiness", () => {
  const state = (over: Partial<ProbeState>): ProbeState => ({ replica: "a", at: 0, catalogue: null, shared: { ok: true, detail: "answering" }, platform: null, draining: false, prepared: true, signIn: false, ...over });

  it("with sign-in off, does not hang on the shared store: the pages are served without it", () => {
    expect(notReadyReasons(state({ shared: { ok: false, detail: "ECONNREFUSED" }, prepared: false }))).toEqual([]);
  });

  it("with sign-in on, needs the sessions' store, prepared and answering", () => {
    expect(notReadyReasons(state({ signIn: true, shared: { ok: false, detail: "ECONNREFUSED" } }))).toEqual(["shared store"]);
    expect(notReadyReasons(state({ signIn: true, prepared: false }))).toEqual(["starting"]);
    expect(notReadyReasons(state({ signIn: true }))).toEqual([]);
  });

  it("is never ready while stopping or without a catalogue", () => {
    expect(notReadyReasons(state({ draining: true }))).toEqual(["stopping"]);
    expect(notReadyReasons(state({ catalogue: { ok: false, detail: "ENOENT" } }))).toEqual(["catalogue"]);
  });
});
