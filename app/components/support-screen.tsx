import { AppLink } from "./nav";
import { HOME_PATH } from "~/search/paths";

/**
 * /support: where the spec's Contact Support leads (core §2) when no SUPPORT_URL or company site
 * is configured, so a default install never leaves a person with no one to ask.
 */
export function SupportScreen() {
  return (
    <section className="state-screen" aria-labelledby="support-title">
      <h1 id="support-title">Contact Support</h1>
      <p>Crib Search is looked after by your site&apos;s IT service desk. When you contact them, tell them:</p>
      <ul>
        <li>the address of the page where it went wrong,</li>
        <li>what you did and what you saw,</li>
        <li>the date and time it happened.</li>
      </ul>
      <p className="actions">
        <AppLink className="button" to={HOME_PATH}>
          Back to search
        </AppLink>
      </p>
    </section>
  );
}
