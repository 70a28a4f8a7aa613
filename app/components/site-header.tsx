import { HeaderSearch, type HeaderSearchView } from "./header-search";
import { LogoutForm } from "./sign-in-screens";
import { HOME_PATH } from "~/search/paths";

/**
 * Logo (a full reload to a clean home page), the search form, which works without JavaScript, and
 * with sign-in on, the signed-in user with Logout.
 */
export function SiteHeader({ search, account }: { search: HeaderSearchView; account: { name: string; csrf: string } | null }) {
  return (
    <header className="site-header">
      <a href={HOME_PATH} className="logo" aria-label="Crib Search home">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path d="M3 10.5 12 4l9 6.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" fill="currentColor" />
        </svg>
        <span>Crib Search</span>
      </a>
      <HeaderSearch search={search} />
      {account && <LogoutForm name={account.name} csrf={account.csrf} />}
    </header>
  );
}
