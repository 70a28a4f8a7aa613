/**
 * The composition root: configuration → engines → breaker → service, in one place. It is the
 * only module that knows the concrete engines; everything else asks for `services()`.
 *
 * Tests build their own set with `createServices(parseConfig({...}))` and install it with
 * `installServices`, instead of changing `process.env` and reloading modules.
 */
import path from "node:path";
import { getConfig, type AppConfig } from "./config.server";
import { CircuitBreaker } from "./search/circuit-breaker";
import { BackendEngine } from "./search/engines/backend/backend-engine.server";
import { ensureCatalog } from "./search/engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "./search/engines/embedded/embedded-engine.server";
import { FusionEngine } from "./search/engines/fusion/fusion-engine.server";
import { searchConfigWith, type SearchConfig } from "./search/search-config";
import { SearchService } from "./search/service";
import { SignalLog } from "./signals/signals.server";

export interface Services {
  config: AppConfig;
  searchConfig: SearchConfig;
  search: SearchService;
  /**
   * The embedded catalogue where it serves: the only engine, or Fusion's backup. Null when the
   * backup is a product backend (`BACKEND_URL`): then nothing local is built or opened.
   */
  catalogue: EmbeddedEngine | null;
  /** Usage signals, in a log next to the catalogue. */
  signals: SignalLog;
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
  const signals = new SignalLog({ file: path.join(path.dirname(config.catalogDb), "signals.jsonl"), enabled: config.signalsEnabled });
  return { config, searchConfig, search: new SearchService(searchConfig, { primary, fallback }, breaker), catalogue, signals };
}

function embeddedCatalogue(config: AppConfig): EmbeddedEngine {
  ensureCatalog(config.catalogDb, config.sampleItems);
  return new EmbeddedEngine(config.catalogDb);
}

let current: Services | undefined;

/** The services of this process, built from the environment on first use. */
export function services(): Services {
  current ??= createServices(getConfig());
  return current;
}

/** Replaces the services of this process (tests); `undefined` goes back to the environment's. */
export function installServices(next: Services | undefined): void {
  current = next;
}
