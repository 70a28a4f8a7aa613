/**
 * The scripts a page loads, read from its HTML: the modules its loader script names
 * (`app/components/page-scripts.tsx`): the module preloads, the route manifest, the matched routes'
 * modules and Remix's entry. None on a lite page.
 */
import http from "node:http";

export interface NamedModules {
  preloads: string[];
  first: string[];
  routes: Record<string, string>;
  entry: string;
}

const LOADER_ARGUMENT = /\}\)\((\{"preloads":.*?\})\);<\/script>/s;

/** What the page's loader script names, or null when the page has none. */
export function namedModules(html: string): NamedModules | null {
  const argument = LOADER_ARGUMENT.exec(html)?.[1];
  return argument === undefined ? null : (JSON.parse(argument) as NamedModules);
}

/** Every script URL the page loads, once each. */
export function scriptsNamedBy(html: string): string[] {
  const modules = namedModules(html);
  if (!modules) return [];
  return [...new Set([...modules.preloads, ...modules.first, ...Object.values(modules.routes), modules.entry])];
}

/** A file as the server sends it to a browser that accepts `acceptEncoding`: its body as sent, not decoded. */
export function sent(url: string, acceptEncoding: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers = new Headers(Object.entries(response.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])));
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}
