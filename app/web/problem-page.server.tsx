import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ErrorPanel } from "~/components/error-panel";
import styles from "~/styles/app.css";

/**
 * A whole document rendered on the server alone (no script, no hydration): the problem pages of
 * downloads and the printed pick list. Resource routes have no layout, so the shell is here.
 */
export function staticDocument(title: string, body: ReactNode, status: number, headers: Record<string, string> = {}): Response {
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} – Crib Search`}</title>
        <link rel="stylesheet" href={styles} />
        {/* The pages' icon (root.tsx): without it the browser asks for /favicon.ico, which the portal has not. */}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <main id="main">{body}</main>
      </body>
    </html>,
  );
  return new Response(`<!doctype html>${html}`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/**
 * A download that cannot be made (nothing to export, a bad request, a failure before the first row)
 * answers a small page instead of a file: the same panel as the pages' errors, with the way back.
 */
export function problemPage(message: string, status: number, options: { backHref: string; retryHref?: string }): Response {
  return staticDocument(
    message,
    // Spec §8's retry: the failure, then the question that Try Again answers.
    <ErrorPanel
      {...(options.retryHref ? { title: message, message: "Would you like to try again?", retryHref: options.retryHref } : { message })}
      backHref={options.backHref}
      backLabel="← Back"
    />,
    status,
  );
}
