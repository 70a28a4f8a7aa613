import { LITE_PATH, THEME_PATH, type ThemeMode } from "./preferences";

/** Spec §2's footer links: pages of the company site (SITE_URL), never of the portal. */
const LINKS: [string, string][] = [
  ["/support", "Support"],
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
const SOCIAL: [string, string][] = [
  ["/social/facebook", "Facebook"],
  ["/social/x", "X"],
  ["/social/linkedin", "LinkedIn"],
];

/**
 * The company site's links (when SITE_URL is set), and this browser's settings: lite mode (pages
 * without any JavaScript) and, once a theme was chosen, the way back to the system's theme. Both
 * are plain POST forms that come back to this page.
 */
export function SiteFooter({ lite, theme, here, siteUrl }: { lite: boolean; theme: ThemeMode; here: string; siteUrl: string | null }) {
  return (
    <footer className="site-footer">
      {siteUrl && (
        <nav aria-label="Company site">
          <ul>
            {LINKS.map(([path, label]) => (
              <li key={path}>
                <a href={`${siteUrl}${path}`}>{label}</a>
              </li>
            ))}
          </ul>
          <ul className="social">
            {SOCIAL.map(([path, label]) => (
              <li key={path}>
                <a href={`${siteUrl}${path}`}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div className="preferences">
        <form method="post" action={LITE_PATH}>
          <input type="hidden" name="back" value={here} />
          <input type="hidden" name="lite" value={lite ? "0" : "1"} />
          <span>Lite mode (no JavaScript): {lite ? "on" : "off"}</span>{" "}
          <button type="submit" className="text-button">
            {lite ? "Turn lite mode off" : "Turn lite mode on"}
          </button>
        </form>
        {theme !== "auto" && (
          <form method="post" action={THEME_PATH}>
            <input type="hidden" name="back" value={here} />
            <span>Theme: {theme}</span>{" "}
            <button type="submit" name="mode" value="auto" className="text-button">
              Use the system&apos;s theme
            </button>
          </form>
        )}
      </div>
    </footer>
  );
}
