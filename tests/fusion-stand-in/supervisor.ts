/**
 * Runs the Fusion stand-in (main.ts) as a child process that other processes can really kill and
 * start again, for tests of what the portal does when the search platform's process dies:
 *
 *   npx tsx tests/fusion-stand-in/supervisor.ts --port 8764 --control-port 8765 [main.ts options]
 *
 * Every option except --control-port goes to main.ts unchanged; --port (default 8764, not 0: a
 * restart must come back on the same port) and --host (127.0.0.1) are also read here to see when
 * the stand-in answers. The control API listens on 127.0.0.1:<control-port>:
 *
 *   POST /kill    SIGKILL the stand-in; answers {running: false} once it exited and its port refuses
 *                 connections (also when it was not running)
 *   POST /start   start it again with the same options; answers {running: true, pid} once `GET /api`
 *                 answers (at once when it is running), 500 when it does not within 60 s
 *   GET /status   {running, pid}
 *
 * The child is node itself with tsx's loader (no npx or shell in between), so SIGKILL ends the
 * stand-in and nothing else. It stays in the supervisor's process group, so whoever kills that group
 * (Playwright stops its web servers that way) ends the stand-in too. SIGINT or SIGTERM kill the
 * stand-in and end the supervisor.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
/** The first start may build the sample catalogue; a restart finds it built. */
const FIRST_READY_TIMEOUT_MS = 180_000;
const READY_TIMEOUT_MS = 60_000;
const POLL_MS = 100;
const LOG = "Fusion stand-in supervisor:";

const USAGE =
  "Usage: tsx tests/fusion-stand-in/supervisor.ts --port <port> --control-port <port> [other tests/fusion-stand-in/main.ts options]";

/** Takes --control-port out of the arguments; everything else is the stand-in's. */
function splitArgs(argv: string[]): { controlPort: string | undefined; standInArgs: string[] } {
  let controlPort: string | undefined;
  const standInArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--control-port") controlPort = argv[++i];
    else if (arg.startsWith("--control-port=")) controlPort = arg.slice("--control-port=".length);
    else standInArgs.push(arg);
  }
  return { controlPort, standInArgs };
}

function port(name: string, raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    console.error(`--${name} must be a port number from 1 to 65535, got ${raw === undefined ? "nothing" : `"${raw}"`}\n${USAGE}`);
    process.exit(2);
  }
  return Number(raw);
}

const { controlPort: rawControlPort, standInArgs } = splitArgs(process.argv.slice(2));
if (standInArgs.includes("--help") || standInArgs.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
// Only --port and --host matter here; main.ts checks the rest (strict: false keeps its options).
const { values } = parseArgs({
  args: standInArgs,
  options: { port: { type: "string", default: "8764" }, host: { type: "string", default: "127.0.0.1" } },
  strict: false,
  allowPositionals: true,
});
const standInPort = port("port", typeof values.port === "string" ? values.port : undefined);
const standInHost = typeof values.host === "string" ? values.host : "127.0.0.1";
const controlPort = port("control-port", rawControlPort);
const standInUrl = `http://${standInHost.includes(":") ? `[${standInHost}]` : standInHost}:${standInPort}`;
// tsx's loader registered in the child node: `node --import <tsx> main.ts`.
const childArgs = ["--import", import.meta.resolve("tsx"), MAIN, ...standInArgs];

let child: ChildProcess | undefined;
/** Children this supervisor killed itself, so their end is no news. */
const killing = new WeakSet<ChildProcess>();
let stopping = false;

const ended = (c: ChildProcess): boolean => c.exitCode !== null || c.signalCode !== null;
const alive = (c: ChildProcess | undefined): c is ChildProcess => c !== undefined && !ended(c);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether something accepts connections on the stand-in's port. */
function portOpen(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: standInPort, host: standInHost });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function answers(): Promise<boolean> {
  try {
    const response = await fetch(`${standInUrl}/api`, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** SIGKILL, resolved once the child has exited. */
function killChild(c: ChildProcess): Promise<void> {
  if (!alive(c)) return Promise.resolve();
  killing.add(c);
  const exited = new Promise<void>((resolve) => c.once("exit", () => resolve()));
  c.kill("SIGKILL");
  return exited;
}

async function kill(): Promise<void> {
  const c = child;
  if (alive(c)) {
    await killChild(c);
    console.log(`${LOG} killed the stand-in (pid ${c.pid}, SIGKILL)`);
  } else {
    console.log(`${LOG} kill: the stand-in is not running`);
  }
  // The kernel closes a dead process's sockets at once; wait for it all the same.
  while (await portOpen()) await sleep(POLL_MS);
}

async function start(timeoutMs: number): Promise<void> {
  if (alive(child)) {
    console.log(`${LOG} start: the stand-in is running (pid ${child.pid})`);
    return;
  }
  // Something else on the port would answer the readiness check in the new stand-in's place.
  if (await portOpen()) throw new Error(`port ${standInPort} is already in use by another process`);
  const started = Date.now();
  const c = spawn(process.execPath, childArgs, { stdio: "inherit" });
  child = c;
  // Not asked for, so on stderr: whoever runs the tests sees why Fusion went away.
  c.once("exit", (code, signal) => {
    if (!stopping && !killing.has(c)) console.error(`${LOG} the stand-in (pid ${c.pid}) ended by itself (${signal ?? `exit code ${code}`})`);
  });
  while (Date.now() - started < timeoutMs) {
    if (ended(c)) throw new Error(`the stand-in ended (${c.signalCode ?? `exit code ${c.exitCode}`}) before it answered on ${standInUrl}/api`);
    if (await answers()) {
      console.log(`${LOG} started the stand-in (pid ${c.pid}) on ${standInUrl}, answering after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
    await sleep(POLL_MS);
  }
  // Running but not answering is no state to leave it in: the next start begins afresh.
  await killChild(c);
  throw new Error(`the stand-in did not answer on ${standInUrl}/api within ${timeoutMs / 1000} s; killed it`);
}

/** Kill and start one at a time, in the order they were asked for. */
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(action: () => Promise<T>): Promise<T> {
  const result = queue.then(action);
  queue = result.catch(() => undefined);
  return result;
}

const status = () => (alive(child) ? { running: true, pid: child.pid ?? null } : { running: false, pid: null });

function send(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://control.invalid").pathname;
  req.resume();
  const routes: Record<string, { method: string; run: () => Promise<unknown> }> = {
    "/kill": { method: "POST", run: () => serialized(kill).then(() => ({ running: false })) },
    "/start": { method: "POST", run: () => serialized(() => start(READY_TIMEOUT_MS)).then(status) },
    "/status": { method: "GET", run: async () => status() },
  };
  const route = routes[path];
  if (!route) return send(res, 404, { error: "Unknown endpoint: POST /kill, POST /start, GET /status" });
  if (req.method !== route.method) return send(res, 405, { error: `${path} takes ${route.method}` });
  try {
    send(res, 200, await route.run());
  } catch (error) {
    send(res, 500, { ...status(), error: error instanceof Error ? error.message : String(error) });
  }
}

const control = http.createServer((req, res) => void handle(req, res));
await new Promise<void>((resolve, reject) => {
  control.once("error", reject);
  control.listen(controlPort, "127.0.0.1", () => {
    control.off("error", reject);
    resolve();
  });
});
console.log(`${LOG} control API on http://127.0.0.1:${controlPort} for the stand-in on ${standInUrl}`);

async function stop(signal: string, code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${LOG} ${signal}, killing the stand-in and stopping`);
  if (child) await killChild(child);
  control.close();
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(signal));
// Whatever ends this process, the stand-in does not outlive it (kill is synchronous).
process.on("exit", () => {
  if (alive(child)) child.kill("SIGKILL");
});

try {
  await serialized(() => start(FIRST_READY_TIMEOUT_MS));
} catch (error) {
  console.error(`${LOG} ${error instanceof Error ? error.message : String(error)}`);
  await stop("first start failed", 1);
}
