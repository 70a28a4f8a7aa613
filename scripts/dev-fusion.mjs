#!/usr/bin/env node
// `npm run dev:fusion`: the portal against a local Fusion stand-in. Starts the stand-in
// (tests/fusion-stand-in/main.ts, port 8764, sample catalogue in .cache/fusion/catalog.db), waits
// until it answers, then starts the portal (scripts/start.mjs) with FUSION_URL / FUSION_APP
// pointing at it. Ctrl-C (or the portal ending) stops both.
//
// Stopping the stand-in (`kill <pid>`, the pid is printed) leaves the portal running: it answers
// from its embedded catalogue with the backup notice, as it would with Fusion down. Enter starts
// the stand-in again, and the portal goes back to it by itself once its breaker's cool-down ends.
//
// Environment: DEV_FUSION_PORT (8764), DEV_FUSION_CATALOG (.cache/fusion/catalog.db),
// DEV_FUSION_ITEMS (sample size when the catalogue is missing, 5000), DEV_FUSION_PORTAL (script run
// instead of scripts/start.mjs, e.g. for a smoke test of this script).
/* global fetch, AbortSignal */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const port = process.env.DEV_FUSION_PORT ?? "8764";
const catalog = process.env.DEV_FUSION_CATALOG ?? ".cache/fusion/catalog.db";
const items = process.env.DEV_FUSION_ITEMS ?? "5000";
const fusionUrl = `http://127.0.0.1:${port}`;
const READY_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 5_000;

// tsx's CLI run by this node directly: no npx/sh in between that would swallow signals.
const tsxCli = path.join(root, "node_modules/tsx/dist/cli.mjs");
const standInArgs = ["tests/fusion-stand-in/main.ts", "--port", port, "--catalog", catalog, "--items", items];
/** @type {import("node:child_process").ChildProcess} */
let standIn;
/** @type {import("node:child_process").ChildProcess | undefined} */
let portal;
let stopping = false;
let exitCode = 0;

const running = (child) => child && child.exitCode === null && child.signalCode === null;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of [portal, standIn]) if (running(child)) child.kill("SIGTERM");
  // Whatever ignores SIGTERM gets SIGKILL after a grace period.
  setTimeout(() => {
    for (const child of [portal, standIn]) if (running(child)) child.kill("SIGKILL");
  }, STOP_GRACE_MS).unref();
  maybeExit();
}

function maybeExit() {
  if (stopping && !running(portal) && !running(standIn)) process.exit(exitCode);
}

function startStandIn() {
  standIn = fs.existsSync(tsxCli)
    ? spawn(process.execPath, [tsxCli, ...standInArgs], { cwd: root, stdio: ["ignore", "inherit", "inherit"] })
    : spawn("npx", ["tsx", ...standInArgs], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  standIn.on("exit", (code, signal) => {
    const how = signal ?? `exit code ${code}`;
    if (stopping) {
      maybeExit();
    } else if (!portal) {
      console.error(`dev:fusion: the Fusion stand-in stopped (${how}) before it was ready.`);
      stopAll(code || 1);
    } else {
      console.error(
        `dev:fusion: the Fusion stand-in stopped (${how}). The portal goes on, answering from its embedded catalogue; press Enter to start the stand-in again.`,
      );
    }
  });
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));

// Enter starts a stopped stand-in again.
process.stdin.on("data", async () => {
  if (stopping || !portal || running(standIn)) return;
  console.log(`dev:fusion: starting the Fusion stand-in again on ${fusionUrl}`);
  startStandIn();
  if (await waitForStandIn()) console.log(`dev:fusion: Fusion stand-in (pid ${standIn.pid}) ready on ${fusionUrl}`);
});
process.stdin.on("error", () => {});

startStandIn();

async function waitForStandIn() {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      const response = await fetch(`${fusionUrl}/`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // Not listening yet (building the sample catalogue takes a few seconds the first time).
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

if (!(await waitForStandIn())) {
  if (!stopping) {
    console.error(`dev:fusion: the Fusion stand-in did not answer on ${fusionUrl} within ${READY_TIMEOUT_MS / 1000} s.`);
    stopAll(1);
  }
} else {
  const portalScript = process.env.DEV_FUSION_PORTAL ? path.resolve(process.env.DEV_FUSION_PORTAL) : path.join(root, "scripts/start.mjs");
  console.log(`dev:fusion: Fusion stand-in (pid ${standIn.pid}) ready on ${fusionUrl}; starting the portal with FUSION_URL=${fusionUrl} FUSION_APP=parts`);
  portal = spawn(process.execPath, [portalScript], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, FUSION_URL: fusionUrl, FUSION_APP: "parts" },
  });
  portal.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`dev:fusion: the portal stopped (${signal ?? `exit code ${code}`}); stopping the Fusion stand-in.`);
      stopAll(code ?? 1);
    }
    maybeExit();
  });
}
