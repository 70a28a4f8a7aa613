import { describe, expect, it } from "vitest";
import { SearchError } from "~/search/errors";
import { handleApi } from "./api.server";
import { expectConsoleError } from "../../tests/support/console-guard";

const failing = (error: unknown) =>
  handleApi(
    new Request("http://localhost/api/search"),
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
