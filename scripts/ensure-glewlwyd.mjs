#!/usr/bin/env node
// The Glewlwyd suite (tests/glewlwyd) runs Debian's glewlwyd package. Install it when missing and
// possible (root or sudo, apt reachable); when not, say why and go on: the suite then skips itself.
import { spawnSync } from "node:child_process";

const found = () => spawnSync("sh", ["-c", "command -v glewlwyd"], { stdio: "ignore" }).status === 0;
if (found()) process.exit(0);

console.log("glewlwyd missing: installing Debian's package (apt-get install -y glewlwyd)…");
const root = process.getuid?.() === 0;
const canSudo = !root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
if (!root && !canSudo) {
  console.log("Not root and no sudo without a password: the Glewlwyd tests will be skipped. Install by hand: apt-get install -y glewlwyd");
  process.exit(0);
}
const run = (args) => spawnSync(root ? args[0] : "sudo", root ? args.slice(1) : args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
let result = run(["apt-get", "install", "-y", "glewlwyd"]);
if (result.status !== 0) {
  result = run(["apt-get", "update"]);
  if (result.status === 0) result = run(["apt-get", "install", "-y", "glewlwyd"]);
}
console.log(found() ? "glewlwyd installed." : "Could not install glewlwyd: the Glewlwyd tests will be skipped. Install by hand: apt-get install -y glewlwyd");
