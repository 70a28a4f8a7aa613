import { createHash } from "node:crypto";
import fs from "node:fs";
import { log } from "~/lib/log.server";
import { metrics } from "~/lib/metrics.server";
import { ping } from "~/lib/postgres.server";
import { services, type Services } from "~/registry.server";
import type { EngineHealth } from "~/search/engine";
import { SearchError } from "~/search/errors";

/**
 * What /api/health and /api/ready answer, kept up to date in the background so that a probe never
 * waits for anything: not for Fusion (its health check runs on its own and the probes show its
 * last answer), not for the shared store (pinged with a bound), not for the catalogue's hash.
 * A load balancer or orchestrator probing every second gets its answer in milliseconds whatever
 * the outside systems do.
 */

/** Which catalogue a replica serves: replicas whose identities differ are serving different catalogues. */
export interface CatalogueIdentity {
  builtAt: string | null;
  items: number;
  /** SHA-256 of the catalogue file, computed in the background after each change; null until then. */
  contentHash: string | null;
}

export interface ProbeState {
  replica: string;
  at: number;
  catalogue: { ok: true; identity: CatalogueIdentity } | { ok: false; detail: string } | null;
  /** The shared store's last ping; null without one. */
  shared: { ok: boolean; detail: string } | null;
  /** Fusion's last health check; null without Fusion or before the first answer. */
  platform: EngineHealth | null;
  draining: boolean;
  /** The shared store's tables exist and its keys are loaded (the server prepared the services). */
  prepared: boolean;
  /** Sign-in is on: every page needs the sessions, and so the shared store when they are kept there. */
  signIn: boolean;
}

const REFRESH_MS = 1000;
/** The shared store's answer to a probe's ping, at most. */
const SHARED_PING_MS = 1000;

interface Probe {
  state: ProbeState;
  hash: { fileId: string; value: string | null; running: boolean };
  pinging: boolean;
}

/** The probe of each set of services (tests install several in turn). */
const probes = new WeakMap<Services, Probe>();
let draining = false;
let prepared = false;
let started = false;

/** The server is stopping: readiness answers 503 from now on, so balancers take this replica out. */
export function beginDrain(): void {
  draining = true;
  const probe = probeOf(services());
  probe.state = { ...probe.state, draining: true };
}

/** The services are prepared (the shared store's tables and keys); the server calls it before listening. */
export function markPrepared(): void {
  prepared = true;
}

/** Refreshes the state every second in the background (the server process calls it at start-up). */
export function startProbes(): void {
  if (started) return;
  started = true;
  refresh(services());
  setInterval(() => refresh(services()), REFRESH_MS).unref();
}

function probeOf(s: Services): Probe {
  let probe = probes.get(s);
  if (!probe) {
    probe = { state: { replica: s.config.replicaId, at: 0, catalogue: null, shared: null, platform: null, draining, prepared, signIn: s.auth !== null }, hash: { fileId: "", value: null, running: false }, pinging: false };
    probes.set(s, probe);
  }
  return probe;
}

/** The probes' state: the last refresh's, or a fresh one when it is older than two refreshes (no background refresh runs). */
export function probeState(s: Services = services()): ProbeState {
  const probe = probeOf(s);
  if (Date.now() - probe.state.at > 2 * REFRESH_MS) refresh(s);
  return probe.state;
}

/**
 * Updates what is known at once (the catalogue's item count and date, the breaker's state) and
 * starts what takes time (the shared store's ping, Fusion's health check, the file's hash) without
 * waiting for it: each lands in the state when it answers.
 */
function refresh(s: Services): void {
  const probe = probeOf(s);
  probe.state = { ...probe.state, at: Date.now(), catalogue: catalogueOf(s, probe), draining, prepared: prepared || !s.shared };
  if (s.shared && !probe.pinging) {
    probe.pinging = true;
    void ping(s.shared, SHARED_PING_MS)
      .then((shared) => {
        const was = probe.state.shared;
        probe.state = { ...probe.state, shared };
        metrics.storeUp.set({ store: "postgres" }, shared.ok ? 1 : 0);
        // One line when the store goes away and one when it is back, whatever the probes' rate.
        if (was && was.ok !== shared.ok) {
          if (shared.ok) log.info({ store: "postgres" }, "shared store answering again");
          else log.error({ store: "postgres", detail: shared.detail, signIn: probe.state.signIn }, "shared store not answering");
        } else if (!was && !shared.ok) log.error({ store: "postgres", detail: shared.detail, signIn: probe.state.signIn }, "shared store not answering");
      })
      .finally(() => (probe.pinging = false));
  }
  void s.search.platformStatus()?.then((platform) => (probe.state = { ...probe.state, platform }));
}

function catalogueOf(s: Services, probe: Probe): ProbeState["catalogue"] {
  if (!s.catalogue) return null;
  try {
    const { items, builtAt } = s.catalogue.open();
    return { ok: true, identity: { builtAt, items, contentHash: hashOf(s.config.catalogDb, probe) } };
  } catch (error) {
    return { ok: false, detail: error instanceof SearchError && error.detail ? error.detail : error instanceof Error ? error.message : String(error) };
  }
}

/** The file's hash when known for its present version; otherwise null, with the hashing started. */
function hashOf(file: string, probe: Probe): string | null {
  let fileId: string;
  try {
    const stat = fs.statSync(file);
    fileId = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return null;
  }
  if (probe.hash.fileId === fileId) return probe.hash.value;
  if (!probe.hash.running) {
    probe.hash.running = true;
    const hash = createHash("sha256");
    fs.createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => {
        probe.hash = { fileId, value: hash.digest("hex"), running: false };
        // The identity in the state now carries the hash.
        if (probe.state.catalogue?.ok) probe.state = { ...probe.state, catalogue: { ok: true, identity: { ...probe.state.catalogue.identity, contentHash: probe.hash.value } } };
      })
      .on("error", () => (probe.hash.running = false));
  }
  return null;
}

/**
 * Why this replica should not be sent requests; empty when it is ready. The shared store counts
 * only with sign-in on, where every page needs the sessions kept there: with sign-in off a
 * replica serves every page without it (the limits and signals it keeps there wait or count
 * alone), and taking it out would only turn the pages people get into the balancer's error.
 * With sign-in on, a replica that cannot reach PostgreSQL answers a 503 page that says sign-in
 * is unavailable for a moment; the shipped balancer sends people to it still when no replica is
 * ready (its backup servers, docs/operations.md), rather than answering "No server is available".
 */
export function notReadyReasons(state: ProbeState): string[] {
  const reasons: string[] = [];
  if (state.draining) reasons.push("stopping");
  if (state.catalogue && !state.catalogue.ok) reasons.push("catalogue");
  if (state.signIn && !state.prepared) reasons.push("starting");
  if (state.signIn && state.shared && !state.shared.ok) reasons.push("shared store");
  return reasons;
}
