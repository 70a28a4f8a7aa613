/**
 * The scripts a page loads, read from its HTML: the modules its loader script names
 * (`app/components/page-scripts.tsx`): the module preloads, the route manifest, the matched routes'
 * modules and Remix's entry. None on a lite page.
 */
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
