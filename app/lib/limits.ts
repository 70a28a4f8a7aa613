/**
 * Limits that more than one layer checks, written once: the search's state (app/search/state.ts)
 * and paths (app/search/paths.ts), the catalogue's import, and the usage signals' model
 * (app/signals/model.server.ts), which records a search's filters and the items people open.
 */

/**
 * Every link of a page repeats the search's filters, so a page grows with their number squared:
 * at most this many filters in all (the rest are ignored, and the page says so); a search's
 * signal carries them all.
 */
export const MAX_FILTERS = 20;

/**
 * The longest item number or product id: it ends up in paths, file names and CSV. The import
 * refuses a longer one, a path carrying one names no item, a signal cuts one to it.
 */
export const MAX_ITEM_KEY_LENGTH = 200;
