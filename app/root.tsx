import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useContext, type ReactNode } from "react";
import { ErrorPanel } from "./components/error-panel";
import { ErrorScreen, NotFoundScreen } from "./components/error-screen";
import { useDocumentNavigation } from "./components/nav";
import { useNonce } from "./components/nonce";
import { PageScripts } from "./components/page-scripts";
import { PreferencesContext, type ShellPreferences } from "./components/preferences";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { PLAIN_SHELL, type PageShell } from "./search/page-shell";
import { HOME_PATH, SEARCH_PATH } from "./search/paths";
import styles from "./styles/app.css";
import { usePageScriptTexts } from "./web/page-scripts.server";
import { loadSignInState } from "./web/sign-in.server";
import { companyLinks, liteParamRedirect, supportHref, readPreferences, signalsEnabled, typeaheadEnabled } from "./web/preferences.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Crib Search" }];

/**
 * Who is signed in, for the header, and the theme and lite mode: every page's layout shows them.
 * `?lite=1` / `?lite=0` on any page answers with the cookie and the same address without it; the
 * root's redirect wins over whatever the page's own loader answers.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const liteSwitch = await liteParamRedirect(request);
  if (liteSwitch) throw liteSwitch;
  const [signIn, preferences] = await Promise.all([loadSignInState(request, context), readPreferences(request)]);
  return { ...signIn, preferences, support: supportHref(), company: companyLinks(), typeahead: typeaheadEnabled(), signals: signalsEnabled() };
}

const THEME_CLASS = { light: "light", dark: "dark", auto: undefined } as const;
const COLOR_SCHEME = { light: "light", dark: "dark", auto: "light dark" } as const;

/**
 * Where a page's scroll position is kept: a results list's under its address, so that the item
 * page's "← Back", a link to the list, finds the list where it was left (issue 36, point 8), as the
 * browser's own Back does; every other page's under its place in the history.
 */
function scrollKey(location: { pathname: string; search: string; key: string }): string {
  return location.pathname === SEARCH_PATH ? `${location.pathname}${location.search}` : location.key;
}

/**
 * The header's search (query, kept refinement) and the skip link's target: the `shell` the page's
 * loader returns (a results, item, BOM, BOM lines or Where Used page); the plain one on any other
 * page (an error, a page with no search of its own nor a way back to one).
 */
function usePageShell(): PageShell {
  const data: unknown = useMatches().at(-1)?.data;
  return data && typeof data === "object" && "shell" in data ? (data.shell as PageShell) : PLAIN_SHELL;
}

export function Layout({ children }: { children: ReactNode }) {
  useDocumentNavigation();
  const shell = usePageShell();
  const signIn = useRouteLoaderData<typeof loader>("root");
  // The root loader's copy when it answered (the browser has it too), else the request's cookies.
  const fromRequest = useContext(PreferencesContext);
  const preferences: ShellPreferences = signIn?.preferences ?? fromRequest;
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const nonce = useNonce();
  // The text of the page's scripts, made on the server. In the browser the module is empty and
  // nothing is called: the scripts keep the text they were served with.
  const scriptTexts = typeof usePageScriptTexts === "function" ? usePageScriptTexts() : undefined;
  return (
    <html lang="en" className={THEME_CLASS[preferences.theme]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={COLOR_SCHEME[preferences.theme]} />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href={shell.skipTarget}>
          Skip to content
        </a>
        <SiteHeader
          search={{ query: shell.query, keep: shell.keep, autoFocus: shell.autoFocus, typeahead: signIn?.typeahead === true, signals: signIn?.signals === true }}
          account={signIn?.user && signIn.csrf ? { name: signIn.user.name, csrf: signIn.csrf } : null}
          theme={preferences.theme}
          here={here}
        />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter lite={preferences.lite} theme={preferences.theme} here={here} company={signIn?.company ?? null} />
        {/* Lite mode: not one script, not even the router's state; every control is a link or a form. */}
        {!preferences.lite && <ScrollRestoration nonce={nonce} getKey={scrollKey} />}
        {!preferences.lite && <PageScripts nonce={nonce} texts={scriptTexts} />}
      </body>
    </html>
  );
}

/** What the root hands its pages: the document's script nonce (set by entry.server; none in the browser). */
export interface RootContext {
  nonce: string | undefined;
}

export default function App() {
  const context: RootContext = { nonce: useNonce() };
  return <Outlet context={context} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  // A moment's unavailability with its own words (sign-in while the sessions cannot be read): say it, and offer to try again.
  const message = isRouteErrorResponse(error) && error.status === 503 ? (error.data as { message?: unknown } | null)?.message : undefined;
  if (typeof message === "string") return <ErrorPanel message={message} retryHref={`${location.pathname}${location.search}`} backHref={HOME_PATH} />;
  return <ErrorScreen />;
}
