import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * A file path in a fresh temporary folder for each call (`name` inside it), every folder removed
 * after each test of the file that calls this at its top level.
 */
export function useTempFiles(prefix: string, name: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return path.join(dir, name);
  };
}
