/**
 * Limits that more than one layer checks, written once: the search's state (app/search/state.ts)
 * and the usage signals' model (app/signals/model.server.ts), which records a search's filters.
 */

/**
 * Every link of a page repeats the search's filters, so a page grows with their number squared:
 * at most this many filters in all (the rest are ignored, and the page says so); a search's
 * signal carries them all.
 */
export const MAX_FILTERS = 20;
