/**
 * The composition root: configuration → engines → breaker → service, in one place. It is the
 * only module that knows the concrete engines; everything else asks for `services()`.
 *
 * Tests build their own set with `createServices(parseConfig({...}))` and install it with
 * `installServices`, instead of changing `process.env` and reloading modules.
 */
import path from "node:path";
import type pg from "pg";
import { Auth } from "./auth/auth.server";
import { GuardedSessionStore } from "./auth/guarded-session-store.server";
import { OidcClient } from "./auth/oidc.server";
import { PgSessionStore, SESSION_MIGRATIONS } from "./auth/session-store-pg.server";
import { SqliteSessionStore, type SessionStore } from "./auth/session-store.server";
import { getConfig, type AppConfig } from "./config.server";
import { CircuitBreaker } from "./search/circuit-breaker";
import { BackendEngine } from "./search/engines/backend/backend-engine.server";
import { ensureCatalog } from "./search/engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "./search/engines/embedded/embedded-engine.server";
import { FusionEngine } from "./search/engines/fusion/fusion-engine.server";
import { log } from "./lib/log.server";
import { metrics } from "./lib/metrics.server";
import { createPool, migrate } from "./lib/postgres.server";
import { RATE_LIMIT_MIGRATIONS } from "./lib/rate-limits.server";
import { searchConfigWith, type SearchConfig } from "./search/search-config";
import { SearchService } from "./search/service";
import { PgSharedSignals } from "./signals/shared-pg.server";
import { SIGNALS_MIGRATIONS } from "./signals/shared-pg-tables.server";
import { Signals } from "./signals/signals.server";

export interface Services {
  config: AppConfig;
  searchConfig: SearchConfig;
  search: SearchService;
  /**
   * The embedded catalogue where it serves: the only engine, or Fusion's backup. Null when the
   * backup is a product backend (`BACKEND_URL`): then nothing local is built or opened.
   */
  catalogue: EmbeddedEngine | null;
  /** Usage signals: the outbox beside the catalogue, its forwarding to Fusion, what /analytics reads. */
  signals: Signals;
  /** Single sign-on; null when it is off, and everyone counts as signed in with no user. */
  auth: Auth | null;
  /** The PostgreSQL the replicas share (DATABASE_URL); null keeps everything in SQLite files beside the catalogue. */
  shared: pg.Pool | null;
  /** Starts what needs the shared store's tables: the sessions' change notices (prepareServices). */
  listen(): Promise<void>;
  /** Closes what the services hold open (a stopping server's last step). */
  close(): Promise<void>;
}

/** Builds the services of one configuration; a missing catalogue file is created from sample data. */
export function createServices(config: AppConfig): Services {
  const searchConfig = searchConfigWith(config);
  const catalogue = config.backendUrl ? null : embeddedCatalogue(config);
  const fallback = catalogue ?? new BackendEngine({ url: config.backendUrl!, timeoutMs: config.fusion?.timeoutMs ?? 30_000 });
  const primary = config.fusion ? new FusionEngine(config.fusion, searchConfig) : null;
  // Each server process keeps its own breaker, as replicas on other machines would.
  const breaker = config.fusion
    ? new CircuitBreaker({ failureThreshold: config.fusion.breakerThreshold, cooldownMs: config.fusion.breakerCooldownMs })
    : new CircuitBreaker();
  const shared = config.databaseUrl ? createPool(config.databaseUrl) : null;
  const signals = signalsOf(config, shared);
  const sessions = config.sso ? sessionStoreOf(config, shared) : null;
  return {
    config,
    searchConfig,
    search: new SearchService(searchConfig, { primary, fallback }, breaker, {
      platformFailure: (failure) => log.warn({ ...failure }, "search platform failed"),
      backupAnswer: (why) => metrics.backupAnswers.inc({ why }),
    }),
    catalogue,
    signals,
    auth: sessions ? authOf(config, sessions.store) : null,
    shared,
    listen: async () => {
      await sessions?.listen?.();
    },
    async close() {
      await signals.stop();
      signals.store.close();
      await sessions?.close();
      catalogue?.close();
      await shared?.end();
    },
  };
}

/** Every table the shared store holds, made by the first replica to start (migrate() lets the others wait). */
const MIGRATIONS = [...SESSION_MIGRATIONS, ...RATE_LIMIT_MIGRATIONS, ...SIGNALS_MIGRATIONS];

/**
 * What the services need of the shared store: its tables and the keys kept there, retried while
 * the database does not answer (every second, then up to every 10 s) for up to `waitMs`; the
 * server does not wait for it (a replica serves what it can while PostgreSQL is away).
 */
export function prepareServices(s: Services, waitMs = Infinity): Promise<void> {
  let preparing = preparations.get(s);
  if (!preparing) {
    preparing = prepare(s, waitMs);
    preparations.set(s, preparing);
  }
  return preparing;
}

/** Each set of services is prepared once, whoever asks first (the server before listening, or start-up under another server). */
const preparations = new WeakMap<Services, Promise<void>>();

async function prepare(s: Services, waitMs: number): Promise<void> {
  if (!s.shared) return;
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await migrate(s.shared, MIGRATIONS);
      await s.signals.prepare();
      await s.listen();
      log.info({ store: "postgres", migrations: applied.length, attempts: attempt }, "shared store prepared");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      if (attempt === 1) log.warn({ store: "postgres", err: error }, "shared store not answering yet; retrying until it does");
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * attempt, 10_000)));
    }
  }
}

/** The signals outbox in a file of its own beside the catalogue (imports replace the catalogue's file). */
function signalsOf(config: AppConfig, shared: pg.Pool | null): Signals {
  const dir = path.dirname(config.catalogDb);
  const { fusion } = config;
  return new Signals({
    enabled: config.signalsEnabled,
    file: path.join(dir, "signals.db"),
    retentionDays: config.signalsRetentionDays,
    maxRows: config.signalsMaxRows,
    legacyLog: path.join(dir, "signals.jsonl"),
    shared: shared ? new PgSharedSignals(shared) : null,
    ...(config.keySecret ? { keySecret: config.keySecret } : {}),
    forwarding: fusion
      ? { url: fusion.url, collection: fusion.collection ?? fusion.app, ...(fusion.apiKey ? { apiKey: fusion.apiKey } : {}), timeoutMs: Math.min(fusion.timeoutMs, 10_000) }
      : null,
  });
}

function embeddedCatalogue(config: AppConfig): EmbeddedEngine {
  ensureCatalog(config.catalogDb, config.sampleItems);
  return new EmbeddedEngine(config.catalogDb);
}

/** Sessions in the shared store, else in a file of their own beside the catalogue (imports replace the catalogue's file). */
function sessionStoreOf(config: AppConfig, shared: pg.Pool | null): { store: SessionStore; listen?(): Promise<void>; close(): unknown } {
  if (shared) {
    const store = new PgSessionStore(shared, { listenUrl: config.databaseUrl! });
    return { store: new GuardedSessionStore(store, "postgres"), listen: () => store.listen(), close: () => store.close() };
  }
  const store = new SqliteSessionStore(path.join(path.dirname(config.catalogDb), "sessions.db"));
  return { store: new GuardedSessionStore(store, "sqlite"), close: () => store.close() };
}

function authOf(config: AppConfig, store: SessionStore): Auth | null {
  if (!config.sso) return null;
  const secureCookies = config.appUrl.startsWith("https:");
  const prefix = secureCookies ? "__Host-" : "";
  const oidc = new OidcClient({
    issuer: config.sso.issuer,
    clientId: config.sso.clientId,
    ...(config.sso.clientSecret ? { clientSecret: config.sso.clientSecret } : {}),
    redirectUri: `${config.appUrl}/callback`,
    nonceSecret: config.sso.sessionSecret,
    stateCookie: `${prefix}crib-oidc`,
    secureCookies,
    timeoutMs: config.sso.timeoutMs,
  });
  return new Auth(oidc, store, { appUrl: config.appUrl, sessionSecret: config.sso.sessionSecret, secureCookies });
}

let current: Services | undefined;

/** The services of this process, built from the environment on first use. */
export function services(): Services {
  current ??= createServices(getConfig());
  return current;
}

/** The services of this process if they have been built, without building them (a metrics scrape reads them). */
export function builtServices(): Services | undefined {
  return current;
}

/** Replaces the services of this process (tests); `undefined` goes back to the environment's. */
export function installServices(next: Services | undefined): void {
  current = next;
}
