import { LITE_PATH, THEME_PATH, type ThemeMode } from "./preferences";

/** The footer's links, written by the server: Contact Support, and with SITE_URL spec §2's other pages and three social links. */
export interface CompanyLinks {
  pages: { href: string; label: string }[];
  social: { href: string; label: string }[];
}

/**
 * Contact Support, the company site's links (when SITE_URL is set), and this browser's settings: lite mode (pages
 * without any JavaScript) and, once a theme was chosen, the way back to the system's theme. Both
 * are plain POST forms that come back to this page.
 */
export function SiteFooter({ lite, theme, here, company }: { lite: boolean; theme: ThemeMode; here: string; company: CompanyLinks | null }) {
  return (
    <footer className="site-footer">
      {company && (
        <nav aria-label="Support and company site">
          <LinkList links={company.pages} />
          {company.social.length > 0 && <LinkList links={company.social} className="social" />}
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

function LinkList({ links, className }: { links: CompanyLinks["pages"]; className?: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href}>{link.label}</a>
        </li>
      ))}
    </ul>
  );
}
