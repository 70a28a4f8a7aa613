#!/usr/bin/env node
// The scale suite runs Debian's PostgreSQL and HAProxy. Install them when missing (needs root, as on CI).
import { spawnSync } from "node:child_process";

const found = (script) => spawnSync("sh", ["-c", script], { stdio: "ignore" }).status === 0;
const missing = [];
// Debian keeps initdb under /usr/lib/postgresql/<version>/bin; tests/scale/rig.ts looks there too.
if (!found("command -v initdb || ls /usr/lib/postgresql/*/bin/initdb")) missing.push("postgresql");
if (!found("command -v haproxy || test -x /usr/sbin/haproxy")) missing.push("haproxy");
if (missing.length === 0) process.exit(0);

console.log(`${missing.join(" and ")} missing: installing Debian's packages (apt-get install -y ${missing.join(" ")})…`);
const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
const run = (args) =>
  spawnSync(sudo.length ? "sudo" : args[0], sudo.length ? args : args.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
let result = run(["apt-get", "update"]);
if (result.status === 0) result = run(["apt-get", "install", "-y", ...missing]);
if (result.status !== 0) {
  console.error(`Could not install ${missing.join(" and ")}. Install by hand: apt-get install -y ${missing.join(" ")}`);
  process.exit(1);
}
console.log(`${missing.join(" and ")} installed.`);
