#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than its sources, then serves it
// on PORT (default 3000), one worker per core (scripts/serve.mjs).
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setInterval } from "node:timers";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const serverBuild = path.join(root, "build", "index.js");

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const built = fs.statSync(serverBuild, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = Math.max(
  ...["app", "public/favicon.svg", "remix.config.js", "package-lock.json"].map((p) => newestMtime(path.join(root, p))),
);
if (built < sources) {
  console.log(built ? "Sources changed since the last build: building…" : "No build yet: building…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const env = { NODE_ENV: "production", ...process.env };
const server = spawn(process.execPath, [path.join(root, "scripts/serve.mjs"), serverBuild], {
  cwd: root,
  stdio: "inherit",
  env,
});
// A stop is relayed once: a signal sent to the whole process group (systemd, `kill -- -PGID`, a
// supervisor) reaches the server itself too, and the server takes every repeat as the same stop.
let relayed = false;
const relay = (signal) => {
  if (relayed) return;
  relayed = true;
  server.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => relay(signal));
// Under `npm start` the shell between npm and this script dies of a SIGTERM sent to npm alone and
// leaves this process to init: a parent that goes away is a stop, so the server never serves on unmanaged.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) relay("SIGTERM");
}, 500).unref();
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
