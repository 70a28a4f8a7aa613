import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorScreen, NotFoundScreen } from "./components/error-screen";
import { useDocumentNavigation } from "./components/nav";
import { useNonce } from "./components/nonce";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { useShell } from "./components/header-search";
import styles from "./styles/app.css";
import { loadSignInState } from "./web/auth.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Crib Search" }];

/** Who is signed in, for the header: every page's layout shows it. */
export function loader({ request }: LoaderFunctionArgs) {
  return loadSignInState(request);
}

export function Layout({ children }: { children: ReactNode }) {
  useDocumentNavigation();
  // The header's search (query, kept refinement) and the skip link's target, from the page's data.
  const shell = useShell();
  const signIn = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href={shell.skipTarget}>
          Skip to content
        </a>
        <SiteHeader search={shell.search} account={signIn?.user && signIn.csrf ? { name: signIn.user.name, csrf: signIn.csrf } : null} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  return <ErrorScreen />;
}
