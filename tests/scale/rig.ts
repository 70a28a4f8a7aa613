/**
 * Real parts for the scale suite and bench:replicas, started on 127.0.0.1 and stopped by pid:
 * PostgreSQL from Debian (run as the `postgres` user when we are root, since it refuses root),
 * HAProxy from Debian in front of the replicas, and replicas of the production server
 * (scripts/server.mjs) with data directories of their own.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPool, migrate, type Migration } from "../../app/lib/postgres.server";
import { freePort } from "../processes";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const asRoot = process.getuid?.() === 0;
/** Where PostgreSQL's programs are: on the PATH, else Debian's newest /usr/lib/postgresql/<version>/bin. */
function pgProgram(name: string): string {
  if (spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0) return name;
  const versions = fs.existsSync("/usr/lib/postgresql") ? fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => fs.existsSync(path.join(d, name)));
  if (!dir) throw new Error(`${name} not found: apt-get install -y postgresql (npm run test:scale does it)`);
  return path.join(dir, name);
}
/** A PostgreSQL program as the `postgres` user when we are root (PostgreSQL refuses root). */
const pgCommand = ([name, ...args]: string[]): [string, string[]] =>
  asRoot ? ["runuser", ["-u", "postgres", "--", pgProgram(name!), ...args]] : [pgProgram(name!), args];
const haproxy = () => (spawnSync("sh", ["-c", "command -v haproxy"], { stdio: "ignore" }).status === 0 ? "haproxy" : "/usr/sbin/haproxy");

export interface Postgres {
  url(database?: string): string;
  /** Stops the server as an operator would (`pg_ctl stop -m fast`), keeping its data. */
  halt(): void;
  /** Starts it again on the same port with the same data. */
  resume(): void;
  stop(): void;
}

/** A PostgreSQL cluster of its own in a temporary directory, on a free port. */
export async function startPostgres(): Promise<Postgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-pg-"));
  if (asRoot) spawnSync("chown", ["postgres:postgres", dir]);
  const port = await freePort();
  const run = (args: string[]) => {
    const [command, rest] = pgCommand(args);
    const result = spawnSync(command, rest, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  run(["initdb", "-A", "trust", "-U", "postgres", "-D", path.join(dir, "data")]);
  const start = () => run(["pg_ctl", "-D", path.join(dir, "data"), "-l", path.join(dir, "log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-w", "start"]);
  start();
  return {
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    halt: () => run(["pg_ctl", "-D", path.join(dir, "data"), "-m", "fast", "-w", "stop"]),
    resume: start,
    stop() {
      const [command, rest] = pgCommand(["pg_ctl", "-D", path.join(dir, "data"), "-m", "immediate", "stop"]);
      spawnSync(command, rest);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL of its own with the tables of `migrations` made, for a suite of the shared store's parts. */
export async function startMigratedPostgres(migrations: readonly Migration[]): Promise<Postgres> {
  const postgres = await startPostgres();
  const pool = createPool(postgres.url(), { max: 1 });
  try {
    await migrate(pool, migrations);
  } finally {
    await pool.end();
  }
  return postgres;
}

export interface Balancer {
  url: string;
  stop(): void;
}

/** HAProxy, round-robin over `servers`, health-checking /api/ready twice a second, adding X-Forwarded-For. */
export async function startHaproxy(servers: { name: string; port: number }[], port?: number): Promise<Balancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-haproxy-"));
  port ??= await freePort();
  const config = [
    "global",
    "  maxconn 1000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    // A request that found a replica going away (refused, or closed without an answer) goes to another.
    "  retries 3",
    "  option redispatch 1",
    "  retry-on conn-failure empty-response",
    "frontend web",
    `  bind 127.0.0.1:${port}`,
    "  default_backend portal",
    "backend portal",
    "  balance roundrobin",
    "  option forwardfor",
    "  option httpchk GET /api/ready",
    "  http-check expect status 200",
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check inter 500 fall 2 rise 1`),
  ].join("\n");
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), `${config}\n`);
  const child = spawn(haproxy(), ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await request(`${url}/api/ready`).catch(() => null))?.status === 200, 20_000, () => `HAProxy did not serve:\n${output}`);
  return {
    url,
    stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The balancer's configuration as shipped with compose.yaml. */
export const SHIPPED_HAPROXY_CFG = path.join(ROOT, "docs/deploy/haproxy.cfg");

/**
 * The shipped haproxy.cfg for servers on this machine: the bind becomes 127.0.0.1:`port`, each
 * address its server lines name (web-a:3000, web-b:3000, in order of first appearance) becomes
 * the matching one of `ports`, and Docker's resolvers go. Every other line is the shipped text.
 */
export function renderShippedHaproxy(text: string, ports: number[], port: number): string {
  const addresses: string[] = [];
  const lines = text.split("\n");
  for (const line of lines) {
    const address = /^\s*server\s+\S+\s+(\S+)/.exec(line)?.[1];
    if (address && !addresses.includes(address)) addresses.push(address);
  }
  if (addresses.length !== ports.length) throw new Error(`the shipped haproxy.cfg names ${addresses.length} servers (${addresses.join(", ")}), not ${ports.length}`);
  const binds = lines.filter((line) => /^\s*bind\s/.test(line));
  if (binds.length !== 1) throw new Error(`the shipped haproxy.cfg has ${binds.length} bind lines, not 1`);
  const out: string[] = [];
  let inResolvers = false;
  for (const line of lines) {
    // A section starts at column 0; `resolvers docker` lasts until the next one.
    if (/^\S/.test(line) && !line.startsWith("#")) inResolvers = /^resolvers\s/.test(line);
    if (inResolvers) continue;
    let rendered = line.replace(/^(\s*bind\s+)\S+/, `$1127.0.0.1:${port}`);
    if (/^\s*(default-)?server\s/.test(rendered)) rendered = rendered.replace(/\s+resolvers\s+\S+/, "");
    const server = /^(\s*server\s+\S+\s+)(\S+)/.exec(rendered);
    if (server) rendered = `${server[1]}127.0.0.1:${ports[addresses.indexOf(server[2]!)]}${rendered.slice(server[0].length)}`;
    out.push(rendered);
  }
  return out.join("\n");
}

/**
 * HAProxy with the shipped configuration (renderShippedHaproxy) in front of servers on `ports`,
 * in the order the shipped file names them. Its log (stdout) and messages (stderr) are kept.
 */
export async function startShippedHaproxy(ports: number[], port?: number): Promise<Balancer & { config: string; output(): string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-haproxy-"));
  port ??= await freePort();
  const config = renderShippedHaproxy(fs.readFileSync(SHIPPED_HAPROXY_CFG, "utf8"), ports, port);
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), config);
  const child = spawn(haproxy(), ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`HAProxy exited with ${child.exitCode}:\n${output}`);
      return (await request(`${url}/api/ready`).catch(() => null))?.status === 200;
    },
    20_000,
    () => `HAProxy did not serve:\n${output}`,
  );
  return {
    url,
    config,
    output: () => output,
    stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Replica {
  name: string;
  /** Its data directory (the catalogue, sessions.db, signals.db). */
  dir: string;
  port: number;
  url: string;
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** A replica: the production server on a free port, its data in a directory of its own. */
export async function startReplica(name: string, env: Record<string, string>, port?: number): Promise<Replica> {
  port ??= await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crib-replica-${name}-`));
  const child = spawn(process.execPath, ["scripts/server.mjs", "build/index.js"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      CATALOG_DB: path.join(dir, "catalog.db"),
      SAMPLE_ITEMS: "300",
      REPLICA_ID: name,
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`replica ${name} exited with ${child.exitCode}:\n${output}`);
      return (await request(`${url}/api/ready`).catch(() => null))?.status === 200;
    },
    120_000,
    () => `replica ${name} was not ready:\n${output}`,
  );
  return {
    name,
    dir,
    port,
    url,
    process: child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, ms: number, message: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the answer's headers came, in milliseconds after the request was sent. */
  ms: number;
}

/**
 * One HTTP request over a connection of its own, optionally from a given local address (127.0.0.2,
 * 127.0.0.3: other clients on one machine). No redirect is followed.
 */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress, agent: false }, (res) => {
      const ms = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms }));
      res.on("error", reject);
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 30_000} ms`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/**
 * A browser's cookies, as far as these tests need them: one jar for the host 127.0.0.1 (cookies
 * ignore ports, so the portal's and the identity provider's share it, as in a browser).
 */
let browsers = 0;

export class Browser {
  readonly cookies = new Map<string, string>();

  /** Each browser from an address of its own (127.0.1.N) unless given one: separate clients to the rate limits. */
  constructor(readonly localAddress = `127.0.1.${++browsers % 250}`) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async fetch(url: string, options: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.Cookie = this.cookieHeader;
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
    if (body) headers["Content-Type"] = "application/x-www-form-urlencoded";
    const answer = await request(url, { method: options.method ?? (body ? "POST" : "GET"), headers, ...(body ? { body } : {}), ...(this.localAddress ? { localAddress: this.localAddress } : {}) });
    for (const line of answer.headers["set-cookie"] ?? []) {
      const [pair, ...attributes] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (gone || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  /** Follows redirects from `url` (GET) and returns the last answer with its address; `until` stops at an address it likes. */
  async follow(url: string, options: { method?: string; form?: Record<string, string>; until?: (url: string) => boolean } = {}): Promise<Answer & { url: string }> {
    let answer = await this.fetch(url, options);
    let at = url;
    for (let hops = 0; answer.status >= 300 && answer.status < 400 && answer.headers.location && !options.until?.(at); hops++) {
      if (hops > 20) throw new Error(`too many redirects from ${url}`);
      at = new URL(answer.headers.location, at).toString();
      answer = await this.fetch(at);
    }
    return { ...answer, url: at };
  }

  /**
   * Signs in at the test identity provider's forms, from `start` (a portal page), and returns the
   * page it comes back to; with `untilCallback`, the portal's answer to the callback (replicas that
   * share no sessions would send the browser round again).
   */
  async signIn(start: string, login = "pat", options: { untilCallback?: boolean } = {}): Promise<Answer & { url: string }> {
    const until = options.untilCallback ? (url: string) => new URL(url).pathname === "/callback" : undefined;
    let page = await this.follow(start, { until });
    for (let step = 0; step < 4 && /\/interaction\//.test(page.url); step++) {
      const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
      if (!action) throw new Error(`no form at ${page.url}:\n${page.body.slice(0, 500)}`);
      const form: Record<string, string> = /name="login"/.test(page.body) ? { login, password: "any" } : {};
      for (const [, name, value] of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form[name!] = value!;
      page = await this.follow(new URL(action, page.url).toString(), { method: "POST", form, until });
    }
    return page;
  }
}
