import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
const dir = "/tmp/sigprof/prof";
fs.rmSync(path.join(dir, "portal"), { recursive: true, force: true });
fs.mkdirSync(path.join(dir, "portal"), { recursive: true });
fs.copyFileSync("bench/out/catalog-5000.db", path.join(dir, "portal/catalog.db"));
const port = 3977;
const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "scripts/server.mjs", "bench/out/build-signals/index.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "0", CATALOG_DB: path.join(dir, "portal/catalog.db"), SIGNALS_ENABLED: process.env.ON ?? "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
const url = `http://127.0.0.1:${port}`;
for (;;) { try { if ((await fetch(`${url}/api/ready`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const cookies: string[] = [];
for (let i = 0; i < 500; i++) { const r = await fetch(`${url}/api/health`); await r.arrayBuffer(); const c = r.headers.getSetCookie().find((c) => c.startsWith("crib-sid=")); if (c) cookies.push(c.split(";")[0]!); }
let next = 0;
const res = await autocannon({ url: `${url}/crib-search/search?q=pump&f=org_code:LOU`, connections: 4, duration: 15, requests: [{ setupRequest: (q) => ({ ...q, headers: { ...q.headers, ...(cookies.length ? { cookie: cookies[next++ % cookies.length]! } : {}) } }) }] });
console.log("req/s", res.requests.average);
child.kill("SIGINT");
await new Promise((r) => child.once("exit", r));
