#!/usr/bin/env node
// The Glewlwyd suite (tests/glewlwyd) runs Debian's glewlwyd package. Install it when missing and
// possible (root or sudo, apt reachable); when not, say why and go on: the suite then skips itself.
import { spawnSync } from "node:child_process";
import { aptInstall, canInstall } from "./apt-install.mjs";

const found = () => spawnSync("sh", ["-c", "command -v glewlwyd"], { stdio: "ignore" }).status === 0;
if (found()) process.exit(0);

console.log("glewlwyd missing: installing Debian's package (apt-get install -y glewlwyd)…");
if (!canInstall()) {
  console.log("Not root and no sudo without a password: the Glewlwyd tests will be skipped. Install by hand: apt-get install -y glewlwyd");
  process.exit(0);
}
aptInstall(["glewlwyd"]);
console.log(found() ? "glewlwyd installed." : "Could not install glewlwyd: the Glewlwyd tests will be skipped. Install by hand: apt-get install -y glewlwyd");
