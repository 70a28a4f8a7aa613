/**
 * Glewlwyd (Debian's package, 2.7.5) as a real OpenID provider for the portal's tests, set up from
 * the files beside this one: glewlwyd.conf (the server), oidc-plugin.json (the OpenID Connect
 * plugin: RS256 keys made here, PKCE, refresh tokens that rotate, end-session, back-channel logout,
 * revocation, names and emails on demand), client.json (the portal) and user.json (a person).
 *
 * The Debian package starts nothing without systemd, and its login web app's symlinks point where
 * Glewlwyd's static server cannot follow: the rig copies the app with the links resolved and runs
 * the server in a process group of its own on 127.0.0.1, with the database, the keys and the log in
 * a folder of its own.
 */
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BINARY = "glewlwyd";
const SCHEMA = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz";
const WEBAPP = "/usr/share/glewlwyd/webapp";
const WEBAPP_CONFIG = "/etc/glewlwyd/config-2.7.json/config.json";
export const CHROMIUM = "/usr/bin/chromium";

export const USER = JSON.parse(fs.readFileSync(path.join(HERE, "user.json"), "utf8")) as { username: string; password: string; name: string; email: string };

/** Why Glewlwyd cannot run here, or null when it can. */
export function unavailable(): string | null {
  if (spawnSync("sh", ["-c", `command -v ${BINARY}`], { stdio: "ignore" }).status !== 0) return "Glewlwyd is not installed (apt-get install -y glewlwyd)";
  for (const file of [SCHEMA, WEBAPP, WEBAPP_CONFIG]) if (!fs.existsSync(file)) return `Glewlwyd's package lacks ${file}`;
  if (!fs.existsSync(CHROMIUM)) return `Debian's Chromium is not installed (${CHROMIUM})`;
  return null;
}

export interface Glewlwyd {
  url: string;
  /** `OIDC_ISSUER` for the portal. */
  issuer: string;
  /** A call to the admin API, signed in as the package's administrator. */
  admin(method: string, apiPath: string, body?: unknown): Promise<Response>;
  /** The OpenID Connect plugin's parameters changed (then reset, as the admin app does). */
  configure(changes: Record<string, unknown>): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

function fill(file: string, values: Record<string, string>): string {
  let text = fs.readFileSync(path.join(HERE, file), "utf8");
  // JSON files get their values as JSON string contents.
  const json = file.endsWith(".json");
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`@${name}@`, json ? JSON.stringify(value).slice(1, -1) : value);
  return text;
}

export async function startGlewlwyd(options: { port: number; portal: string; clientSecret: string }): Promise<Glewlwyd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-glewlwyd-"));
  const url = `http://127.0.0.1:${options.port}`;
  const issuer = `${url}/api/oidc`;

  fs.writeFileSync(path.join(dir, "glewlwyd.conf"), fill("glewlwyd.conf", { PORT: String(options.port), DIR: dir }));
  const db = new Database(path.join(dir, "glewlwyd.db"));
  db.exec(gunzipSync(fs.readFileSync(SCHEMA)).toString("utf8"));
  db.close();
  // The login app, links resolved; its config.json is a link to a folder in the package.
  fs.mkdirSync(path.join(dir, "webapp"));
  for (const entry of fs.readdirSync(WEBAPP)) {
    if (entry !== "config.json") fs.cpSync(path.join(WEBAPP, entry), path.join(dir, "webapp", entry), { recursive: true, dereference: true });
  }
  fs.copyFileSync(WEBAPP_CONFIG, path.join(dir, "webapp/config.json"));

  const server = spawn(BINARY, ["-c", path.join(dir, "glewlwyd.conf")], { cwd: dir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid!, "SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const log = () => `${output}\n${fs.existsSync(path.join(dir, "glewlwyd.log")) ? fs.readFileSync(path.join(dir, "glewlwyd.log"), "utf8").slice(-20_000) : ""}`;

  let cookie = "";
  const signInAsAdmin = () =>
    fetch(`${url}/api/auth/`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username: "admin", password: "password" }) });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Glewlwyd exited with ${server.exitCode}:\n${log()}`);
    const answer = await signInAsAdmin().catch(() => null);
    if (answer?.ok) {
      cookie = answer.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Glewlwyd did not answer at ${url}:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const admin = async (method: string, apiPath: string, body?: unknown) =>
    fetch(`${url}/api${apiPath}`, {
      method,
      headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const must = async (method: string, apiPath: string, body?: unknown) => {
    const answer = await admin(method, apiPath, body);
    if (!answer.ok) throw new Error(`Glewlwyd's ${method} ${apiPath} answered ${answer.status}: ${await answer.text()}`);
    return answer;
  };

  try {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const plugin = JSON.parse(
      fill("oidc-plugin.json", {
        ISSUER: issuer,
        PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        PUBLIC_KEY: publicKey.export({ type: "spki", format: "pem" }).toString(),
      }),
    ) as { parameters: Record<string, unknown> };
    await must("POST", "/mod/plugin/", plugin);
    // The client database must know post_logout_redirect_uris as a list, or clients with one are refused.
    const clients = (await (await must("GET", "/mod/client/database")).json()) as { parameters: { "data-format"?: Record<string, unknown> } };
    clients.parameters["data-format"] = { ...clients.parameters["data-format"], post_logout_redirect_uris: { multiple: true, read: true, write: true } };
    await must("PUT", "/mod/client/database", clients);
    await must("PUT", "/mod/client/database/reset");
    for (const scope of ["profile", "email"]) {
      await must("POST", "/scope/", { name: scope, display_name: scope, description: `The person's ${scope}`, password_required: false, scheme: {} });
    }
    await must("POST", "/user/", JSON.parse(fill("user.json", {})));
    await must("POST", "/client/", JSON.parse(fill("client.json", { PORTAL: options.portal, CLIENT_SECRET: options.clientSecret })));

    const configure = async (changes: Record<string, unknown>) => {
      const current = (await (await must("GET", "/mod/plugin/oidc")).json()) as { parameters: Record<string, unknown> };
      await must("PUT", "/mod/plugin/oidc", { ...current, parameters: { ...current.parameters, ...changes } });
      await must("PUT", "/mod/plugin/oidc/reset");
    };
    return { url, issuer, admin, configure, log, stop };
  } catch (error) {
    const text = log();
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${text.slice(-4000)}`);
  }
}
