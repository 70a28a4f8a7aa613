import { AppLink } from "./nav";

/**
 * An error of a page or a download: the message, Try Again (when trying again can help) and a way
 * back. The detail, BOM and Where Used pages and the export problem pages all use it.
 */
export function ErrorPanel({
  title,
  message,
  retryHref,
  backHref,
  backLabel = "← Back to Search",
  search,
  related,
}: {
  title?: string;
  message: string;
  retryHref?: string;
  search?: { query: string; href: string };
  related?: { label: string; href: string };
  backHref: string;
  backLabel?: string;
}) {
  return (
    <section className="state-screen" role="alert" aria-labelledby="error-panel-title">
      <h1 id="error-panel-title">{title ?? message}</h1>
      {title && <p>{message}</p>}
      <p className="actions">
        {search && (
          <AppLink className="button" to={search.href}>
            Search for “{search.query}”
          </AppLink>
        )}
        {related && (
          <AppLink className="button" to={related.href}>
            {related.label}
          </AppLink>
        )}
        {retryHref && (
          <a className="button" href={retryHref}>
            Try Again
          </a>
        )}
        <AppLink className="button secondary" to={backHref}>
          {backLabel}
        </AppLink>
      </p>
    </section>
  );
}
