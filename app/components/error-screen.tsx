import { AppLink } from "./nav";
import { HOME_PATH } from "~/search/paths";

/** Shown for unexpected render errors (spec §2 "Error screen"). */
export function ErrorScreen() {
  return (
    <section className="state-screen" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p>We apologize for the inconvenience. An unexpected error has occurred.</p>
      <p className="actions">
        {/* A plain link retries without needing JavaScript. */}
        <a className="button" href="">
          Try Again
        </a>
        <a className="button secondary" href={HOME_PATH}>
          Go Home
        </a>
      </p>
    </section>
  );
}

export function NotFoundScreen() {
  return (
    <section className="state-screen" aria-labelledby="not-found-title">
      <h1 id="not-found-title">404 - Page not found</h1>
      <p>There is no page at this address.</p>
      <p className="actions">
        <AppLink className="button" to={HOME_PATH}>
          Go to Search
        </AppLink>
      </p>
    </section>
  );
}
