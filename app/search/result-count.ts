/**
 * "1 result", "148 results", "148 results for "pump"": the spec's '{n} results for "{query}"'
 * (core §2) with the noun agreeing with its number (issue 29 point 8, decision 029).
 */
export function resultsText(total: number, query = "", format: (n: number) => string = String): string {
  return `${format(total)} ${total === 1 ? "result" : "results"}${query ? ` for "${query}"` : ""}`;
}
