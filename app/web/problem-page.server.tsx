import { renderToStaticMarkup } from "react-dom/server";
import { ErrorPanel } from "~/components/error-panel";
import styles from "~/styles/app.css";

/**
 * A download that cannot be made (nothing to export, a bad request, a failure before the first row)
 * answers a small page instead of a file: the same panel as the pages' errors, with the way back.
 * Resource routes have no error boundary, so the panel is rendered here.
 */
export function problemPage(message: string, status: number, options: { backHref: string; retryHref?: string }): Response {
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${message} – Crib Search`}</title>
        <link rel="stylesheet" href={styles} />
      </head>
      <body>
        <main id="main">
          {/* Spec §8's retry: the failure, then the question that Try Again answers. */}
          <ErrorPanel
            {...(options.retryHref ? { title: message, message: "Would you like to try again?", retryHref: options.retryHref } : { message })}
            backHref={options.backHref}
            backLabel="← Back"
          />
        </main>
      </body>
    </html>,
  );
  return new Response(`<!doctype html>${html}`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
