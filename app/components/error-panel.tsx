import { AppLink } from "./nav";

/** An error of the detail, BOM and Where Used pages: the message, Try Again and ← Back to Search. */
export function ErrorPanel({ title, message, retryHref, backHref }: { title?: string; message: string; retryHref: string; backHref: string }) {
  return (
    <section className="state-screen" role="alert" aria-labelledby="error-panel-title">
      <h1 id="error-panel-title">{title ?? message}</h1>
      {title && <p>{message}</p>}
      <p className="actions">
        <a className="button" href={retryHref}>
          Try Again
        </a>
        <AppLink className="button secondary" to={backHref}>
          ← Back to Search
        </AppLink>
      </p>
    </section>
  );
}
