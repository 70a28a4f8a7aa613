// Installing a Debian package a test suite needs, for the ensure-* scripts: as root, or with sudo
// when it asks for no password.
import { spawnSync } from "node:child_process";

/** Whether this process may install packages: root, or sudo without a password. */
export function canInstall() {
  return process.getuid?.() === 0 || spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
}

/** `apt-get install -y` the packages, updating the lists first when the install fails; true when it worked. */
export function aptInstall(packages) {
  const root = process.getuid?.() === 0;
  const run = (args) => spawnSync(root ? args[0] : "sudo", root ? args.slice(1) : args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (run(["apt-get", "install", "-y", ...packages]).status === 0) return true;
  return run(["apt-get", "update"]).status === 0 && run(["apt-get", "install", "-y", ...packages]).status === 0;
}
