/**
 * What the browser is sent: the production build's client bundle holds no server-only code (no
 * `*.server` module, no zod, SQLite, CSV or JWT library), which would cost every page its weight
 * and could leak what only the server may know. Read from the compiler's metafile of the build
 * this suite runs against.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVER_ONLY = /\.server\.tsx?$|\/node_modules\/(zod|better-sqlite3|papaparse|jose|remix-auth|remix-auth-oauth2)\//;

describe("the client bundle", () => {
  it("holds no server-only module", () => {
    const metafile = JSON.parse(fs.readFileSync(path.join(ROOT, "build/metafile.js.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));
    expect(outputs.length).toBeGreaterThan(0);
    const serverOnly = outputs.flatMap(([file, output]) => Object.keys(output.inputs).filter((input) => SERVER_ONLY.test(input)).map((input) => `${file}: ${input}`));
    expect(serverOnly).toEqual([]);
  });
});
