import { AppLink } from "./nav";
import { HOME_PATH, LOGIN_PATH } from "~/search/paths";

/** /login visited directly (details-bom-signin §2 "Sign-in screens"). */
export function LoginScreen({ error, detail, supportHref }: { error: string | null; detail?: string | null; supportHref: string | null }) {
  return (
    <section className="state-screen" aria-labelledby="login-title">
      <h1 id="login-title">Sign in to Crib Search</h1>
      {error && (
        <div className="error" role="alert">
          <p>{error}</p>
          {detail && <p>{detail}</p>}
        </div>
      )}
      {/* A plain GET form: it works without JavaScript and changes nothing on the server. */}
      <form method="get" action={LOGIN_PATH} className="actions">
        <input type="hidden" name="start" value="1" />
        <button type="submit" className="button">
          Sign in with SSO
        </button>
        <AppLink className="button secondary" to={HOME_PATH}>
          Back to search
        </AppLink>
      </form>
      {/* SUPPORT_URL, the company site's /support, or the portal's own support page. */}
      {supportHref && (
        <p>
          <a href={supportHref}>Contact Support</a>
        </p>
      )}
    </section>
  );
}

export const CALLBACK_FAILED = "Login callback failed. Please try logging in again.";

/** A failed /callback: the message, the spec's suggestions, and two ways on. */
export function AuthFailedScreen({ message }: { message: string }) {
  return (
    <section className="state-screen" role="alert" aria-labelledby="auth-failed-title">
      <h1 id="auth-failed-title">Authentication Failed</h1>
      {/* Spec §8's text of a failed callback, then what failed. */}
      <p>{CALLBACK_FAILED}</p>
      <p>{message}</p>
      <ul>
        <li>Check your internet connection</li>
        <li>Verify you have access to this application</li>
        <li>Try signing in again</li>
        <li>Contact your administrator if the problem persists</li>
      </ul>
      <p className="actions">
        <a className="button" href={LOGIN_PATH}>
          Try Again
        </a>
        <a className="button secondary" href={HOME_PATH}>
          Go to Search
        </a>
      </p>
    </section>
  );
}

/**
 * Where the identity provider sends the browser back after Logout: signed out here and there, so
 * the next person at a shared terminal has to sign in again.
 */
export function SignedOutScreen() {
  return (
    <section className="state-screen" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">You have signed out</h1>
      <p>You are signed out of Crib Search and of the company sign-in.</p>
      <form method="get" action={LOGIN_PATH} className="actions">
        <input type="hidden" name="start" value="1" />
        <button type="submit" className="button">
          Sign in again
        </button>
      </form>
    </section>
  );
}
