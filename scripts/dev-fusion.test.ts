import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { alive, freePort } from "../tests/processes";

async function until(ok: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
};

let devFusion: ChildProcess | null = null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-fusion-"));
afterEach(() => {
  if (devFusion?.exitCode === null) devFusion.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

it("keeps the portal running when the stand-in stops, and starts the stand-in again on Enter", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  devFusion = spawn(process.execPath, ["scripts/dev-fusion.mjs"], {
    env: {
      ...process.env,
      DEV_FUSION_PORT: String(port),
      DEV_FUSION_CATALOG: path.join(dir, "catalog.db"),
      DEV_FUSION_ITEMS: "100",
      DEV_FUSION_PORTAL: "scripts/fixtures/fake-portal.mjs",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  devFusion.stdout?.on("data", (chunk: Buffer) => (out += chunk));
  devFusion.stderr?.on("data", (chunk: Buffer) => (out += chunk));

  await until(() => /fake portal (\d+) FUSION_URL=(\S+)/.test(out));
  const [, portalPid, fusionUrl] = /fake portal (\d+) FUSION_URL=(\S+)/.exec(out) ?? [];
  expect(fusionUrl).toBe(url);
  const standInPid = Number(/Fusion stand-in \(pid (\d+)\) ready/.exec(out)?.[1]);
  expect(await answers(`${url}/`)).toBe(true);

  process.kill(standInPid, "SIGTERM");
  await until(() => out.includes("The portal goes on"));
  expect(await answers(`${url}/`)).toBe(false);
  expect(alive(Number(portalPid))).toBe(true);
  expect(devFusion.exitCode).toBeNull();

  devFusion.stdin?.write("\n");
  await until(() => answers(`${url}/`));
  await until(() => (out.match(/Fusion stand-in \(pid \d+\) ready/g) ?? []).length === 2);

  const exited = new Promise<number | null>((resolve) => devFusion?.once("exit", (code) => resolve(code)));
  devFusion.kill("SIGTERM");
  expect(await exited).toBe(0);
  await until(() => !alive(Number(portalPid)), 10_000);
  expect(await answers(`${url}/`)).toBe(false);
}, 120_000);
