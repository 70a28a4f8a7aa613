#!/usr/bin/env node
// The last step of `npm run build` (docs/decisions/049): each script and stylesheet of the browser
// build is written compressed beside itself, once, as the server then sends it. `name.br` is Brotli
// at its best quality, for browsers that accept it (over HTTPS); `name.gz` is gzip made by Zopfli,
// which any gzip reader decodes, for the rest. `remix build` empties the folder first, so every
// build compresses all of them (about 10 s on 2 cores).
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
// The browser build's folder: the app's, or the one named (a benchmark's build, bench/build.ts).
const assets = path.resolve(process.argv[2] ?? path.join(root, "public", "build"));
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(js|css)$/;
// Zopfli's default is 15; 5 keeps nearly all of its gain over gzip -9 at a third of the time.
const ITERATIONS = Number(process.env.ZOPFLI_ITERATIONS ?? 5);

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}


let written = 0;
for (const file of files(assets)) {
  const body = fs.readFileSync(file);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { numiterations: ITERATIONS }),
  ]);
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  written++;
}
console.log(`Precompressed ${written} of the browser build's scripts and stylesheets (Brotli and Zopfli gzip).`);
