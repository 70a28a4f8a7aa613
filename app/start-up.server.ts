import { ConfigError, getConfig } from "./config.server";
import { httpClientReport } from "./lib/http-client.server";
import { prepareServices, services } from "./registry.server";
import { SearchError } from "./search/errors";

let started = false;

/**
 * Runs once when the server loads: a bad configuration stops the server with a message naming
 * the variable; the catalogue is opened (built from sample data when missing) and the default
 * facets are loaded into memory so that the first search is as fast as the rest.
 */
export function startUp(): void {
  if (started) return;
  started = true;
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  void httpClientReport().then(({ nodeFetch }) => {
    if (!nodeFetch) console.warn("globalThis.fetch is not Node's own: the Fusion client was not tested with this one (docs/decisions/022)");
  });
  setImmediate(() => {
    // The shared store's tables and keys: scripts/server.mjs waits for them before it listens; under
    // another server (`remix dev`) they are ready a moment after start.
    prepareServices(services()).catch((error: unknown) => console.error("The shared store could not be prepared:", error instanceof Error ? error.message : error));
    // Usage signals: forwarding to Fusion and pruning run in every server process (the outbox is shared).
    try {
      services().signals.start();
    } catch (error) {
      console.error("Usage signals could not start:", error);
    }
    try {
      const { catalogue, searchConfig, config } = services();
      if (!catalogue) return;
      const { items } = catalogue.open();
      catalogue.warm(searchConfig.facetFields);
      console.log(`Catalogue ready: ${items} items (${config.catalogDb})`);
    } catch (error) {
      const detail = error instanceof SearchError && error.detail ? error.detail : error instanceof Error ? error.message : error;
      console.error("The catalogue could not be opened:", detail);
    }
  });
}
