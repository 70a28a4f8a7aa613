import { z } from "zod";
import { MAX_FILTERS, MAX_ITEM_KEY_LENGTH } from "~/lib/limits";

/**
 * Usage signals (details-bom-signin §3 "Signal event"), as one discriminated union by `type`.
 * Every text is cut to a bound and every list to a few entries, so neither a hostile URL nor a
 * hostile client can make one signal large. Kept in a `.server` module: zod stays out of the
 * client bundle.
 */

/** A text cut to `max` characters (never refused for its length: the cut text is still useful). */
const text = (max: number) => z.string().transform((s) => s.slice(0, max));
/** A list cut to `max` entries before its entries are checked. */
const few = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((value) => (Array.isArray(value) ? value.slice(0, max) : value), z.array(item));
const count = z.number().int().min(0).max(1e9);

export const MAX_FIELDS = 30;

export const ITEM_ACTIONS = [
  "result",
  "pdp_where_used",
  "pdp_export",
  "pdp_external_link",
  "bom_export",
  "asset_bom_export",
  "pm_bom_export",
  "where_used_asset_export",
  "where_used_pm_export",
] as const;

const SearchData = z.object({
  query: text(200),
  numResults: count,
  searchTime: count,
  filters: few(z.object({ field: text(64), value: text(100), type: z.enum(["include", "exclude"]) }), MAX_FILTERS),
  collection: text(100).optional(),
  page: count.optional(),
  engine: text(20).optional(),
  fusionQueryId: text(100).optional(),
});

const ClickData = z.object({
  docId: text(200),
  position: count.nullable().optional(),
  query: text(200).optional(),
  title: text(200).optional(),
  url: text(500).optional(),
  /** Result click (`result`) or one of the item pages' actions (spec §7 "Analytics calls"). */
  action: z.enum(ITEM_ACTIONS).default("result"),
  itemNumber: text(MAX_ITEM_KEY_LENGTH).optional(),
  fusionQueryId: text(100).optional(),
});

const ViewData = z.object({
  docId: text(200),
  title: text(200).optional(),
  category: text(100).nullable().optional(),
  itemNumber: text(MAX_ITEM_KEY_LENGTH).optional(),
  /** Milliseconds on the page; only the browser knows it. */
  viewDuration: count.optional(),
});

const ExportConversion = z.object({
  format: z.literal("csv"),
  numRecords: count,
  fields: few(text(64), MAX_FIELDS),
  query: text(200),
  scope: z.enum(["all", "page", "item"]).optional(),
  docId: text(200).optional(),
});

const ItemConversion = z.object({
  docId: text(200),
  value: z.number().min(0).max(1e12),
  currency: text(3).default("USD"),
  quantity: count.default(1),
});

const TypeaheadData = z.object({
  docId: z.literal("typeahead").default("typeahead"),
  query: text(200),
  suggestion: text(200),
  position: count,
});

const FacetData = z.object({
  facetName: text(64),
  facetValue: text(100),
  action: z.enum(["include", "exclude", "remove"]),
  query: text(200),
});

/** What every signal carries besides its data: id, time, session, user. */
const stamp = {
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "expected an event id of 8 to 64 letters, digits, - or _"),
  /** ISO-8601; the server's time of storing, whatever a browser said. */
  timestamp: z.iso.datetime({ offset: true }),
  /** The time a browser gave a signal it sent, kept as data only (clamped to a day either side of `timestamp`). */
  clientTimestamp: z.iso.datetime({ offset: true }).optional(),
  sessionId: z.string().max(64).nullable(),
  userId: z.string().max(200).nullable(),
};

const DATA = {
  search: SearchData,
  click: ClickData,
  view: ViewData,
  conversion: z.union([ExportConversion, ItemConversion]),
  typeahead: TypeaheadData,
  facet: FacetData,
};

export const SignalSchema = z.discriminatedUnion("type", [
  z.object({ ...stamp, type: z.literal("search"), data: DATA.search }),
  z.object({ ...stamp, type: z.literal("click"), data: DATA.click }),
  z.object({ ...stamp, type: z.literal("view"), data: DATA.view }),
  z.object({ ...stamp, type: z.literal("conversion"), data: DATA.conversion }),
  z.object({ ...stamp, type: z.literal("typeahead"), data: DATA.typeahead }),
  z.object({ ...stamp, type: z.literal("facet"), data: DATA.facet }),
]);
export type Signal = z.infer<typeof SignalSchema>;
export type SignalType = Signal["type"];

/** A signal as a page records it: the stamp (id, time, session, user) is added by the recorder. */
export type SignalInput = { [T in SignalType]: { type: T; data: z.input<(typeof DATA)[T]> } }[SignalType];

/**
 * What a browser may send (`POST /api/signals`): only what the server cannot see itself, the time
 * spent on an item page and a type-ahead pick. The session and the user are the server's to set.
 */
export const ClientSignalSchema = z.discriminatedUnion("type", [
  z.object({ id: stamp.id, timestamp: stamp.timestamp, type: z.literal("view"), data: ViewData.required({ viewDuration: true }) }),
  z.object({ id: stamp.id, timestamp: stamp.timestamp, type: z.literal("typeahead"), data: TypeaheadData }),
]);
export type ClientSignal = z.infer<typeof ClientSignalSchema>;

const DAY_MS = 86_400_000;

/**
 * A browser's time for a signal, kept only as data: clamped to a day either side of the server's
 * `now`, so that a clock that is wrong (or a date of 9999) says nothing odd, and never dates a row.
 */
export function clampedClientTime(timestamp: string, now: number): string {
  const at = Date.parse(timestamp);
  return new Date(Number.isNaN(at) ? now : Math.min(now + DAY_MS, Math.max(now - DAY_MS, at))).toISOString();
}

export const MAX_BATCH = 100;
export const SignalBatchSchema = z.object({
  signals: z.array(ClientSignalSchema).min(1, "expected at least one signal").max(MAX_BATCH, `at most ${MAX_BATCH} signals a request`),
  source: text(40),
  version: text(20),
});

/** Fusion's Signals API body entry (reference/fusion-api.md §2). */
export interface FusionSignal {
  id: string;
  type: string;
  timestamp: string;
  params: Record<string, unknown>;
}

/**
 * A signal as Fusion takes it: its own types (`request` for a search, a type-ahead pick is a
 * `click` on `typeahead`), with the session, the user and Fusion's query id in `params`.
 */
export function toFusionSignal(signal: Signal): FusionSignal {
  const { data } = signal;
  const fusionQueryId = "fusionQueryId" in data ? data.fusionQueryId : undefined;
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => key !== "fusionQueryId"));
  const type = signal.type === "search" ? "request" : signal.type === "typeahead" ? "click" : signal.type;
  const params: Record<string, unknown> = { ...rest, session: signal.sessionId ?? undefined, user_id: signal.userId ?? undefined };
  if (fusionQueryId) params.fusion_query_id = fusionQueryId;
  if (signal.clientTimestamp) params.client_timestamp = signal.clientTimestamp;
  if (signal.type === "facet") params.query = signal.data.query;
  if (signal.type === "search") params.filterQueries = signal.data.filters.map((f) => `${f.type === "exclude" ? "-" : ""}${f.field}:${f.value}`);
  return { id: signal.id, type, timestamp: signal.timestamp, params: JSON.parse(JSON.stringify(params)) as Record<string, unknown> };
}
