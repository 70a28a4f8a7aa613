#!/usr/bin/env node
// The Firefox suite (tests/firefox) runs Debian's Firefox ESR. Install it when missing and possible
// (root or sudo, apt reachable); when not, say why and go on: the suite then skips itself.
import fs from "node:fs";
import { aptInstall, canInstall } from "./apt-install.mjs";

const FIREFOX = "/usr/bin/firefox-esr";
if (fs.existsSync(FIREFOX)) process.exit(0);

console.log(`${FIREFOX} is missing: installing Debian's firefox-esr package (apt-get install -y firefox-esr)…`);
if (!canInstall()) {
  console.log("Not root and no sudo without a password: the Firefox tests will be skipped. Install by hand: apt-get install -y firefox-esr");
  process.exit(0);
}
aptInstall(["firefox-esr"]);
console.log(fs.existsSync(FIREFOX) ? "firefox-esr installed." : "Could not install firefox-esr: the Firefox tests will be skipped. Install by hand: apt-get install -y firefox-esr");
