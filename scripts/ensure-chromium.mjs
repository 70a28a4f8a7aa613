#!/usr/bin/env node
// Browser tests run in Debian's Chromium. Install it when it is missing (needs root, as on CI).
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
if (fs.existsSync(CHROMIUM)) process.exit(0);

console.log(`${CHROMIUM} is missing: installing Debian's chromium package (apt-get install -y chromium)…`);
const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
const run = (args) => spawnSync(sudo.length ? "sudo" : args[0], sudo.length ? args : args.slice(1), { stdio: "inherit" });
let result = run(["apt-get", "update"]);
if (result.status === 0) {
  result = spawnSync(sudo.length ? "sudo" : "apt-get", [...(sudo.length ? ["apt-get"] : []), "install", "-y", "chromium"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}
if (result.status !== 0 || !fs.existsSync(CHROMIUM)) {
  console.error("Could not install chromium. Install it by hand: apt-get install -y chromium");
  process.exit(1);
}
console.log("chromium installed.");
