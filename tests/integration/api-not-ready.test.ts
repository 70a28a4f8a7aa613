import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { expectConsoleError } from "../support/console-guard";
import { useTemporaryCatalog } from "./setup-catalog";

// A catalogue file that is not a catalogue: the server must say it is not ready, not crash.
const { dir, file } = useTemporaryCatalog();
fs.writeFileSync(file, "not a database");

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("when the catalogue cannot be opened", () => {
  it("/api/ready answers 503 and searches answer 503 with the error envelope", async () => {
    // The log says why, with the file's path, where the answer does not.
    expectConsoleError(/not ready: Catalogue .* cannot be read: file is not a database/);
    expectConsoleError('search unavailable: "The catalogue is not available yet"');
    const { loader: ready } = await import("~/routes/api.ready");
    const response = await ready({ request: new Request("http://localhost/api/ready"), params: {}, context: {} });
    expect(response.status).toBe(503);
    const error = (await response.json()).error;
    // It says why, without the file's path.
    expect(error).toMatchObject({ status: 503, message: "The catalogue is not ready: its file cannot be read as a catalogue; import the catalogue again" });
    expect(error.message).not.toContain(dir);

    const { loader: search } = await import("~/routes/api.search");
    const answer = await search({ request: new Request("http://localhost/api/search"), params: {}, context: {} });
    expect(answer.status).toBe(503);
    const body = await answer.json();
    expect(body.error).toMatchObject({ status: 503 });
    expect(body.error.message).not.toMatch(/sqlite|database|disk|malformed/i);
    expect(body.error.message).not.toContain(dir);
  });
});
