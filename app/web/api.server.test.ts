import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { SearchError } from "~/search/errors";
import { apiData, handleApi } from "./api.server";
import { expectConsoleError } from "../../tests/support/console-guard";

const failing = (error: unknown) =>
  handleApi(
    new Request("http://localhost/api/search"),
    {},
    () => {
      throw error;
    },
    { public: true },
  );

describe("the API's error envelope", () => {
  it("says status 0 for a backend that never answered (spec §8), answered as 503", async () => {
    expectConsoleError('search unavailable: "Network error - please check your connection"');
    const response = await failing(new SearchError("Network error - please check your connection", "outage", 0));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { message: string; status: number } };
    expect(body.error).toMatchObject({ message: "Network error - please check your connection", status: 0 });
  });

  it("says the answer's own status for an outage that answered", async () => {
    expectConsoleError('search unavailable: "Catalogue is being rebuilt"');
    const response = await failing(new SearchError("Catalogue is being rebuilt", "outage", 502));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { status: number } }).error.status).toBe(502);
  });

  it("says 503 for a search platform that is not answering", async () => {
    expectConsoleError('search unavailable: "The search platform is not answering"');
    const response = await failing(new SearchError("The search platform is not answering", "outage"));
    expect(((await response.json()) as { error: { status: number } }).error.status).toBe(503);
  });
});

describe("the API's request id", () => {
  const idOf = async (headers: Record<string, string>, context: AppLoadContext) => {
    const response = await handleApi(new Request("http://localhost/api/health", { headers }), context, ({ requestId }) => apiData(null, requestId), { public: true });
    return response.headers.get("X-Request-ID");
  };

  it("is the one the server gave the request, in its load context, whatever the request's header says", async () => {
    expect(await idOf({ "X-Request-ID": "from-the-client" }, { requestId: "from-the-server" })).toBe("from-the-server");
  });

  it("is, for a request that did not come through the server, its own X-Request-ID when sane, else a new one", async () => {
    expect(await idOf({ "X-Request-ID": "from-the-client" }, {})).toBe("from-the-client");
    expect(await idOf({ "X-Request-ID": "not a sane id" }, {})).toMatch(/^[0-9a-f-]{36}$/);
  });
});
