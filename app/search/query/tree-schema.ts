import { z } from "zod";
import { MAX_TERMS, type QueryTree } from "./query";

/**
 * The query tree as JSON, as the product backend engine sends it to `/api/search` (`query`). Read
 * back with this schema and rendered as query text (`queryText`), so whatever arrives is parsed
 * again by the same rules: a term cannot smuggle in an operator.
 */
const TermSchema = z.object({ kind: z.enum(["word", "phrase"]), text: z.string().min(1).max(500) });

export const QueryTreeSchema = z.object({
  all: z.array(z.array(TermSchema).min(1).max(MAX_TERMS)).max(MAX_TERMS),
  none: z.array(TermSchema).max(MAX_TERMS),
}) satisfies z.ZodType<QueryTree>;
