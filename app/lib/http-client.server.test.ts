import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("httpClientReport", () => {
  it("says Node's own fetch is in use when nothing replaced it", async () => {
    const { httpClientReport } = await import("./http-client.server");
    expect(await httpClientReport()).toEqual({ nodeFetch: true, undici: process.versions.undici });
  });

  it("says so when another fetch was installed over Node's (Remix's web-fetch, as Remix's globals installer puts it)", async () => {
    const { fetch: webFetch } = await import("@remix-run/web-fetch");
    vi.stubGlobal("fetch", webFetch);
    const { httpClientReport } = await import("./http-client.server");
    expect((await httpClientReport()).nodeFetch).toBe(false);
  });
});
