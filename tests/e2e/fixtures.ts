/**
 * Playwright's `test` with one fixture more, on for every test that imports it from here: a test
 * fails when a page of its browser context prints an error to the console or throws one nobody
 * caught (`pageerror`), unless the test said it expects it:
 *
 *   test("…", async ({ page, consoleErrors }) => { consoleErrors.expect(/status of 503/); … });
 *
 * An expected pattern that no error matched fails the test too, so the expectation stays true.
 *
 * Every spec of tests/e2e takes `test` and `expect` from here (eslint.config.js refuses `test` from
 * @playwright/test there). The fixture watches the test's `context` and every browser context the
 * test opens itself while it runs (`browser.newContext()` for a second user, `browser.newPage()`):
 * it listens to the worker's browser's `context` event for the test's duration, which Playwright
 * emits before `newContext()` returns, so no page of such a context goes unwatched and no spec has
 * to hand its contexts over.
 */
import { test as base, expect, type BrowserContext, type ConsoleMessage } from "@playwright/test";
import { IDP_URL } from "../../playwright.config";

export { expect };

export interface ConsoleErrors {
  /** The test expects errors matching `pattern` (a string is a part of the text); all are taken. */
  expect(pattern: RegExp | string): void;
}

interface Expected {
  pattern: RegExp;
  seen: boolean;
}

function asPattern(pattern: RegExp | string): RegExp {
  return typeof pattern === "string" ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : pattern;
}

/**
 * What the browser prints when a page or resource at `path` (as sent: percent-encoded, with its
 * query if any; a RegExp for a family of them) of any test server answers `status`, as a page a
 * test opens on purpose does.
 */
export function statusError(status: number, path: string | RegExp): RegExp {
  return new RegExp(`^console\\.error: Failed to load resource: the server responded with a status of ${status} \\([^)]+\\) \\(http://[^/]+${asPattern(path).source}:0\\)$`);
}

/**
 * The sample catalogue names pictures that no test server has (`sample-data.ts`), and the page
 * draws its placeholder in their place (`product-image.tsx`, which the journeys check): their 404s
 * are no error of the page's.
 */
function isMissingPicture(message: ConsoleMessage): boolean {
  return message.text().startsWith("Failed to load resource:") && new URL(message.location().url || "about:blank").pathname.startsWith("/images/parts/");
}

/**
 * The test identity provider (tests/idp/server.ts) is oidc-provider's own sign-in page, not the
 * portal's: it asks Google for a font (no network here) and for a /favicon.ico it has not.
 */
function isTestIdentityProvider(message: ConsoleMessage): boolean {
  return new URL(message.page()?.url() || "about:blank").origin === new URL(IDP_URL).origin;
}

function where(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  return url ? ` (${url}:${lineNumber})` : "";
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ context, browser }, use) => {
      const expected: Expected[] = [];
      const unexpected: string[] = [];
      const take = (text: string) => {
        const match = expected.find((e) => e.pattern.test(text));
        if (match) match.seen = true;
        else unexpected.push(text);
      };
      const watch = (watched: BrowserContext) => {
        watched.on("console", (message) => {
          if (message.type() === "error" && !isMissingPicture(message) && !isTestIdentityProvider(message)) take(`console.error: ${message.text()}${where(message)}`);
        });
        watched.on("weberror", (error) => take(`pageerror: ${error.error().message}`));
      };
      watch(context);
      // Contexts the test opens from here on; the worker's browser outlives the test, so the listener goes with it.
      browser.on("context", watch);
      try {
        await use({ expect: (pattern) => expected.push({ pattern: asPattern(pattern), seen: false }) });
      } finally {
        browser.off("context", watch);
      }
      expect(unexpected, "errors in the browser's console that the test did not expect").toEqual([]);
      const missing = expected.filter((e) => !e.seen).map((e) => String(e.pattern));
      expect(missing, "errors the test expected in the browser's console that never came").toEqual([]);
    },
    { auto: true },
  ],
});
