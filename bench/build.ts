/**
 * Builds the app for a benchmark into bench/out/<name>/, never into the app's own build.
 *
 * The Remix classic compiler reads remix.config.js, package.json and tsconfig.json (for the `~/`
 * paths) from the project root it is given, and the app's remix.config.js knows nothing of the
 * benchmarks. So each build gets a generated project root of its own, bench/out/<name>-root/,
 * whose config is the app's as bench/build-config.js extends it.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const OUT = path.resolve("bench/out");

/** Builds the app, with the empty document if asked, and answers with the server build's file. */
export function buildApp({ name = "build", emptyDocument = false }: { name?: string; emptyDocument?: boolean } = {}): string {
  const buildDir = path.join(OUT, name);
  const root = path.join(OUT, `${name}-root`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.symlinkSync(path.resolve("package.json"), path.join(root, "package.json"));
  // `extends` keeps the app's baseUrl relative to the app's tsconfig.json, where a copy or a
  // symlink would make it relative to the generated root. Relative: the compiler's reader of
  // `paths` (tsconfig-paths) joins an absolute `extends` onto the root.
  const tsconfig = path.relative(root, path.resolve("tsconfig.json"));
  fs.writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ extends: tsconfig }));
  const config = pathToFileURL(path.resolve("bench/build-config.js")).href;
  fs.writeFileSync(
    path.join(root, "remix.config.js"),
    `import { benchBuildConfig } from ${JSON.stringify(config)};\nexport default benchBuildConfig(${JSON.stringify({ buildDir, emptyDocument })});\n`,
  );
  // From the root itself: the compiler takes some of esbuild's output paths as relative to it.
  const result = spawnSync("npx", ["remix", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("remix build failed");
  // As `npm run build` does: the scripts and stylesheet compressed beside themselves.
  const compressed = spawnSync(process.execPath, [path.resolve("scripts/precompress.mjs"), path.join(buildDir, "assets")], { stdio: ["ignore", "ignore", "inherit"] });
  if (compressed.status !== 0) throw new Error("scripts/precompress.mjs failed");
  return path.join(buildDir, "index.js");
}
