import { redirect } from "@remix-run/node";
import { isThemeMode, LITE_PARAM, toggledTheme, type ShellPreferences, type ThemeMode } from "~/components/preferences";
import type { CompanyLinks } from "~/components/site-footer";
import { safePath } from "~/lib/safe-path";
import { services } from "~/registry.server";
import { HOME_PATH } from "~/search/paths";
import { portalCookie } from "./cookie.server";
import { readForm } from "./http.server";

/**
 * The theme and lite-mode cookies (docs/decisions/016): read for every document, set by the
 * header's and footer's POST forms and by `?lite=1` / `?lite=0`. A terminal set up once stays so
 * for a year after its last change.
 */
const YEAR = 60 * 60 * 24 * 365;
/** The spec keeps the theme "in browser storage under the name theme-storage": the cookie has that name. */
const themeCookie = portalCookie("theme-storage", { path: "/", maxAge: YEAR });
const liteCookie = portalCookie("lite", { path: "/", maxAge: YEAR });

async function parsed(cookie: typeof themeCookie, header: string | null): Promise<unknown> {
  try {
    return await cookie.parse(header);
  } catch {
    return null;
  }
}

export async function readPreferences(request: Request): Promise<ShellPreferences> {
  const header = request.headers.get("Cookie");
  if (!header) return { theme: "auto", lite: false };
  const [theme, lite] = await Promise.all([parsed(themeCookie, header), parsed(liteCookie, header)]);
  return { theme: isThemeMode(theme) ? theme : "auto", lite: lite === true };
}

function seeOther(back: string, cookie: string): Response {
  return new Response(null, { status: 303, headers: { Location: back, "Set-Cookie": cookie, "Cache-Control": "no-store" } });
}

/** The page a preference form came from (a same-site path only), to go back to. */
function backOf(form: FormData): string {
  const back = form.get("back");
  return safePath(typeof back === "string" ? back : null, HOME_PATH);
}

/**
 * POST /theme: `mode` (light, dark or auto) as the button says; without one, the spec's toggle of
 * the current mode. Back to the page the form was on.
 */
export async function changeTheme(request: Request): Promise<Response> {
  const form = await readForm(request);
  const asked = form.get("mode");
  const mode: ThemeMode = isThemeMode(asked) ? asked : toggledTheme((await readPreferences(request)).theme);
  return seeOther(backOf(form), await themeCookie.serialize(mode));
}

/** POST /lite: `lite=1` turns lite mode on, anything else off. Back to the page the form was on. */
export async function changeLite(request: Request): Promise<Response> {
  const form = await readForm(request);
  return seeOther(backOf(form), await liteCookieHeader(form.get(LITE_PARAM) === "1"));
}

function liteCookieHeader(on: boolean): Promise<string> {
  // Off removes the cookie: a browser that never chose lite mode sends nothing.
  return on ? liteCookie.serialize(true) : liteCookie.serialize(false, { maxAge: 0 });
}

/**
 * `?lite=1` or `?lite=0` on a page: set lite mode and go to the same address without the
 * parameter, so the address stays the page's own (the URL contract has no `lite`). Null without it.
 */
export async function liteParamRedirect(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (request.method !== "GET" || !url.searchParams.has(LITE_PARAM)) return null;
  const on = url.searchParams.get(LITE_PARAM) === "1";
  url.searchParams.delete(LITE_PARAM);
  url.searchParams.delete("_data");
  const search = url.searchParams.toString();
  return redirect(`${url.pathname}${search ? `?${search}` : ""}`, {
    headers: { "Set-Cookie": await liteCookieHeader(on), "Cache-Control": "no-store" },
  });
}

/** A GET of a preference form's address: nothing to show there, so the home page. */
export function toHome(): Response {
  return redirect(HOME_PATH);
}

/** Where Contact Support leads (SUPPORT_URL; by default the company site's /support, else the portal's own). */
export function supportHref(): string {
  return services().config.supportUrl;
}

/** Spec §2's footer links after /support: pages of the company site, never of the portal. */
const COMPANY_PAGES: [string, string][] = [
  ["/warranty", "Warranty"],
  ["/contact", "Contact"],
  ["/products/refrigerators", "Refrigerators"],
  ["/products/washers", "Washers"],
  ["/products/ranges", "Ranges"],
  ["/products/dishwashers", "Dishwashers"],
  ["/privacy", "Privacy"],
  ["/terms", "Terms"],
  ["/accessibility", "Accessibility"],
  ["/cookies", "Cookies"],
];
/** The three social links, through the company site, which knows its accounts. */
const SOCIAL_PAGES: [string, string][] = [
  ["/social/facebook", "Facebook"],
  ["/social/x", "X"],
  ["/social/linkedin", "LinkedIn"],
];

/**
 * The footer's links: Contact Support always (spec §2's /support), the company site's pages and
 * social links only with SITE_URL. Written by the server, so the list is in the page's data rather
 * than in every page's script.
 */
export function companyLinks(): CompanyLinks {
  const site = services().config.siteUrl;
  const links = (pages: [string, string][]) => (site ? pages.map(([path, label]) => ({ href: `${site}${path}`, label })) : []);
  return { pages: [{ href: supportHref(), label: "Contact Support" }, ...links(COMPANY_PAGES)], social: links(SOCIAL_PAGES) };
}

/** Whether the portal records usage signals (SIGNALS_ENABLED): the browser's few (browser.client.ts) only then. */
export function signalsEnabled(): boolean {
  return services().config.signalsEnabled;
}

/** Whether the header's box is a type-ahead (TYPEAHEAD_ENABLED): the shell fetches its code only then. */
export function typeaheadEnabled(): boolean {
  return services().config.typeaheadEnabled;
}
