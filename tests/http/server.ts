/** The HTTP suite's server (started by global-setup.ts) and requests to it. */
import { inject } from "vitest";

export function url(path: string): string {
  return new URL(path, inject("baseUrl")).toString();
}

/** A GET to the test server, following redirects as a browser would. */
export function get(path: string, init?: RequestInit): Promise<Response> {
  return fetch(url(path), init);
}

/**
 * An asset that heads a BOM, and a component on it, as a Where Used page finds them: the first of
 * the `q` results (item numbers starting MRO- are the components in most BOMs) used in an asset
 * BOM, and the asset number of its first record (the third column of its Where Used export).
 */
export async function findAssetBom(base: (path: string) => Promise<Response> = get, q = "MRO"): Promise<{ head: string; component: string }> {
  const docs = (await (await base(`/api/search?${new URLSearchParams({ q, rows: "50" })}`)).json()).data.docs as { item_number_s: string }[];
  for (const { item_number_s: component } of docs) {
    const response = await base(`/where-used/${encodeURIComponent(component)}/export.csv?type=asset`);
    if (response.status !== 200) continue;
    const [, first] = (await response.text()).split(/\r?\n/);
    const head = /^(?:"[^"]*"|[^,]*),(?:"[^"]*"|[^,]*),"?([^",]+)"?/.exec(first ?? "")?.[1];
    if (head) return { head, component };
  }
  throw new Error(`no result for "${q}" is used in an asset BOM`);
}
