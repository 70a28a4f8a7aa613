import { HeaderSearch, type HeaderSearchView } from "./header-search";
import { THEME_PATH, toggledTheme, type ThemeMode } from "./preferences";
import { HOME_PATH, LOGOUT_PATH } from "~/search/paths";

/**
 * Logo (a full reload to a clean home page), the search form, which works without JavaScript, the
 * theme toggle, and with sign-in on, the signed-in user with Logout.
 */
export function SiteHeader({
  search,
  account,
  theme,
  here,
}: {
  search: HeaderSearchView;
  account: { name: string; csrf: string } | null;
  theme: ThemeMode;
  /** This page's path and query: the theme toggle comes back to it. */
  here: string;
}) {
  return (
    <header className="site-header">
      <a href={HOME_PATH} className="logo" aria-label="Crib Search home">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path d="M3 10.5 12 4l9 6.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" fill="currentColor" />
        </svg>
        <span>Crib Search</span>
      </a>
      <HeaderSearch search={search} />
      <ThemeToggle theme={theme} here={here} />
      {account && <LogoutForm name={account.name} csrf={account.csrf} />}
    </header>
  );
}

/**
 * Spec §4's toggle (light → dark, any other mode → light) as a plain POST form, so it works without
 * JavaScript; the server answers with the page again, already in the new theme.
 */
function ThemeToggle({ theme, here }: { theme: ThemeMode; here: string }) {
  const next = toggledTheme(theme);
  return (
    <form method="post" action={THEME_PATH} className="theme-toggle">
      <input type="hidden" name="back" value={here} />
      <button type="submit" name="mode" value={next} className="button secondary small">
        {next === "dark" ? "Dark theme" : "Light theme"}
      </button>
    </form>
  );
}

/** The header's sign-out: a POST form with the session's CSRF token, so it works without JavaScript. */
function LogoutForm({ name, csrf }: { name: string; csrf: string }) {
  return (
    <form method="post" action={LOGOUT_PATH} className="logout">
      <input type="hidden" name="csrf" value={csrf} />
      <span className="user-name">{name}</span>
      <button type="submit" className="button secondary small">
        Logout
      </button>
    </form>
  );
}
